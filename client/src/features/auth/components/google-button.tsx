import { useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { useSession } from '../../../lib/session';

function GoogleMark() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path fill="#4285F4" d="M23.5 12.3c0-.8-.1-1.6-.2-2.3H12v4.4h6.5a5.5 5.5 0 0 1-2.4 3.6v3h3.9c2.2-2.1 3.5-5.1 3.5-8.7z" />
      <path fill="#34A853" d="M12 24c3.2 0 6-1.1 8-2.9l-3.9-3c-1.1.7-2.5 1.2-4.1 1.2-3.1 0-5.8-2.1-6.7-5H1.3v3.1A12 12 0 0 0 12 24z" />
      <path fill="#FBBC05" d="M5.3 14.3a7.2 7.2 0 0 1 0-4.6V6.6h-4a12 12 0 0 0 0 10.8z" />
      <path fill="#EA4335" d="M12 4.8c1.8 0 3.3.6 4.6 1.8l3.4-3.4A12 12 0 0 0 1.3 6.6l4 3.1c.9-2.9 3.6-4.9 6.7-4.9z" />
    </svg>
  );
}

/**
 * "Continue with Google" (Clerk mode only: Clerk's OAuth with `oauth_google`), above an "or"
 * divider; renders nothing in the local mode.
 */
export function ContinueWithGoogle() {
  const { continueWithGoogle } = useSession();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!continueWithGoogle) return null;

  const onClick = async () => {
    setBusy(true);
    setError(null);
    const failure = await continueWithGoogle();
    // On success the browser is on its way to Google; stay busy until it leaves.
    if (failure) {
      setBusy(false);
      setError(failure.message);
    }
  };

  return (
    <div className="auth-alt">
      {error ? <Alert>{error}</Alert> : null}
      <Button variant="secondary" block size="lg" onClick={() => void onClick()} loading={busy}>
        {busy ? null : <GoogleMark />}
        Continue with Google
      </Button>
      <p className="auth-divider">
        <span>or</span>
      </p>
    </div>
  );
}
