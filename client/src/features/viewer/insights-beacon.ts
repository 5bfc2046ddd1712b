/**
 * The viewer's insights beacon (loaded after the first paint by insights.ts): a page's records
 * added up into counters and sent in one request when the page is hidden (visibilitychange to
 * hidden, pagehide: the last moments a browser reliably gives a page, phones included) to
 * `POST /api/public/maps/{id}/insights` (events/insights.ts), with `navigator.sendBeacon`, or
 * `fetch(…, {keepalive: true, credentials: 'omit'})` where there is none or it refuses. The
 * server reads no cookie on that route; the body holds counters only.
 *
 * It first checks that this visitor may be counted ({@link insightsAllowed}): where not, the
 * records waiting for it are dropped and nothing is kept or sent.
 *
 * A search is recorded once the visitor stops typing; when they go on typing the same search
 * ("caf", then "cafe"), the longer one replaces the shorter in this page's counters, so the
 * owner sees what was looked for rather than every prefix.
 */
import { normaliseSearch } from '../../../../events/search-text';
import type { EarlyInsight, InsightDetail, InsightKind, InsightSink } from './insights';

/** The server's limits (events/insights.ts): counters per beacon, and how much one may add. */
const COUNTERS_PER_BEACON = 50;
const COUNT_MAX = 50;
/** A search refined within this long replaces the one before it. */
const REFINE_MS = 20_000;

type Counter =
  | { kind: 'view'; count: number }
  | { kind: 'search'; text: string; found: boolean; count: number }
  | { kind: 'open' | 'directions'; location: string; count: number };

const LOCATION_ID = /^[A-Za-z0-9_-]{1,64}$/;

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

const NOTHING = { sink: () => {}, stop: () => {} };

/**
 * A published map's page, counted (insights.ts startInsights): one view and the records made
 * before this code arrived, then the rest as they come; nothing at all where the visitor may
 * not be counted.
 */
export function startBeacon(mapId: string, early: EarlyInsight[], allowed = insightsAllowed()): { sink: InsightSink; stop(): void } {
  if (!allowed) return NOTHING;
  const beacon = openBeacon(mapId);
  beacon.sink('view', undefined);
  for (const [kind, detail] of early) beacon.sink(kind, detail);
  return beacon;
}

export interface BeaconTransport {
  sendBeacon?: (url: string, data: Blob) => boolean;
  fetch: typeof fetch;
}

export function openBeacon(
  mapId: string,
  { transport = defaultTransport(), now = () => Date.now() }: { transport?: BeaconTransport; now?: () => number } = {},
): { sink: InsightSink; flush(): void; stop(): void } {
  const url = `/api/public/maps/${encodeURIComponent(mapId)}/insights`;
  const counters = new Map<string, Counter>();
  let lastSearch: { id: string; text: string; at: number } | null = null;

  const add = (id: string, make: () => Counter) => {
    const existing = counters.get(id);
    if (existing) existing.count += 1;
    else counters.set(id, make());
  };

  const sink: InsightSink = (kind: InsightKind, detail: InsightDetail) => {
    if (kind === 'view') add('view', () => ({ kind: 'view', count: 1 }));
    else if (kind === 'search' && typeof detail === 'object') {
      const text = normaliseSearch(detail.text);
      if (!text) return;
      const id = `search\u0000${text}\u0000${detail.found}`;
      const previous = lastSearch;
      if (previous && previous.id !== id && now() - previous.at < REFINE_MS && (text.startsWith(previous.text) || previous.text.startsWith(text))) {
        const counter = counters.get(previous.id);
        if (counter && (counter.count -= 1) <= 0) counters.delete(previous.id);
      } else if (previous?.id === id && now() - previous.at < REFINE_MS) {
        // The same search settled again (a pause, then a keystroke taken back): once is enough.
        previous.at = now();
        return;
      }
      add(id, () => ({ kind: 'search', text, found: detail.found, count: 1 }));
      lastSearch = { id, text, at: now() };
    } else if ((kind === 'open' || kind === 'directions') && typeof detail === 'string' && LOCATION_ID.test(detail)) {
      add(`${kind}\u0000${detail}`, () => ({ kind, location: detail, count: 1 }));
    }
  };

  const send = (batch: Counter[]) => {
    const body = JSON.stringify({ data: { counters: batch } });
    try {
      if (transport.sendBeacon?.(url, new Blob([body], { type: 'application/json' }))) return;
    } catch {
      // A browser that refuses the beacon (too large, blocked) gets the fetch below.
    }
    void transport
      .fetch(url, { method: 'POST', body, keepalive: true, credentials: 'omit', headers: { 'content-type': 'application/json' } })
      .catch(() => {});
  };

  const flush = () => {
    if (counters.size === 0) return;
    const all = [...counters.values()].map((counter) => ({ ...counter, count: Math.min(counter.count, COUNT_MAX) }));
    counters.clear();
    // What was sent cannot be refined any more.
    lastSearch = null;
    for (let start = 0; start < all.length; start += COUNTERS_PER_BEACON) send(all.slice(start, start + COUNTERS_PER_BEACON));
  };

  const onVisibility = () => {
    if (document.visibilityState === 'hidden') flush();
  };
  document.addEventListener('visibilitychange', onVisibility);
  window.addEventListener('pagehide', flush);
  return {
    sink,
    flush,
    stop() {
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('pagehide', flush);
      flush();
    },
  };
}

function defaultTransport(): BeaconTransport {
  return {
    ...(typeof navigator.sendBeacon === 'function' ? { sendBeacon: (url: string, data: Blob) => navigator.sendBeacon(url, data) } : {}),
    fetch: (...args) => fetch(...args),
  };
}
