/**
 * PostHog as an analytics sink (client/src/lib/analytics.ts). `posthog-js` is loaded by a
 * dynamic import, so it is a chunk of its own: the main bundle does not grow, and nothing of
 * PostHog's runs (no cookie, no request) until a key is configured and the visitor consented.
 * The consent feature decides when to call {@link startPosthogSink}; this module only speaks
 * to PostHog.
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
  const { default: posthog } = await import('posthog-js');
  posthog.init(settings.key, {
    api_host: settings.host,
    // We send page_view ourselves on every route change (spec §2), with the path.
    capture_pageview: false,
    capture_pageleave: false,
    // Only the events we send: no click capture, heatmaps, replays or pop-ups of PostHog's own.
    autocapture: false,
    capture_dead_clicks: false,
    capture_heatmaps: false,
    disable_session_recording: true,
    disable_surveys: true,
    disable_product_tours: true,
    disable_conversations: true,
    disable_web_experiments: true,
    // No script from PostHog's servers (its remote config, extensions, site apps): the page's
    // CSP allows scripts from this site only; the config then comes as JSON (connect-src).
    disable_external_dependency_loading: true,
    // Anonymous visitors stay anonymous: a person profile only for identified users.
    person_profiles: 'identified_only',
    persistence: 'localStorage+cookie',
  });
  // A visitor who declined earlier and now accepts: PostHog remembers its own opt-out.
  if (posthog.has_opted_out_capturing()) posthog.opt_in_capturing();
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
      posthog.opt_out_capturing();
      posthog.reset();
    },
  };
}
