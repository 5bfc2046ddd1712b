/**
 * Product analytics (spec §2: a page_view with the path on each route change), behind one
 * port: {@link logEvent} hands each event to every sink. The default sink records locally
 * (the last events in memory and in localStorage, and a console.debug line), so events can be
 * inspected without any analytics service; it is essential (it never leaves the browser), so
 * it runs without consent. PostHog (posthog-sink.ts) is added as a further sink by the consent
 * feature only once the visitor accepts analytics, and removed when they decline: an event
 * reaches only the sinks present when it is logged, so nothing from before consent is sent.
 */
export interface AnalyticsEvent {
  name: string;
  params: Record<string, string | number | boolean>;
}

export interface RecordedEvent extends AnalyticsEvent {
  /** When it was logged, ISO 8601. */
  at: string;
}

export type AnalyticsSink = (event: AnalyticsEvent) => void;
type Sink = AnalyticsSink;
const sinks = new Set<Sink>();

/** localStorage key of the locally recorded events. */
export const ANALYTICS_STORAGE_KEY = 'mapfold.analytics.events';
/** How many recent events the local recorder keeps. */
export const ANALYTICS_RECENT_LIMIT = 50;

const recent: RecordedEvent[] = [];

function storage(): Storage | null {
  try {
    return typeof window !== 'undefined' ? window.localStorage : null;
  } catch {
    // Storage can be blocked (privacy settings, sandboxed frames).
    return null;
  }
}

/** The default sink: keeps the last events in memory and localStorage and logs them at debug level. */
export const localRecorder: Sink = (event) => {
  const recorded: RecordedEvent = { ...event, at: new Date().toISOString() };
  recent.push(recorded);
  if (recent.length > ANALYTICS_RECENT_LIMIT) recent.splice(0, recent.length - ANALYTICS_RECENT_LIMIT);
  try {
    storage()?.setItem(ANALYTICS_STORAGE_KEY, JSON.stringify(recent));
  } catch {
    // Full or blocked storage: memory still has them.
  }
  // Not under test runs, where it would only bury the test output.
  if (import.meta.env.MODE !== 'test') console.debug('[analytics]', event.name, event.params);
};

/** The events the local recorder kept, oldest first. */
export function recentEvents(): readonly RecordedEvent[] {
  return [...recent];
}

sinks.add(localRecorder);

/** Adds a sink for the events logged from now on; the returned function removes it again. */
export function addAnalyticsSink(sink: Sink): () => void {
  sinks.add(sink);
  return () => sinks.delete(sink);
}

/** Hands an event to every sink (the local recorder always; PostHog after consent). */
export function logEvent(name: string, params: AnalyticsEvent['params'] = {}): void {
  for (const sink of sinks) {
    try {
      sink({ name, params });
    } catch {
      // Analytics must never break the page.
    }
  }
}
