/**
 * The landing page's largest contentful paint in headless Chromium (Debian's, through
 * playwright-core), against the built client served by a whole server (`npm run build` first):
 * a fresh browser context (cold cache, no consent stored) per run, a buffered
 * PerformanceObserver for 'largest-contentful-paint' read once the page has settled, the
 * median and p95 over the runs and the element the LCP was most often.
 *  - desktop: 1280×800, the machine's CPU;
 *  - phone: 375×812 at device scale 2 with the CPU slowed 4× (CDP Emulation.setCPUThrottlingRate),
 *    roughly a mid-range phone. No network throttling: the server is on this machine, so the
 *    figures are about our own work (bundle parse, render, fonts, images), not the link.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { pgliteTarget } from '../test/support/databases.js';
import { startTestServer } from '../test/support/test-server.js';
import { median, percentile } from './stats.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const RUNS = 15;

interface Profile {
  name: string;
  viewport: { width: number; height: number };
  deviceScaleFactor: number;
  cpuSlowdown: number;
}

const PROFILES: Profile[] = [
  { name: 'desktop 1280×800', viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, cpuSlowdown: 1 },
  { name: 'phone 375×812, CPU 4× slower', viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, cpuSlowdown: 4 },
];

interface LcpSample {
  /** LCP in ms from navigation start. */
  time: number;
  /** The LCP element, as a short selector-like description. */
  element: string;
}

const ms = (value: number) => `${Math.round(value)} ms`;

/**
 * Installed before the page's own scripts: a buffered PerformanceObserver that keeps the last
 * LCP entry and describes its element while it is still in the page. A string, not a function:
 * the TypeScript runner would wrap named functions in helpers the page does not have.
 */
const OBSERVE_LCP = `(() => {
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

/** How many loads may fail or come back without an LCP entry (a busy machine) before the run fails. */
const MAX_MISSES = 5;

async function sample(browser: Browser, url: string, profile: Profile): Promise<LcpSample | null> {
  const context = await browser.newContext({ viewport: profile.viewport, deviceScaleFactor: profile.deviceScaleFactor });
  try {
    const page = await context.newPage();
    await page.addInitScript(OBSERVE_LCP);
    if (profile.cpuSlowdown > 1) {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpuSlowdown });
    }
    const response = await page.goto(url, { waitUntil: 'load' });
    // A rebuild of dist/ while the bench runs answers 404 for a moment: not a landing page load.
    if (!response?.ok()) return null;
    // The landing page's first render waits for /api/config and the session; under CPU
    // throttling entries also arrive late. Final: the last entry, once none came for a second.
    const settled = await page
      .waitForFunction('window.__lcp !== null && performance.now() - window.__lcpSeenAt > 1000', undefined, { timeout: 15_000, polling: 100 })
      .then(() => true, () => false);
    return settled ? ((await page.evaluate('window.__lcp')) as LcpSample) : null;
  } finally {
    await context.close();
  }
}

/** The LCP elements, most frequent first, with how many runs each was the LCP of. */
function byFrequency(values: string[]): string[] {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]).map(([value, count]) => (counts.size > 1 ? `${value} (${count} of ${values.length} runs)` : value));
}

export async function benchLandingLcp(print: (line: string) => void): Promise<void> {
  if (!existsSync('dist/client/index.html')) {
    print('landing LCP: no build (run npm run build first)');
    return;
  }
  if (!existsSync(CHROMIUM)) {
    print(`landing LCP: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);
    return;
  }
  const server = await startTestServer(pgliteTarget, { env: { LOG_LEVEL: 'silent' } });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  try {
    for (const profile of PROFILES) {
      // One warm-up load (the server's first answers, Chromium's own caches), not counted.
      await sample(browser, `${server.url}/`, profile);
      const samples: LcpSample[] = [];
      let misses = 0;
      while (samples.length < RUNS) {
        const result = await sample(browser, `${server.url}/`, profile);
        if (result) samples.push(result);
        else if (++misses > MAX_MISSES) throw new Error(`landing LCP, ${profile.name}: ${misses} loads without a largest-contentful-paint entry`);
      }
      const times = samples.map((s) => s.time);
      print(
        `landing page LCP, ${profile.name}: median ${ms(median(times))}, p95 ${ms(percentile(times, 95))} ` +
          `(min ${ms(Math.min(...times))}, max ${ms(Math.max(...times))}, ${RUNS} cold loads${misses ? `; ${misses} failed or without an LCP entry, not counted` : ''})`,
      );
      const [first, ...others] = byFrequency(samples.map((s) => s.element));
      print(`  LCP element: ${first}`);
      for (const other of others) print(`           or: ${other}`);
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchLandingLcp((line) => console.log(line));
