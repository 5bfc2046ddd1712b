import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { toApiError } from '../../../lib/api';
import { useSession } from '../../../lib/session';
import { authApi } from '../api/auth-api';
import './verify-email-banner.css';

export const VERIFICATION_SENT_MESSAGE = 'Verification email sent, please check your inbox and spam folder.';

/**
 * Shown on every page of the main layout while the signed-in user's address is unverified
 * (spec §2): what to do, a Resend button, and a way to pick up the verified state.
 */
export function VerifyEmailBanner() {
  const { status, user, refresh } = useSession();
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);

  if (status !== 'signedIn' || !user || user.emailVerified) return null;

  const resend = async () => {
    setSending(true);
    setError(null);
    setSent(false);
    try {
      await authApi().resendVerification();
      setSent(true);
    } catch (failure) {
      setError(toApiError(failure).message);
    } finally {
      setSending(false);
    }
  };

  const recheck = async () => {
    setChecking(true);
    await refresh();
    setChecking(false);
  };

  return (
    <section className="verify-banner" aria-labelledby="verify-banner-title">
      <div className="container verify-banner__inner">
        <svg className="verify-banner__icon" width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
          <path d="M4 6h16v12H4z" />
          <path d="m4 7 8 6 8-6" />
        </svg>
        <div className="verify-banner__text">
          <h2 id="verify-banner-title">Verify your email address</h2>
          <p>
            We sent a verification link to <strong>{user.email}</strong>. Check your inbox and spam folder, click the link, then refresh this page.
          </p>
          {sent ? (
            <p role="status" className="verify-banner__note verify-banner__note--ok">
              {VERIFICATION_SENT_MESSAGE}
            </p>
          ) : null}
          {error ? (
            <p role="alert" className="verify-banner__note verify-banner__note--error">
              {error}
            </p>
          ) : null}
        </div>
        <div className="verify-banner__actions">
          <Button size="sm" onClick={() => void resend()} loading={sending}>
            Resend
          </Button>
          <Button size="sm" variant="secondary" onClick={() => void recheck()} loading={checking}>
            Refresh
          </Button>
        </div>
      </div>
    </section>
  );
}
