import { useState, type FormEvent } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { useSession } from '../../../lib/session';

export const PASSWORD_MIN_LENGTH = 8;

/** Creates an account (display name, email, password) and signs it in. */
export function RegisterForm() {
  const { register } = useSession();
  const [displayName, setDisplayName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitting(true);
    setError(null);
    const failure = await register({ displayName: displayName.trim(), email: email.trim(), password });
    setSubmitting(false);
    if (failure) setError(failure.message);
  };

  return (
    <form className="auth-form" onSubmit={(event) => void onSubmit(event)} aria-label="Sign up">
      {error ? <Alert>{error}</Alert> : null}
      <TextField label="Display name" name="displayName" autoComplete="name" required maxLength={80} value={displayName} onChange={(e) => setDisplayName(e.target.value)} disabled={submitting} />
      <TextField label="Email" type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} disabled={submitting} />
      <TextField
        label="Password"
        type="password"
        name="password"
        autoComplete="new-password"
        required
        minLength={PASSWORD_MIN_LENGTH}
        hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        disabled={submitting}
      />
      <Button type="submit" block size="lg" loading={submitting}>
        Create account
      </Button>
    </form>
  );
}
