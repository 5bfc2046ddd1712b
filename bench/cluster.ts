/**
 * Many points (issue 19 part 2; issue 18's first render), in headless Chromium against a whole
 * server on an in-memory PGlite and the built client (`npx vite build && npx vite build --ssr`):
 *  - first render (the map on screen) and ready mark (floor and the canvas's clusters drawn,
 *    controls live) of the 2,000-location map of bench/viewer-render.ts and of the 25,000-store
 *    chain (the real fixture, test/fixtures/import/csv/store-chain-25k.csv.gz), server-rendered
 *    `/m/{id}` (first render at its first contentful paint: the server's map, clusters and
 *    directory on screen before any script) and client-only (the built viewer.html fetching
 *    the map: first render at its ready mark), a fresh context per load, median of
 *    CLUSTER_BENCH_RUNS (default 5); with the page's bytes;
 *  - frame times while dragging and wheel-zooming the 25,000 stores (requestAnimationFrame
 *    deltas: median, p95; the aim is a median frame of at most 16.7 ms, 60 fps);
 *  - search among the 25,000: from the input event of a query to the next frame after the
 *    directory shows its results (median over several queries), and to a store opened;
 *  - the editor opening the same map: from navigation to its canvas drawn and the locations panel listed.
 * `npm run bench -- cluster`. Prints medians; nothing here is asserted.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { pgliteTarget } from '../test/support/databases.js';
import { call, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../test/support/test-server.js';
import { CHROMIUM, DESKTOP, launchChromium } from './browser-profiles.js';
import { median, percentile } from './stats.js';
import { storeChainFixtureDocument } from '../test/support/store-chain-map.js';
import { benchDocument, openReady, panAndZoom } from './viewer-render.js';

const RUNS = Number(process.env.CLUSTER_BENCH_RUNS ?? 5);
/** `CLUSTER_BENCH_ONLY=render` measures the first renders alone. */
const ONLY = process.env.CLUSTER_BENCH_ONLY ?? '';
const ms = (value: number) => `${value.toFixed(1)} ms`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

