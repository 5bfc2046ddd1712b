/**
 * The viewer's insights (issue 19, part 4): nothing is kept or sent when the browser asks not
 * to be tracked (Do Not Track, Global Privacy Control) or the page says `insights=off` (the
 * beacon code, loaded in idle time, checks before anything else); otherwise a page's records are added up and sent in one beacon when
 * the page is hidden, with counters only, a refined search replacing its prefix.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InsightBeacon } from '../../events/insights';
import { insightsAllowed, openBeacon } from '../../client/src/features/viewer/insights-beacon';
import { recordInsight, startInsights } from '../../client/src/features/viewer/insights';
import { embedSnippet } from '../../client/src/utils/embed';

const sent: Array<{ url: string; body: unknown }> = [];
/** Beacons handed to the browser (counted at once; `sent` fills as their bodies are read). */
let beacons = 0;

beforeEach(() => {
  sent.length = 0;
  beacons = 0;
  Object.defineProperty(navigator, 'sendBeacon', {
    configurable: true,
    value: (url: string, data: Blob) => {
      beacons += 1;
      // jsdom's Blob has no text(): read it as a browser's older code would.
      const reader = new FileReader();
      reader.onload = () => sent.push({ url, body: JSON.parse(String(reader.result)) });
      reader.readAsText(data);
      return true;
    },
  });
});
afterEach(() => {
  Object.defineProperty(navigator, 'doNotTrack', { configurable: true, value: null });
  Object.defineProperty(navigator, 'globalPrivacyControl', { configurable: true, value: undefined });
  window.history.replaceState(null, '', '/m/mall');
});

function hidePage() {
  Object.defineProperty(document, 'visibilityState', { configurable: true, value: 'hidden' });
  document.dispatchEvent(new Event('visibilitychange'));
  Object.defineProperty(document, 'visibilityState', { configurable: true, value: 'visible' });
}

describe('whether a visitor is counted', () => {
  it('is not when the browser sends Do Not Track or Global Privacy Control, or the page says insights=off', () => {
    const page = (search: string) => ({ location: { search } });
    expect(insightsAllowed({}, page(''))).toBe(true);
    expect(insightsAllowed({ doNotTrack: '1' }, page(''))).toBe(false);
    expect(insightsAllowed({ doNotTrack: '0' }, page(''))).toBe(true);
    expect(insightsAllowed({ msDoNotTrack: '1' }, page(''))).toBe(false);
    expect(insightsAllowed({}, { doNotTrack: '1', location: { search: '' } })).toBe(false);
    expect(insightsAllowed({ globalPrivacyControl: true }, page(''))).toBe(false);
    for (const off of ['?insights=off', '?insights=0', '?lang=es&insights=OFF']) expect(insightsAllowed({}, page(off))).toBe(false);
    expect(insightsAllowed({}, page('?insights=on'))).toBe(true);
  });

  /** Starts counting with the beacon code and waits until it has taken over (in idle time). */
  async function startAndLoad(): Promise<() => void> {
    let loaded: Promise<unknown> | null = null;
    const stop = startInsights('mall', () => {
      const code = import('../../client/src/features/viewer/insights-beacon');
      loaded = code;
      return code;
    });
    await vi.waitFor(() => expect(loaded).not.toBeNull());
    await loaded;
    await new Promise((resolve) => setTimeout(resolve, 0));
    return stop;
  }

  it('sends nothing under Do Not Track, neither what was recorded before the beacon code came nor after', async () => {
    Object.defineProperty(navigator, 'doNotTrack', { configurable: true, value: '1' });
    recordInsight('open', 'cafe');
    const stop = await startAndLoad();
    recordInsight('search', { text: 'toilets', found: false });
    hidePage();
    window.dispatchEvent(new Event('pagehide'));
    stop();
    expect(beacons).toBe(0);
  });

  it('sends nothing under Global Privacy Control, nor with ?insights=off', async () => {
    for (const optOut of [
      () => Object.defineProperty(navigator, 'globalPrivacyControl', { configurable: true, value: true }),
      () => window.history.replaceState(null, '', '/m/mall?insights=off'),
    ]) {
      optOut();
      const stop = await startAndLoad();
      recordInsight('open', 'cafe');
      hidePage();
      stop();
      Object.defineProperty(navigator, 'globalPrivacyControl', { configurable: true, value: undefined });
      window.history.replaceState(null, '', '/m/mall');
    }
    expect(beacons).toBe(0);
  });

  it('counts a page otherwise: one view and what was recorded, sent once the page is hidden', async () => {
    let loaded: Promise<unknown> | null = null;
    const load = () => (loaded = import('../../client/src/features/viewer/insights-beacon'));
    const stop = startInsights('mall', load);
    // Recorded before the beacon code arrives (when the browser is idle): kept for it.
    recordInsight('open', 'cafe');
    await vi.waitFor(() => expect(loaded).not.toBeNull());
    await loaded;
    await new Promise((resolve) => setTimeout(resolve, 0));
    recordInsight('open', 'cafe');
    hidePage();
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    stop();
    const [beacon] = sent;
    expect(beacon!.url).toBe('/api/public/maps/mall/insights');
    expect(InsightBeacon.parse(beacon!.body).data.counters).toEqual([
      { kind: 'view', count: 1 },
      { kind: 'open', location: 'cafe', count: 2 },
    ]);
  });
});

