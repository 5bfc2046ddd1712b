import { useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import { useHydrated } from '../../../lib/use-hydrated';
import { useConsent } from '../use-consent';
import './consent-banner.css';

export const CONSENT_BANNER_LABEL = 'Cookie consent';


/**
 * Asks before anything non-essential is tracked: shown until the visitor accepts or declines
 * analytics, and again from the footer's "Cookie settings". Accept and Decline look the same
 * (declining must be as easy as accepting). It sits at the bottom of the page, in the flow:
 * it stays in view while scrolling but never hides the footer's last line. Not mounted on the
 * embeddable viewer (/m/{id}), which lives outside the main layout.
 */
export function ConsentBanner() {
  const { choice, settingsOpen, accept, decline } = useConsent();
  const region = useRef<HTMLElement>(null);
  // Not in a page rendered before any script (it cannot know what this visitor chose): it
  // appears once the page is hydrated, and at once in a page React renders itself.
  const visible = useHydrated() && (choice === null || settingsOpen);

  // Reopened from the footer: take the keyboard there, so the choice is one Tab away.
  useEffect(() => {
    if (settingsOpen) region.current?.focus();
  }, [settingsOpen]);

  if (!visible) return null;
  return (
    <section ref={region} className="consent-banner" role="region" aria-label={CONSENT_BANNER_LABEL} tabIndex={-1}>
      <div className="consent-banner__card">
        <p className="consent-banner__text">
          We use cookies and similar tech for analytics, to learn which pages help and what to improve. Nothing is
          sent until you accept. <Link to="/privacy">Privacy Policy</Link>
          {settingsOpen && choice ? (
            <span className="consent-banner__current"> You have {choice === 'accepted' ? 'accepted' : 'declined'} analytics.</span>
          ) : null}
        </p>
        <div className="consent-banner__actions">
          <Button variant="secondary" size="sm" onClick={decline}>
            Decline
          </Button>
          <Button variant="secondary" size="sm" onClick={accept}>
            Accept
          </Button>
        </div>
      </div>
    </section>
  );
}
