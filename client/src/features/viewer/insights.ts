/**
 * What the public viewer tells the map's owner (issue 19, part 4): views, searches, location
 * opens and directions asked, counted per page and sent when the page is hidden
 * (insights-beacon.ts, loaded when the browser is idle after the first paint). No cookie, no
 * id, nothing about the visitor: counters only (events/insights.ts).
 *
 * This module is all the first load carries: a queue. Parts of the viewer call
 * {@link recordInsight} at any time; only a public viewer page ({@link startInsights}, by
 * published-viewer.tsx and viewer-app.tsx for a published map) ever sends anything: the
 * editor's preview and test maps record into nothing. Whether this visitor may be counted (Do
 * Not Track, Global Privacy Control, `insights=off`) the beacon code decides before it keeps
 * or sends anything (`insightsAllowed`, insights-beacon.ts): where it may not, the queue is
 * dropped and nothing leaves the page.
 */

export type InsightKind = 'view' | 'search' | 'open' | 'directions';
/** A search: what was typed (normalised and capped before it leaves) and whether anything matched. */
export interface SearchDetail {
  text: string;
  found: boolean;
}
export type InsightDetail = string | SearchDetail | undefined;

/** What the beacon code does with a record (insights-beacon.ts). */
export type InsightSink = (kind: InsightKind, detail: InsightDetail) => void;
export type EarlyInsight = [InsightKind, InsightDetail];

/** Records waiting for the beacon code (a page's first moments), at most this many. */
const EARLY_MAX = 200;
let sink: InsightSink | null = null;
let started = false;
const early: EarlyInsight[] = [];

/**
 * Counts something a visitor did on the map: `recordInsight('open', locationId)`,
 * `recordInsight('directions', destinationId)`, `recordInsight('search', { text, found })`.
 * Cheap and safe to call anywhere, any time (before the beacon code loads it is queued).
 */
export function recordInsight(kind: 'open' | 'directions', locationId: string): void;
export function recordInsight(kind: 'search', detail: SearchDetail): void;
export function recordInsight(kind: InsightKind, detail?: InsightDetail): void {
  if (sink) sink(kind, detail);
  else if (early.length < EARLY_MAX) early.push([kind, detail]);
}

/** What {@link startInsights} loads: insights-beacon.ts. */
export interface InsightsCode {
  startBeacon(mapId: string, early: EarlyInsight[]): { sink: InsightSink; stop(): void };
}

/**
 * Starts counting for a published map's page: one view, then whatever is recorded, sent when
 * the page is hidden. The beacon code loads when the browser is idle after the first paint.
 * Answers a function that sends what is pending and stops (the page leaving the map).
 */
export function startInsights(mapId: string, load: () => Promise<InsightsCode> = () => import('./insights-beacon')): () => void {
  if (started) return () => {};
  started = true;
  let stopped = false;
  let stop = () => {};
  const idle = (window as { requestIdleCallback?: (callback: () => void, options?: { timeout: number }) => void }).requestIdleCallback ?? ((callback: () => void) => setTimeout(callback, 300));
  idle(
    () =>
      void load().then((code) => {
        if (stopped) return;
        const beacon = code.startBeacon(mapId, early.splice(0));
        stop = beacon.stop;
        sink = beacon.sink;
      }),
    { timeout: 3000 },
  );
  return () => {
    stopped = true;
    started = false;
    sink = null;
    early.length = 0;
    stop();
  };
}
