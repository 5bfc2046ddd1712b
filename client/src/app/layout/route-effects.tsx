import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { useAnalyticsConsent } from '../../features/consent/use-analytics-consent';
import { logEvent } from '../../lib/analytics';

/** Delay before a new page scrolls to the top (spec §9), letting the page fade start first. */
export const SCROLL_TO_TOP_DELAY_MS = 200;

/**
 * On each route change: log a page_view with the path (spec §2), and scroll to the top 200 ms
 * later. PostHog receives it too once the visitor has accepted analytics (the consent feature
 * connects it, before this effect runs); the local recorder always does.
 */
export function RouteEffects() {
  const { pathname } = useLocation();
  useAnalyticsConsent();
  useEffect(() => {
    logEvent('page_view', { path: pathname });
    const timer = setTimeout(() => window.scrollTo({ top: 0, left: 0 }), SCROLL_TO_TOP_DELAY_MS);
    return () => clearTimeout(timer);
  }, [pathname]);
  return null;
}
