/**
 * Product analytics events (spec §2: a page_view with the path on each route change). The
 * analytics services are a later issue: until then events go to whatever sinks are added
 * (none by default; tests add one).
 */
export interface AnalyticsEvent {
  name: string;
  params: Record<string, string | number | boolean>;
}

type Sink = (event: AnalyticsEvent) => void;
const sinks = new Set<Sink>();

export function addAnalyticsSink(sink: Sink): () => void {
  sinks.add(sink);
  return () => sinks.delete(sink);
}

export function logEvent(name: string, params: AnalyticsEvent['params'] = {}): void {
  for (const sink of sinks) {
    try {
      sink({ name, params });
    } catch {
      // Analytics must never break the page.
    }
  }
}