async function publish(server: TestServer, user: TestUser, title: string, mapData: unknown): Promise<string> {
  const answer = await call(server, 'createMap', { title, mapData }, user);
  if (answer.status !== 200) throw new Error(`createMap failed: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
  await projected(server, answer.body.position);
  await server.database.db.query('UPDATE maps_list SET state = 1 WHERE id = $1', [answer.body.result]);
  return answer.body.result as string;
}

/** Cold loads of a page until the viewer is ready: each load's ready mark and first contentful paint. */
async function firstRenders(browser: Browser, url: string, clientOnlyPage: string | null): Promise<{ ready: number[]; paint: number[] }> {
  const ready: number[] = [];
  const paint: number[] = [];
  // One warm-up load (the server's first answers, Chromium's own caches).
  for (let run = 0; run <= RUNS; run++) {
    const opened = await openReady(browser, url, DESKTOP, false, clientOnlyPage);
    if (run > 0) {
      ready.push(opened.ready);
      paint.push(opened.firstPaint);
    }
    await opened.close();
  }
  return { ready, paint };
}

/** From a query's input event to the frame after the directory shows its results. */
async function searchLatency(page: Page, query: string): Promise<{ ms: number; count: string }> {
  return page.evaluate(`new Promise((resolve) => {
    const input = document.querySelector('input[type="search"]');
    const count = document.querySelector('.mf-directory__count');
    const before = count.textContent;
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
    const began = performance.now();
    const observer = new MutationObserver(() => {
      if (count.textContent === before) return;
      observer.disconnect();
      requestAnimationFrame(() => resolve({ ms: performance.now() - began, count: count.textContent }));
    });
    observer.observe(count, { childList: true, characterData: true, subtree: true });
    setter.call(input, ${JSON.stringify(query)});
    input.dispatchEvent(new Event('input', { bubbles: true }));
  })`) as Promise<{ ms: number; count: string }>;
}

export async function benchClusters(print: (line: string) => void): Promise<void> {
  if (!existsSync('dist/client/viewer.html') || !existsSync('dist/server/viewer-server.js')) {
    print('clusters: no build (npx vite build && npx vite build --ssr first)');
    return;
  }
  if (!existsSync(CHROMIUM)) {
    print(`clusters: no Chromium at ${CHROMIUM}`);
    return;
  }
  const server = await startTestServer(pgliteTarget, { env: { BODY_LIMIT: String(32 * 1024 * 1024), LOG_LEVEL: 'silent' } });
  const browser = await launchChromium();
  try {
    const user = await registerUser(server);
    const twoThousand = await publish(server, user, '2,000 locations', benchDocument(2_000));
    const stores = await publish(server, user, 'Northwind stores', await storeChainFixtureDocument());
    const clientOnlyPage = readFileSync('dist/client/viewer.html', 'utf8');

    for (const [name, id] of [['2,000 locations', twoThousand], ['25,000 stores', stores]] as const) {
      const html = await (await fetch(`${server.url}/m/${id}`)).text();
      const markup = html.replace(/<script type="application\/json"[\s\S]*?<\/script>/, '');
      print(`${name}: /m/{id} is ${kb(html.length)} (${kb(markup.length)} of it markup, the rest the map's JSON)`);
      for (const [way, page] of [['server-rendered', null], ['client-only', clientOnlyPage]] as const) {
        const { ready: times, paint } = await firstRenders(browser, `${server.url}/m/${id}`, page);
        // The first render is the map on screen: the server's page shows it, clusters and
        // directory, at its first paint, before any script runs; the client-only page once ready.
        if (!page) print(`  first render, ${way}, ${DESKTOP.name} (its first contentful paint: the server's map on screen): median ${ms(median(paint))} (min ${ms(Math.min(...paint))}, max ${ms(Math.max(...paint))}, ${paint.length} cold loads)`);
        print(`  ready, ${way}, ${DESKTOP.name} (hydrated, canvas drawn, controls live${page ? '; its first render' : ''}): median ${ms(median(times))} (min ${ms(Math.min(...times))}, max ${ms(Math.max(...times))}, ${times.length} cold loads)`);
      }
    }

    if (ONLY === 'render') return;
    // Pan and zoom the 25,000 stores, a moment after the map appears (as a person would).
    const opened = await openReady(browser, `${server.url}/m/${stores}`);
    await opened.page.waitForSelector('button[data-cluster]', { state: 'attached' });
    await opened.page.waitForTimeout(1000);
    const { intervals, work } = await panAndZoom(opened.page);
    print(
      `frame time, panning and zooming 25,000 stores (clustered): median ${ms(median(intervals))}, p95 ${ms(percentile(intervals, 95))} between frames` +
        ` (${intervals.length} frames, ${intervals.filter((value) => value > 34).length} longer than two frames); the viewer's own work per painted frame: median ${ms(median(work))}, p95 ${ms(percentile(work, 95))}`,
    );

    // Search among the 25,000: queries typed at once (a paste), each from the full list.
    const latencies: number[] = [];
    for (const query of ['paris', 'northwind san', 'S12345', 'reykjavik', 'zzz-none', 'springs', 'tokyo', 'new york']) {
      latencies.push((await searchLatency(opened.page, query)).ms);
      await searchLatency(opened.page, '');
    }
    print(`search among 25,000 stores: median ${ms(median(latencies))}, max ${ms(Math.max(...latencies))} from the query to its results on screen (${latencies.length} queries)`);
    await opened.close();

    // The editor opening the same map (signed in as its owner).
    const editorTimes: number[] = [];
    for (let run = 0; run <= Math.min(RUNS, 3); run++) {
      const context = await browser.newContext({ baseURL: server.url, viewport: DESKTOP.viewport });
      const [cookieName, cookieValue] = user.cookie.split('=') as [string, string];
      await context.addCookies([{ name: cookieName, value: cookieValue, url: server.url }]);
      const page = await context.newPage();
      const began = Date.now();
      await page.goto(`/maps/${stores}`);
      await page.waitForSelector('.mf-viewport:not([data-static])');
      await page.waitForSelector('canvas.mf-markers');
      await page.waitForFunction(() => document.querySelector('button[data-cluster]') !== null, undefined, { timeout: 120_000 });
      if (run > 0) editorTimes.push(Date.now() - began);
      await context.close();
    }
    print(`editor opening 25,000 stores: median ${ms(median(editorTimes))} from navigation to its clusters drawn (${editorTimes.length} loads)`);
  } finally {
    await browser.close();
    await server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchClusters((line) => console.log(line));
