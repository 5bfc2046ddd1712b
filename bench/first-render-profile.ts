/**
 * Where a published map's first render goes, load by load (a diagnostic beside bench/cluster.ts,
 * not part of `npm run bench`): navigation timing, each script's arrival, long tasks, first
 * paint and the viewer's ready mark, for the 2,000-location map and the 25,000 stores.
 * `npx tsx bench/first-render-profile.ts [runs]`.
 */
import { pgliteTarget } from '../test/support/databases.js';
import { call, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../test/support/test-server.js';
import { DESKTOP, launchChromium, openProfiled } from './browser-profiles.js';
import { median } from './stats.js';
import { storeChainFixtureDocument } from '../test/support/store-chain-map.js';
import { benchDocument } from './viewer-render.js';

const RUNS = Number(process.argv[2] ?? 5);

async function publish(server: TestServer, user: TestUser, title: string, mapData: unknown): Promise<string> {
  const answer = await call(server, 'createMap', { title, mapData }, user);
  if (answer.status !== 200) throw new Error(`createMap failed: ${answer.status}`);
  await projected(server, answer.body.position);
  await server.database.db.query('UPDATE maps_list SET state = 1 WHERE id = $1', [answer.body.result]);
  return answer.body.result as string;
}

const server = await startTestServer(pgliteTarget, { env: { BODY_LIMIT: String(32 * 1024 * 1024), LOG_LEVEL: 'silent' } });
const browser = await launchChromium();
try {
  const user = await registerUser(server);
  const maps = [['2,000', await publish(server, user, '2,000 locations', benchDocument(2_000))]] as [string, string][];
  if (!process.env.ONLY_2K) maps.push(['25,000', await publish(server, user, 'Northwind stores', await storeChainFixtureDocument())]);
  for (const [name, id] of maps) {
    const rows: Record<string, number>[] = [];
    const longTasks: string[] = [];
    for (let run = 0; run <= RUNS; run++) {
      const { context, page } = await openProfiled((options) => browser.newContext(options), DESKTOP);
      await page.addInitScript(`window.__long = []; new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push([Math.round(e.startTime), Math.round(e.duration)]); }).observe({ type: 'longtask', buffered: true });`);
      await page.goto(`${server.url}/m/${id}`);
      await page.waitForFunction(() => (window as { __mapfoldViewerReady?: number }).__mapfoldViewerReady, undefined, { timeout: 60_000 });
      const entry = (await page.evaluate(`(() => {
        const n = performance.getEntriesByType('navigation')[0];
        const row = { fetchStart: n.fetchStart, responseStart: n.responseStart, responseEnd: n.responseEnd, domInteractive: n.domInteractive, dcl: n.domContentLoadedEventEnd, fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1, ready: window.__mapfoldViewerReady };
        for (const r of performance.getEntriesByType('resource')) { const name = r.name.split('/').pop().replace(/-[A-Za-z0-9_-]{8}\\.js$/, ''); row['+' + name] = r.responseEnd; }
        return { row, long: window.__long };
      })()`)) as { row: Record<string, number>; long: [number, number][] };
      if (run > 0) {
        rows.push(entry.row);
        longTasks.push(entry.long.map(([s, d]) => `${s}+${d}`).join(' '));
      }
      await context.close();
    }
    console.log(`\n${name} locations (${rows.length} cold loads, medians in ms from navigation start)`);
    const keys = [...new Set(rows.flatMap((row) => Object.keys(row)))];
    for (const key of keys) {
      const values = rows.map((row) => row[key]).filter((v): v is number => typeof v === 'number');
      console.log(`  ${key.padEnd(28)} ${median(values).toFixed(0).padStart(6)}  (${values.map((v) => v.toFixed(0)).join(' ')})`);
    }
    for (const line of longTasks) console.log(`  long tasks: ${line}`);
  }
} finally {
  await browser.close();
  await server.close();
}
