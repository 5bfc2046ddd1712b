/**
 * The landing page's largest contentful paint in headless Chromium (Debian's, through
 * playwright-core), against the built client served by a whole server (`npm run build` first):
 * a fresh browser context (cold cache, no consent stored) per run, a buffered
 * PerformanceObserver for 'largest-contentful-paint' read once the page has settled, the
 * median and p95 over the runs and the element the LCP was most often.
 * The profiles are bench/browser-profiles.ts's: desktop; phone (CPU 4× slower, no network
 * throttling: our own work, the profile the issue's aim of 1.0 s is stated on); and the phone
 * on slow 4G, where the bytes of the bundle and its fonts and images count too.
 */
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { pgliteTarget } from '../test/support/databases.js';
import { startTestServer } from '../test/support/test-server.js';
import { byFrequency, CHROMIUM, DESKTOP, launchChromium, OBSERVE_LCP, openProfiled, PHONE, PHONE_SLOW_4G, settledLcp, type LcpSample, type Profile } from './browser-profiles.js';
import { median, percentile } from './stats.js';

/** Cold loads per profile; LANDING_BENCH_RUNS makes a quick check of the harness. */
const RUNS = Number(process.env.LANDING_BENCH_RUNS ?? 15);
/** Phone on slow 4G last: the bytes' share of the figure (the aim is stated on the phone profile). */
const PROFILES: Profile[] = [DESKTOP, PHONE, PHONE_SLOW_4G];

const ms = (value: number) => `${Math.round(value)} ms`;

/** How many loads may fail or come back without an LCP entry (a busy machine) before the run fails. */
const MAX_MISSES = 5;

async function sample(browser: Browser, url: string, profile: Profile): Promise<LcpSample | null> {
  const { context, page } = await openProfiled((options) => browser.newContext(options), profile);
  try {
    await page.addInitScript(OBSERVE_LCP);
    const response = await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
    // A rebuild of dist/ while the bench runs answers 404 for a moment: not a landing page load.
    if (!response?.ok()) return null;
    // The landing page's first render waits for /api/config and the session; under CPU
    // throttling entries also arrive late.
    return await settledLcp(page);
  } finally {
    await context.close();
  }
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
  const browser = await launchChromium();
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
