/**
 * `/invitations/{token}`, the link in an invitation e-mail (issue 16). Signed in with a verified
 * address: the invitation is accepted at once and the map opens in the editor. Signed out: what
 * happened, and "Create an account" or "Log in", both of which come back here afterwards (the
 * guards carry this page in router state). An address still to verify: how to, and the page goes
 * on by itself once it is. A link that is not valid any more (expired, withdrawn, used by
 * someone else) says the server's reason and leads back to /maps.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { LogoMark } from '../../../components/logo';
import { Alert } from '../../../components/ui/alert';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { toApiError, type ApiError } from '../../../lib/api';
import { paths } from '../../../lib/paths';
import { forgetInvitation, rememberInvitation } from '../../../lib/pending-invitation';
import { useSession } from '../../../lib/session';
import { callSharing } from '../api/sharing-api';
import './invitation-page.css';

const VERIFY_FIRST = 'Verify your email address first.';

type Phase = { kind: 'waiting' } | { kind: 'joining' } | { kind: 'failed'; error: ApiError };

export function InvitationPage({ token }: { token: string }) {
  const { status, user, refresh } = useSession();
  const navigate = useNavigate();
  const [phase, setPhase] = useState<Phase>({ kind: 'waiting' });
  const tried = useRef(false);
  const verified = status === 'signedIn' && user?.emailVerified === true;
  const here = { from: { pathname: paths.invitation.to(token), search: '', hash: '' } };

  // Until it is accepted, this browser remembers the link (the verification page leads back).
  useEffect(() => {
    if (status === 'signedOut' || (status === 'signedIn' && !verified)) rememberInvitation(token);
  }, [status, verified, token]);

  useEffect(() => {
    if (!verified || tried.current) return;
    tried.current = true;
    setPhase({ kind: 'joining' });
    callSharing('acceptMapInvitation', { token }).then(
      ({ result }) => {
        forgetInvitation();
        void navigate(paths.map.to(result.mapId), { replace: true });
      },
      (failure) => {
        const error = toApiError(failure);
        if (error.message === VERIFY_FIRST) {
          // The session here is older than the address's verification elsewhere, or the reverse.
          tried.current = false;
          setPhase({ kind: 'waiting' });
          void refresh();
          return;
        }
        if (error.code !== 'unavailable' && error.code !== 'internal') forgetInvitation();
        setPhase({ kind: 'failed', error });
      },
    );
  }, [verified, token, navigate, refresh]);

  // Verifying happens in another tab (the e-mail's link): look again when this one is back.
  useEffect(() => {
    if (status !== 'signedIn' || verified) return;
    const onFocus = () => void refresh();
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, [status, verified, refresh]);

  if (status === 'loading' || phase.kind === 'joining' || (verified && phase.kind === 'waiting')) {
    return (
      <InvitationCard title="Joining the map" subtitle="Accepting your invitation…">
        <title>Joining the map · Mapfold</title>
        <div className="invite-page__wait">
          <Spinner size="lg" label="Accepting the invitation" />
        </div>
      </InvitationCard>
    );
  }

  if (phase.kind === 'failed') {
    return (
      <InvitationCard title="This invitation cannot be used" subtitle="The link may have expired, been withdrawn, or been used already.">
        <title>Invitation · Mapfold</title>
        <Alert>{phase.error.message}</Alert>
        <p className="invite-page__text">Ask the person who invited you to send a new invitation.</p>
        <div className="invite-page__actions">
          <ButtonLink to={paths.maps} block size="lg">
            Go to your maps
          </ButtonLink>
        </div>
      </InvitationCard>
    );
  }

  if (status === 'signedIn' && user) {
    return (
      <InvitationCard title="Verify your email to join" subtitle="One step before the map opens.">
        <title>Invitation · Mapfold</title>
        <p className="invite-page__text">
          We sent a link to <strong>{user.email}</strong>. Open it to confirm your address, then come back to this page: the map opens by itself.
        </p>
        <div className="invite-page__actions">
          <Button block size="lg" onClick={() => void refresh()}>
            I have verified my address
          </Button>
        </div>
      </InvitationCard>
    );
  }

  return (
    <InvitationCard title="You are invited to a map" subtitle="Someone shared a map on Mapfold with you.">
      <title>You are invited · Mapfold</title>
      <ul className="invite-page__steps">
        <li>
          <StepIcon />
          Create a free account with any address, or log in if you have one.
        </li>
        <li>
          <StepIcon />
          The map opens in the editor right after, ready to view or edit with its team.
        </li>
      </ul>
      <div className="invite-page__actions">
        <ButtonLink to={paths.register} state={here} block size="lg">
          Create an account
        </ButtonLink>
        <ButtonLink to={paths.login} state={here} block size="lg" variant="secondary">
          Log in
        </ButtonLink>
      </div>
    </InvitationCard>
  );
}

function InvitationCard({ title, subtitle, children }: { title: string; subtitle: string; children: ReactNode }) {
  return (
    <div className="invite-page">
      <div className="invite-page__card card">
        <div className="invite-page__head">
          <span className="invite-page__mark">
            <LogoMark size={40} />
            <span className="invite-page__badge" aria-hidden="true">
              <svg viewBox="0 0 20 20" width="14" height="14" focusable="false">
                <circle cx="8" cy="7" r="3" fill="none" stroke="currentColor" strokeWidth="2" />
                <path d="M2.5 16.5c.6-2.9 2.8-4.5 5.5-4.5s4.9 1.6 5.5 4.5M15.5 6.5v5M13 9h5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
              </svg>
            </span>
          </span>
          <h1>{title}</h1>
          <p>{subtitle}</p>
        </div>
        {children}
      </div>
    </div>
  );
}

function StepIcon() {
  return (
    <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true" focusable="false">
      <circle className="invite-page__step-disc" cx="10" cy="10" r="8" />
      <path className="invite-page__step-check" d="m6.5 10.5 2.5 2.5 4.5-5" fill="none" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
