/**
 * PostHog as an analytics sink (client/src/lib/analytics.ts), through `posthog-js-lite`: the
 * app sends only its own events (page views with the path, and the events it logs), which is
 * what the light client does: capture, opt out, reset, nothing else (no autocapture, replays,
 * surveys, toolbar or remote scripts to keep off). This module and the client are loaded by a
 * dynamic import, so neither is in any page's first chunk, and nothing of PostHog's runs (no
 * storage, no request) until a key is configured and the visitor consented. The consent
 * feature decides when to call {@link startPosthogSink}; this module only speaks to PostHog.
 */
import type { PosthogSettings } from '../../../events/client-config';
import type { AnalyticsEvent } from './analytics';

export interface PosthogSink {
  /** Hands one event to PostHog. */
  sink(event: AnalyticsEvent): void;
  /** The visitor withdrew consent: PostHog stops capturing and forgets this browser's id. */
  stop(): void;
}

/** Our event names in PostHog's vocabulary, so its web analytics read our page views. */
function posthogName(name: string): string {
  return name === 'page_view' ? '$pageview' : name;
}

/** Loads and starts PostHog; rejects when the chunk cannot be loaded (offline, blocked). */
export async function startPosthogSink(settings: PosthogSettings): Promise<PosthogSink> {
  const { PostHog } = await import('posthog-js-lite');
  const posthog = new PostHog(settings.key, {
    host: settings.host,
    // We send page_view ourselves on every route change (spec §2), with the path.
    captureHistoryEvents: false,
    // Only the events we send: no click capture.
    autocapture: false,
    // No requests of PostHog's own at start: no feature flags, remote config or surveys are used.
    preloadFeatureFlags: false,
    disableRemoteConfig: true,
    disableSurveys: true,
    // Anonymous visitors stay anonymous: a person profile only for identified users.
    personProfiles: 'identified_only',
    persistence: 'localStorage',
  });
  // A visitor who declined earlier and now accepts: PostHog remembers its own opt-out.
  if (posthog.optedOut) void posthog.optIn();
  return {
    sink(event) {
      const properties: Record<string, string | number | boolean> = { ...event.params };
      if (event.name === 'page_view' && typeof event.params.path === 'string') {
        properties.$current_url = `${window.location.origin}${event.params.path}`;
        properties.$pathname = event.params.path;
      }
      posthog.capture(posthogName(event.name), properties);
    },
    stop() {
      void posthog.optOut();
      posthog.reset();
    },
  };
}
