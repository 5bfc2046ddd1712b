import { useState, type FormEvent } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { useSession } from '../../../lib/session';
import { fieldErrorOf } from './field-error';
import { ContinueWithGoogle } from './google-button';
import { NewPasswordField } from './new-password-field';

const REGISTER_FIELDS = ['displayName', 'email', 'password'] as const;
type RegisterField = (typeof REGISTER_FIELDS)[number];

/**
 * Creates an account (display name, email, password) and signs it in. In Clerk mode Clerk may
 * first e-mail a code to confirm the address: the form then asks for it.
 */
export function RegisterForm() {
  const { register, pendingSignUp } = useSession();
  const [displayName, setDisplayName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<{ field: RegisterField; text: string } | null>(null);
  const errorFor = (field: RegisterField) => (fieldError?.field === field ? fieldError.text : null);

  if (pendingSignUp) return <ConfirmSignUpForm email={pendingSignUp.email} />;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitting(true);
    setError(null);
    setFieldError(null);
    const failure = await register({ displayName: displayName.trim(), email: email.trim(), password });
    setSubmitting(false);
    if (!failure) return;
    const onField = fieldErrorOf(failure.message, REGISTER_FIELDS);
    if (onField) setFieldError(onField);
    else setError(failure.message);
  };

  return (
    <>
      <ContinueWithGoogle />
      <form className="auth-form" onSubmit={(event) => void onSubmit(event)} aria-label="Sign up">
        {error ? <Alert>{error}</Alert> : null}
        <TextField label="Display name" name="displayName" autoComplete="name" required maxLength={80} value={displayName} onChange={(e) => setDisplayName(e.target.value)} disabled={submitting} error={errorFor('displayName')} />
        <TextField label="Email" type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} disabled={submitting} error={errorFor('email')} />
        <NewPasswordField
          label="Password"
          name="password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          disabled={submitting}
          error={errorFor('password')}
        />
        <Button type="submit" block size="lg" loading={submitting}>
          Create account
        </Button>
      </form>
    </>
  );
}

/** Clerk mode: the code Clerk e-mailed to confirm the address, which completes the sign-up. */
function ConfirmSignUpForm({ email }: { email: string }) {
  const { confirmSignUp } = useSession();
  const [code, setCode] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitting(true);
    setError(null);
    const failure = await confirmSignUp(code.trim());
    setSubmitting(false);
    if (failure) setError(failure.message);
  };

  return (
    <form className="auth-form" onSubmit={(event) => void onSubmit(event)} aria-label="Confirm your email address">
      <Alert tone="info">
        We sent a code to <strong>{email}</strong>. Check your inbox and spam folder, and enter it below.
      </Alert>
      {error ? <Alert>{error}</Alert> : null}
      <TextField
        label="Verification code"
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        required
        value={code}
        onChange={(e) => setCode(e.target.value)}
        disabled={submitting}
      />
      <Button type="submit" block size="lg" loading={submitting}>
        Confirm and continue
      </Button>
    </form>
  );
}
