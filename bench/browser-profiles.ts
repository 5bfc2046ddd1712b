/**
 * The browser profiles the page benches load under, and the largest-contentful-paint observer
 * they share (bench/landing-lcp.ts, bench/viewer-render.ts):
 *  - desktop: 1280×800, this machine's CPU, no network throttling;
 *  - phone: 375×812 at device scale 2 with the CPU slowed 4× (CDP Emulation.setCPUThrottlingRate),
 *    roughly a mid-range phone; no network throttling, so the figure is about our own work
 *    (bundle parse, render, fonts, images): the landing aim is stated on this profile;
 *  - phone on slow 4G: the same with Lighthouse's mobile network (150 ms round trip, 1.6 Mbit/s
 *    down, 750 kbit/s up, CDP Network.emulateNetworkConditions), where the bytes count.
 */
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

/** Headless Chromium as every bench and screenshot script launches it. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

export interface Profile {
  name: string;
  viewport: { width: number; height: number };
  deviceScaleFactor: number;
  cpuSlowdown: number;
  network: { latency: number; downloadThroughput: number; uploadThroughput: number } | null;
}

export const DESKTOP: Profile = { name: 'desktop 1280×800', viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, cpuSlowdown: 1, network: null };
export const PHONE: Profile = { name: 'phone 375×812, CPU 4× slower', viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, cpuSlowdown: 4, network: null };
export const PHONE_SLOW_4G: Profile = {
  ...PHONE,
  name: 'phone 375×812, CPU 4× slower, slow 4G (150 ms, 1.6 Mbit/s)',
  // Bytes per second, as CDP takes them.
  network: { latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 },
};

/** A fresh context (cold cache) and page under the profile's viewport, CPU and network. */
export async function openProfiled(newContext: (options: { viewport: Profile['viewport']; deviceScaleFactor: number }) => Promise<BrowserContext>, profile: Profile): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext({ viewport: profile.viewport, deviceScaleFactor: profile.deviceScaleFactor });
  const page = await context.newPage();
  if (profile.cpuSlowdown > 1 || profile.network) {
    const cdp = await context.newCDPSession(page);
    if (profile.cpuSlowdown > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpuSlowdown });
    if (profile.network) {
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', { offline: false, connectionType: 'cellular4g', ...profile.network });
    }
  }
  return { context, page };
}

export interface LcpSample {
  /** LCP in ms from navigation start. */
  time: number;
  /** The LCP element, as a short selector-like description. */
  element: string;
}

/**
 * Installed before the page's own scripts: a buffered PerformanceObserver that keeps the last
 * LCP entry and describes its element while it is still in the page. A string, not a function:
 * the TypeScript runner would wrap named functions in helpers the page does not have.
 */
export const OBSERVE_LCP = `(() => {
  const describe = (node) => {
    if (!node || !node.tagName) return 'unknown (removed from the page)';
    let text = node.tagName.toLowerCase();
    if (node.id) text += '#' + node.id;
    const classes = typeof node.className === 'string' ? node.className.trim().split(/\\s+/).filter(Boolean).slice(0, 2) : [];
    if (classes.length) text += '.' + classes.join('.');
    const words = (node.textContent || '').trim().replace(/\\s+/g, ' ');
    if (node.tagName === 'IMG') text += ' (' + (node.currentSrc || node.src).split('/').pop() + ')';
    else if (words) text += ' "' + (words.length > 48 ? words.slice(0, 47) + '…' : words) + '"';
    return text;
  };
  window.__lcp = null;
  new PerformanceObserver((list) => {
    const entries = list.getEntries();
    const last = entries[entries.length - 1];
    window.__lcp = { time: last.startTime, element: describe(last.element) };
    window.__lcpSeenAt = performance.now();
  }).observe({ type: 'largest-contentful-paint', buffered: true });
})()`;

/** The final LCP entry: the last one, once none came for a second (null if none in time). */
export async function settledLcp(page: Page, timeoutMs = 15_000): Promise<LcpSample | null> {
  // A function, not a string: Playwright evaluates a string predicate with eval, which a page's
  // Content-Security-Policy without 'unsafe-eval' (the viewer's) refuses.
  const settled = await page
    .waitForFunction(
      () => {
        const observed = window as unknown as { __lcp: unknown; __lcpSeenAt: number };
        return observed.__lcp !== null && performance.now() - observed.__lcpSeenAt > 1000;
      },
      undefined,
      { timeout: timeoutMs, polling: 100 },
    )
    .then(() => true, () => false);
  return settled ? ((await page.evaluate('window.__lcp')) as LcpSample) : null;
}

/** The values, most frequent first, with how many runs each was seen in (when they varied). */
export function byFrequency(values: string[]): string[] {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]).map(([value, count]) => (counts.size > 1 ? `${value} (${count} of ${values.length} runs)` : value));
}
