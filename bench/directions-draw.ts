/**
 * The first drawing of a route on the demo mall (issue 17), in headless Chromium against the
 * real server process on PGlite (which seeds /m/demo with its path network) and the built
 * client (`npm run build` first): `/m/demo?from=…&to=…` opened cold (a fresh browser context
 * per load, one warm-up load not counted), from navigation start to the route's line first on
 * screen (the overlay's `__mapfoldRouteDrawn`), and the part of it after the directions' code
 * had arrived (finding the route and drawing it), on the desktop profile and the phone with its
 * CPU 4× slower. With the size of the directions'
 * code, which only loads when asked for.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { CHROMIUM, DESKTOP, launchChromium, openProfiled, PHONE, type Profile } from './browser-profiles.js';
import { startRealServer } from './server-process.js';
import { measureViewerSize } from './viewer-size.js';
import { median } from './stats.js';

const RUNS = Number(process.env.DIRECTIONS_BENCH_RUNS ?? 7);
/** The demo's pair whose step-free route differs (server/seed/demo-mall-paths.ts). */
const ROUTE = '/m/demo?from=g-urbanthread&to=l1-cinema';
const DIST = path.resolve(import.meta.dirname, '../dist/client');

const ms = (value: number) => `${value.toFixed(0)} ms`;

export async function benchDirectionsDraw(print: (line: string) => void): Promise<void> {
  if (!existsSync(path.join(DIST, 'viewer.html'))) {
    print('directions: no build (run npm run build first)');
    return;
  }
  if (!existsSync(CHROMIUM)) {
    print(`directions: no Chromium at ${CHROMIUM}`);
    return;
  }
  // The directions' chunk and what it imports that the viewer's first load does not have.
  const initial = new Set(measureViewerSize()?.files.filter((file) => file.initial).map((file) => path.basename(file.file)) ?? []);
  const chunks = new Set<string>();
  const visit = (file: string) => {
    if (chunks.has(file) || initial.has(file)) return;
    chunks.add(file);
    const code = readFileSync(path.join(DIST, 'assets', file), 'utf8');
    for (const match of code.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)) visit(match[1]!);
  };
  for (const file of readdirSync(path.join(DIST, 'assets')).filter((name) => /^directions-code-.*\.js$/.test(name))) visit(file);
  const gzip = [...chunks].reduce((sum, file) => sum + gzipSync(readFileSync(path.join(DIST, 'assets', file)), { level: 9 }).length, 0);
  print(`directions' code (loaded on demand, ${chunks.size} chunks): ${(gzip / 1024).toFixed(1)} KB gzipped`);

  const server = await startRealServer('pglite', { LOG_LEVEL: 'warn' });
  const browser = await launchChromium();
  try {
    for (const profile of [DESKTOP, PHONE] satisfies Profile[]) {
      const total: number[] = [];
      const afterCode: number[] = [];
      const ready: number[] = [];
      for (let run = 0; run <= RUNS; run++) {
        const { context, page } = await openProfiled((options) => browser.newContext(options), profile);
        await page.goto(server.url + ROUTE);
        await page.waitForFunction(() => (window as { __mapfoldRouteDrawn?: number }).__mapfoldRouteDrawn, undefined, { timeout: 60_000 });
        await page.waitForFunction(() => (window as { __mapfoldViewerReady?: number }).__mapfoldViewerReady, undefined, { timeout: 60_000 });
        const times = await page.evaluate(() => {
          const own = window as { __mapfoldRouteDrawn?: number; __mapfoldViewerReady?: number };
          const code = performance.getEntriesByType('resource').find((entry) => /directions-code-[^/]*\.js$/.test(entry.name)) as PerformanceResourceTiming | undefined;
          return { drawn: own.__mapfoldRouteDrawn!, ready: own.__mapfoldViewerReady!, code: code?.responseEnd ?? NaN };
        });
        await context.close();
        if (run === 0) continue;
        total.push(times.drawn);
        afterCode.push(times.drawn - times.code);
        ready.push(times.ready);
      }
      print(`first route drawn on ${profile.name}: median ${ms(median(total))} from navigation start, ${ms(median(afterCode))} after the directions' code arrived; the map ready at ${ms(median(ready))} (${RUNS} cold loads of ${ROUTE})`);
    }
  } finally {
    await browser.close();
    await server.stop();
  }
}
