/**
 * The subscribe modal (spec §2): opened by the #subscribe fragment on any page of the main
 * layout, fullscreen, and not closed by a click outside the content (there is no outside: a
 * stray click must not lose a half-chosen order). Esc and the Close button close it by
 * removing the fragment (replacing the history entry, so Back does not reopen it). A
 * signed-out visitor is sent to /login, which brings them back here afterwards.
 */
import { useEffect, useId, useRef } from 'react';
import { createPortal } from 'react-dom';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { MODAL_ANIMATION_MS, prefersReducedMotion } from '../../components/ui/motion';
import { paths, SUBSCRIBE_HASH } from '../../lib/paths';
import { useSession } from '../../lib/session';
import { PlanPicker } from './plan-picker';
import './billing.css';

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), select, textarea, summary, [tabindex]:not([tabindex="-1"])';

export function SubscribeModal() {
  const location = useLocation();
  const { status, user } = useSession();
  if (location.hash !== SUBSCRIBE_HASH || status === 'loading') return null;
  if (status === 'signedOut' || !user) {
    return <Navigate to={paths.login} replace state={{ from: { pathname: location.pathname, search: location.search, hash: location.hash } }} />;
  }
  return <SubscribeDialog uid={user.uid} />;
}

function SubscribeDialog({ uid }: { uid: string }) {
  const titleId = useId();
  const subtitleId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const location = useLocation();
  const navigate = useNavigate();

  const close = () => navigate({ pathname: location.pathname, search: location.search }, { replace: true, state: location.state });

  // Esc closes wherever focus is (a click on the backdrop leaves it on the body), and Tab
  // cycles inside the dialog, bringing back focus that got out.
  const closeRef = useRef(close);
  closeRef.current = close;
  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialogRef.current?.focus({ preventScroll: true });
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    const onKeyDown = (event: KeyboardEvent) => {
      const dialog = dialogRef.current;
      if (!dialog || event.defaultPrevented) return;
      if (event.key === 'Escape') {
        event.preventDefault();
        closeRef.current();
        return;
      }
      if (event.key !== 'Tab') return;
      const focusable = [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)];
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      if (!first || !last) return;
      const active = document.activeElement;
      const inside = active instanceof Node && dialog.contains(active);
      if (event.shiftKey && (!inside || active === first || active === dialog)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (!inside || active === last)) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.body.style.overflow = overflow;
      if (previous?.isConnected) previous.focus();
    };
  }, []);

  const animation = prefersReducedMotion() ? 'none' : undefined;
  return createPortal(
    <div className="subscribe-modal" data-testid="subscribe-overlay">
      <div
        ref={dialogRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={subtitleId}
        tabIndex={-1}
        className="subscribe-modal__dialog"
        style={{ animationDuration: `${MODAL_ANIMATION_MS}ms`, ...(animation ? { animation } : {}) }}
      >
        <div className="subscribe-modal__bar">
          <button type="button" className="subscribe-modal__close" onClick={close}>
            <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true" focusable="false">
              <path d="m5 5 10 10M15 5 5 15" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
            Close
          </button>
        </div>
        <div className="subscribe-modal__body">
          <div className="subscribe-modal__header">
            <h2 id={titleId} className="subscribe-modal__title">
              Pick your plan
            </h2>
            <p id={subtitleId} className="subscribe-modal__subtitle">
              Start or manage subscription
            </p>
          </div>
          <PlanPicker uid={uid} />
        </div>
      </div>
    </div>,
    document.body,
  );
}
