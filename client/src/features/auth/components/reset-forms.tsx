import { useState, type FormEvent, type ReactNode } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { toApiError } from '../../../lib/api';
import { useSession } from '../../../lib/session';
import { authApi } from '../api/auth-api';
import { fieldErrorOf } from './field-error';
import { NewPasswordField } from './new-password-field';

/**
 * What the page says after a reset request, whether or not the address has an account. Each
 * request revokes the links sent before it, which is worth saying next to "Send the link again".
 */
export const RESET_REQUESTED_MESSAGE =
  'If an account exists for that address, we have sent a link to reset its password. Check your inbox and spam folder; only the newest link works.';

/** Step one of a reset: the address to send the link to. */
export function ResetRequestForm({ footer }: { footer?: ReactNode }) {
  const [email, setEmail] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitting(true);
    setError(null);
    try {
      await authApi().requestPasswordReset(email.trim());
      setSentTo(email.trim());
    } catch (failure) {
      setError(toApiError(failure).message);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <form className="auth-form" onSubmit={(event) => void onSubmit(event)} aria-label="Reset password">
      {sentTo ? <Alert tone="success">{RESET_REQUESTED_MESSAGE}</Alert> : null}
      {error ? <Alert>{error}</Alert> : null}
      <TextField
        label="Email"
        type="email"
        name="email"
        autoComplete="email"
        required
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        disabled={submitting}
        hint="The address you signed up with."
      />
      <Button type="submit" block size="lg" loading={submitting}>
        {sentTo ? 'Send the link again' : 'Send reset link'}
      </Button>
      {footer}
    </form>
  );
}

/**
 * Step two, from the e-mailed link (`/reset?token=...`): the new password. The server signs in
 * with it (every other session of the user is signed out); the signed-out-only route then moves
 * on to /maps.
 */
export function NewPasswordForm({ token, onDone, footer }: { token: string; onDone: () => void; footer?: ReactNode }) {
  const { setUser } = useSession();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const mismatch = confirm !== '' && confirm !== password;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (password !== confirm) {
      setError('The two passwords are not the same.');
      return;
    }
    setSubmitting(true);
    setError(null);
    setPasswordError(null);
    try {
      const user = await authApi().resetPassword(token, password);
      setUser(user);
      onDone();
    } catch (failure) {
      const message = toApiError(failure).message;
      const onField = fieldErrorOf(message, ['password'] as const);
      if (onField) setPasswordError(onField.text);
      else setError(message);
      setSubmitting(false);
    }
  };

  return (
    <form className="auth-form" onSubmit={(event) => void onSubmit(event)} aria-label="Choose a new password">
      {error ? <Alert>{error}</Alert> : null}
      <NewPasswordField
        label="New password"
        name="password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        disabled={submitting}
        error={passwordError}
      />
      <TextField
        label="Repeat the new password"
        type="password"
        name="confirm"
        autoComplete="new-password"
        required
        value={confirm}
        onChange={(e) => setConfirm(e.target.value)}
        disabled={submitting}
        error={mismatch ? 'The two passwords are not the same.' : null}
      />
      <Button type="submit" block size="lg" loading={submitting}>
        Set new password and log in
      </Button>
      {footer}
    </form>
  );
}
