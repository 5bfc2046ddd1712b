import { useState, type FormEvent, type ReactNode } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { useSession } from '../../../lib/session';
import { ContinueWithGoogle } from './google-button';

/**
 * Email and password sign-in (and, in Clerk mode, "Continue with Google"). On success the session changes and the page's guard moves on
 * (to the page the visitor wanted, or /maps); on failure the server's message is shown.
 */
export function LoginForm({ resetLink }: { resetLink?: ReactNode }) {
  const { login } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitting(true);
    setError(null);
    const failure = await login(email.trim(), password);
    setSubmitting(false);
    if (failure) setError(failure.message);
  };

  return (
    <>
    <ContinueWithGoogle />
    <form className="auth-form" onSubmit={(event) => void onSubmit(event)} aria-label="Log in">
      {error ? <Alert>{error}</Alert> : null}
      <TextField label="Email" type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} disabled={submitting} />
      <div className="field">
        <TextField
          label="Password"
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          disabled={submitting}
        />
        {resetLink}
      </div>
      <Button type="submit" block size="lg" loading={submitting}>
        Log in
      </Button>
    </form>
    </>
  );
}
