/**
 * Two checkouts' first renders side by side, loads taking turns (a busy moment of a shared
 * machine weighs on both alike): each checkout's own server, built client and renderer, the
 * same maps published on each, in each checkout's own version (the 2,000-location map of
 * bench/viewer-render.ts and, where both have it, the 25,000-store fixture). A diagnostic for
 * changes to the first render, not part of `npm run bench`:
 *   npx tsx bench/first-render-ab.ts /path/to/other-checkout [runs]
 * Each checkout must be built (`npx vite build && npx vite build --ssr`) with its own
 * dependencies installed (a link to this checkout's node_modules does when they are the same).
 * An old checkout makes the baseline: f0c9992, before issue 18, is the page whose ready mark
 * (then the map's first appearance) measured 336 ms.
 * Prints the medians of first contentful paint (the server's page: floor, clusters, directory),
 * the viewer's ready mark (hydrated, canvas drawn, controls live) and the moment the canvas's
 * clusters are on screen with their buttons for the keyboard (the first `button[data-cluster]`;
 * comparable across checkouts whose ready mark came before or after the clusters).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { DESKTOP, launchChromium, openProfiled } from './browser-profiles.js';
import { median } from './stats.js';

type TestServerModule = typeof import('../test/support/test-server.js');
type MapName = '2,000 locations' | '25,000 stores';
const [otherRoot, runsArgument] = process.argv.slice(2);
if (!otherRoot) throw new Error('Usage: npx tsx bench/first-render-ab.ts /path/to/other-checkout [runs]');
const RUNS = Number(runsArgument ?? 9);
const roots = { this: path.resolve(import.meta.dirname, '..'), other: path.resolve(otherRoot) };

async function serve(root: string) {
  const support = (await import(path.join(root, 'test/support/test-server.ts'))) as TestServerModule;
  const { pgliteTarget } = (await import(path.join(root, 'test/support/databases.ts'))) as typeof import('../test/support/databases.js');
  // Each checkout publishes its own bench document: an older checkout may read an older version.
  const { benchDocument } = (await import(path.join(root, 'bench/viewer-render.ts'))) as typeof import('./viewer-render.js');
  const server = await support.startTestServer(pgliteTarget, { env: { BODY_LIMIT: String(32 * 1024 * 1024), LOG_LEVEL: 'silent' } });
  const user = await support.registerUser(server);
  const publish = async (mapData: unknown) => {
    const answer = await support.call(server, 'createMap', { title: 'Bench', mapData }, user);
    if (answer.status !== 200) throw new Error(`createMap failed: ${answer.status}`);
    await support.projected(server, answer.body.position);
    await server.database.db.query('UPDATE maps_list SET state = 1 WHERE id = $1', [answer.body.result]);
    return `${server.url}/m/${answer.body.result as string}`;
  };
  const maps: Partial<Record<MapName, string>> = { '2,000 locations': await publish(benchDocument(2_000)) };
  // A checkout from before the store chain (issue 19) has no 25,000-store fixture.
  const storeChain = path.join(root, 'test/support/store-chain-map.ts');
  if (existsSync(storeChain)) {
    const { storeChainFixtureDocument } = (await import(storeChain)) as typeof import('../test/support/store-chain-map.js');
    maps['25,000 stores'] = await publish(await storeChainFixtureDocument());
  }
  return { server, maps };
}

const sides = { this: await serve(roots.this), other: await serve(roots.other) };
const browser = await launchChromium();
try {
  for (const name of ['2,000 locations', '25,000 stores'] as const) {
    const urls = { this: sides.this.maps[name], other: sides.other.maps[name] };
    if (!urls.this || !urls.other) continue;
    const figures = { this: { fcp: [] as number[], ready: [] as number[], clusters: [] as number[] }, other: { fcp: [] as number[], ready: [] as number[], clusters: [] as number[] } };
    for (let run = 0; run <= RUNS; run++) {
      for (const side of run % 2 ? (['this', 'other'] as const) : (['other', 'this'] as const)) {
        const { context, page } = await openProfiled((options) => browser.newContext(options), DESKTOP);
        await page.addInitScript(`new MutationObserver((_, observer) => {
          if (!document.querySelector('button[data-cluster]')) return;
          window.__clustersShown = performance.now();
          observer.disconnect();
        }).observe(document, { childList: true, subtree: true });`);
        await page.goto(urls[side]!);
        const ready = (await (await page.waitForFunction(() => (window as { __mapfoldViewerReady?: number }).__mapfoldViewerReady, undefined, { timeout: 60_000 })).jsonValue()) as number;
        const fcp = (await page.evaluate(`performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1`)) as number;
        // A checkout from before clustering (issue 19) never shows a cluster's button.
        const clusters = await page
          .waitForFunction(() => (window as { __clustersShown?: number }).__clustersShown, undefined, { timeout: 5_000 })
          .then(async (shown) => (await shown.jsonValue()) as number)
          .catch(() => null);
        if (run > 0) {
          figures[side].fcp.push(fcp);
          figures[side].ready.push(ready);
          if (clusters !== null) figures[side].clusters.push(clusters);
        }
        await context.close();
      }
    }
    console.log(`${name}, ${DESKTOP.name}, ${RUNS} cold loads each, taking turns:`);
    const shown = (values: number[]) => (values.length ? `${median(values).toFixed(0)} ms` : 'none');
    for (const side of ['this', 'other'] as const) {
      const { fcp, ready, clusters } = figures[side];
      console.log(`  ${side === 'this' ? 'this checkout ' : 'other checkout'}: first paint median ${median(fcp).toFixed(0)} ms, ready median ${median(ready).toFixed(0)} ms (${ready.map((v) => v.toFixed(0)).join(' ')}), clusters on screen median ${shown(clusters)}`);
    }
    const ratio = (a: number[], b: number[]) => (a.length && b.length ? (median(a) / median(b)).toFixed(2) : '—');
    console.log(`  this ÷ other: first paint ${ratio(figures.this.fcp, figures.other.fcp)}, ready ${ratio(figures.this.ready, figures.other.ready)}, clusters on screen ${ratio(figures.this.clusters, figures.other.clusters)}`);
    // Before server rendering the ready mark was the map's first appearance on screen; now the
    // server's page is, at first paint.
    console.log(`  this first paint ÷ other ready: ${ratio(figures.this.fcp, figures.other.ready)}`);
  }
} finally {
  await browser.close();
  await sides.this.server.close();
  await sides.other.server.close();
}
