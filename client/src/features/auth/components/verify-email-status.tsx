import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import { toApiError } from '../../../lib/api';
import { useSession } from '../../../lib/session';
import { authApi } from '../api/auth-api';

export const EMAIL_VERIFIED_MESSAGE = 'Your email address is verified.';
export const INVALID_VERIFICATION_LINK_MESSAGE =
  'This verification link is invalid or has expired. Sign in and press Resend to get a new one.';

type State = { kind: 'verifying' } | { kind: 'verified' } | { kind: 'failed'; message: string };

/**
 * The page behind the e-mailed link (`/verify-email?token=...`): posts the token once on load,
 * then shows the outcome. A signed-in user's session picks up the verified address at once.
 */
export function VerifyEmailStatus({ token, verifiedActions, failedActions }: { token: string | null; verifiedActions: ReactNode; failedActions: ReactNode }) {
  const { setUser, status, refresh } = useSession();
  const [state, setState] = useState<State>(token ? { kind: 'verifying' } : { kind: 'failed', message: INVALID_VERIFICATION_LINK_MESSAGE });
  // One post per token, even when React runs the effect twice (StrictMode): a token works once.
  const posted = useRef<string | null>(null);
  const statusRef = useRef(status);
  statusRef.current = status;

  useEffect(() => {
    if (!token || posted.current === token) return;
    posted.current = token;
    authApi()
      .verifyEmail(token)
      .then((user) => {
        if (user) setUser(user);
        // Signed in but the answer had no user (another account's link): read the session again.
        else if (statusRef.current === 'signedIn') void refresh();
        setState({ kind: 'verified' });
      })
      .catch((failure: unknown) => setState({ kind: 'failed', message: toApiError(failure).message }));
  }, [token, setUser, refresh]);

  if (state.kind === 'verifying') {
    return (
      <div className="auth-done">
        <Spinner size="lg" label="Verifying your email address" />
        <p className="muted">Verifying your email address…</p>
      </div>
    );
  }

  const ok = state.kind === 'verified';
  return (
    <div className="auth-done">
      <span className={`auth-done__icon ${ok ? 'auth-done__icon--ok' : 'auth-done__icon--error'}`} aria-hidden="true">
        <svg width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round">
          {ok ? <path d="m5 12.5 4.5 4.5L19 7.5" /> : <path d="M12 7v6M12 17h.01" />}
        </svg>
      </span>
      {ok ? (
        <p role="status" className="auth-done__message">
          {EMAIL_VERIFIED_MESSAGE}
        </p>
      ) : (
        <p role="alert" className="auth-done__message">
          {state.message}
        </p>
      )}
      {ok ? verifiedActions : failedActions}
    </div>
  );
}