describe('the beacon', () => {
  it('adds a page’s records into counters, replaces a search by its refinement, and sends on pagehide', async () => {
    let time = 0;
    const beacon = openBeacon('mall', { now: () => time });
    beacon.sink('view', undefined);
    beacon.sink('search', { text: 'Caf', found: true });
    time += 2000;
    beacon.sink('search', { text: '  CAFÉ  noir ', found: true });
    time += 60_000;
    beacon.sink('search', { text: 'toilets', found: false });
    beacon.sink('search', { text: 'toilets', found: false });
    beacon.sink('search', { text: 'x'.repeat(300), found: false });
    beacon.sink('open', 'cafe');
    beacon.sink('open', 'cafe');
    beacon.sink('directions', 'shoes');
    // Not a location id: never sent.
    beacon.sink('open', '<script>');
    window.dispatchEvent(new Event('pagehide'));
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    const body = InsightBeacon.parse(sent[0]!.body);
    expect(body.data.counters).toEqual([
      { kind: 'view', count: 1 },
      { kind: 'search', text: 'café noir', found: true, count: 1 },
      { kind: 'search', text: 'toilets', found: false, count: 1 },
      { kind: 'search', text: 'x'.repeat(100), found: false, count: 1 },
      { kind: 'open', location: 'cafe', count: 2 },
      { kind: 'directions', location: 'shoes', count: 1 },
    ]);
    // Nothing new: nothing sent again.
    window.dispatchEvent(new Event('pagehide'));
    beacon.stop();
    expect(beacons).toBe(1);
  });

  it('falls back to fetch with keepalive and no credentials when the beacon is refused, in batches the server takes', async () => {
    const requests: Array<{ url: string; init: RequestInit }> = [];
    const beacon = openBeacon('mall', {
      transport: {
        sendBeacon: () => false,
        fetch: async (url, init) => {
          requests.push({ url: String(url), init: init! });
          return new Response(null, { status: 204 });
        },
      },
    });
    for (let i = 0; i < 60; i++) beacon.sink('open', `loc-${i}`);
    beacon.flush();
    beacon.stop();
    expect(requests).toHaveLength(2);
    for (const { init } of requests) {
      expect(init).toMatchObject({ method: 'POST', keepalive: true, credentials: 'omit' });
      expect(InsightBeacon.safeParse(JSON.parse(String(init.body))).success).toBe(true);
    }
  });
});

describe('the embed code', () => {
  it('can turn insights off for a host page without its visitors’ consent', () => {
    const html = embedSnippet({ mapId: 'mall', publicUrl: 'https://maps.example.com', title: 'Mall', insights: false });
    expect(html).toContain('src="https://maps.example.com/m/mall?insights=off"');
    expect(embedSnippet({ mapId: 'mall', publicUrl: 'https://maps.example.com', title: 'Mall' })).toContain('src="https://maps.example.com/m/mall"');
  });
});
