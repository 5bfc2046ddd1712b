import { useLayoutEffect } from 'react';
import { posthogBridge } from './posthog-bridge';
import { useConsent } from './use-consent';

/**
 * Keeps PostHog in step with the visitor's choice. A layout effect, so that for a visitor who
 * accepted earlier the sink is in place before the first page_view (logged in an effect).
 */
export function useAnalyticsConsent(): void {
  const { choice } = useConsent();
  useLayoutEffect(() => {
    posthogBridge.update(choice);
  }, [choice]);
}
