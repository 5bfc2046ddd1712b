/**
 * What the public viewer tells the map's owner (issue 19, part 4): views, searches, location
 * opens and directions asked, counted per page and sent when the page is hidden
 * (insights-beacon.ts, loaded after the first paint). No cookie, no id, nothing about the
 * visitor: counters only (events/insights.ts).
 *
 * Nothing is recorded, and the beacon code is never loaded, when the visitor's browser asks
 * not to be tracked (Do Not Track, Global Privacy Control) or the page's address says
 * `insights=off`: a host page that embeds the map and has no consent from its visitor adds
 * `?insights=off` to the iframe's `src` (client/README.md "Insights"; an attribute on the
 * iframe cannot be read from inside it, another site's page).
 *
 * This module is all the first load carries: a queue and the checks. Parts of the viewer
 * call {@link recordInsight} at any time; only a public viewer page ({@link startInsights},
 * by viewer-app.tsx for a published map) ever sends anything: the editor's preview and test
 * maps record into nothing.
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

/** Records waiting for the beacon code (a page's first moments), at most this many. */
const EARLY_MAX = 200;
let state: 'idle' | 'off' | 'on' = 'idle';
let sink: InsightSink | null = null;
const early: Array<[InsightKind, InsightDetail]> = [];

/**
 * Counts something a visitor did on the map: `recordInsight('open', locationId)`,
 * `recordInsight('directions', destinationId)`, `recordInsight('search', { text, found })`.
 * Cheap and safe to call anywhere, any time (before the beacon code loads it is queued; where
 * insights are off it is dropped).
 */
export function recordInsight(kind: 'open' | 'directions', locationId: string): void;
export function recordInsight(kind: 'search', detail: SearchDetail): void;
export function recordInsight(kind: 'view'): void;
export function recordInsight(kind: InsightKind, detail?: InsightDetail): void {
  if (state === 'off') return;
  if (sink) sink(kind, detail);
  else if (early.length < EARLY_MAX) early.push([kind, detail]);
}

interface PrivacySignals {
  doNotTrack?: string | null;
  globalPrivacyControl?: boolean;
  msDoNotTrack?: string | null;
}

/**
 * Whether this visitor may be counted: not when the browser sends Do Not Track or Global
 * Privacy Control, nor when the page's address says `insights=off` (or `0`, `false`, `no`).
 */
export function insightsAllowed(nav: PrivacySignals = navigator, win: { doNotTrack?: string | null; location: { search: string } } = window): boolean {
  if (nav.doNotTrack === '1' || nav.doNotTrack === 'yes' || nav.msDoNotTrack === '1' || win.doNotTrack === '1') return false;
  if (nav.globalPrivacyControl === true) return false;
  const asked = new URLSearchParams(win.location.search).get('insights');
  return !(asked !== null && /^(off|0|false|no)$/i.test(asked.trim()));
}

/**
 * Starts counting for a published map's page: one view, then whatever is recorded, sent when
 * the page is hidden. The beacon code loads when the browser is idle after the first paint.
 * Answers a function that sends what is pending and stops (the page leaving the map).
 */
export function startInsights(mapId: string, load: () => Promise<{ openBeacon(mapId: string): { sink: InsightSink; stop(): void } }> = () => import('./insights-beacon')): () => void {
  if (state !== 'idle') return () => {};
  if (!insightsAllowed()) {
    // Not counted: whatever the viewer records is dropped, and the beacon code never loads.
    state = 'off';
    early.length = 0;
    return () => {
      state = 'idle';
    };
  }
  state = 'on';
  recordInsight('view');
  let stopped = false;
  let stop = () => {};
  const idle = (window as { requestIdleCallback?: (callback: () => void, options?: { timeout: number }) => void }).requestIdleCallback ?? ((callback: () => void) => setTimeout(callback, 300));
  idle(
    () => {
      void load().then((module) => {
        if (stopped) return;
        const beacon = module.openBeacon(mapId);
        stop = beacon.stop;
        for (const [kind, detail] of early.splice(0)) beacon.sink(kind, detail);
        sink = beacon.sink;
      });
    },
    { timeout: 3000 },
  );
  return () => {
    stopped = true;
    sink = null;
    state = 'idle';
    early.length = 0;
    stop();
  };
}
