/**
 * `npm run bench`: prints the core's figures for PGlite and for PostgreSQL.
 *  - append throughput (events/s), 1 writer and 8 concurrent writers;
 *  - projection catch-up (events/s) over 100,000 events;
 *  - command-to-push latency (median, p99) over 1,000 commands: HTTP call at one client to
 *    the websocket message at another;
 *  - edit-to-other-editor latency (median, p99) over 500 edits: one editMap from one tab of a
 *    map's owner to the snapshot holding it at another tab (bench/edit-latency.ts);
 *  - presence cursor fan-out (p50, p99): 20 tabs in one map, one moving at 20 Hz, on PGlite,
 *    on PostgreSQL, and on two processes sharing PostgreSQL (bench/presence-fanout.ts);
 *  - edit-to-peer fan-out on PostgreSQL: 20 sockets on one map (one edits, 19 receive), median
 *    and p99 latency and bytes per push for maps of 100, 1,000 and 5,000 locations, on one
 *    server process and on two sharing the database (bench/live-fanout.ts);
 *  - the map at revision N of a 50,000-event stream (median; bench/history-at-revision.ts);
 *  - the public viewer: its JavaScript gzipped (from the build), the bytes a cold load of
 *    /m/demo transfers (bench/viewer-transfer.ts), first render and LCP of a 2,000-location
 *    map on desktop, on a phone profile (CPU 4× slower) and that on slow 4G, and frame time
 *    while panning and zooming 10,000 markers (bench/viewer-*.ts);
 *  - the first drawing of a route on the demo mall, cold, desktop and phone (bench/directions-draw.ts);
 *  - the landing page's largest contentful paint (median, p95, the LCP element) on the same
 *    three profiles (bench/landing-lcp.ts, bench/browser-profiles.ts);
 *  - published maps at embed scale: the real server (its own process) against a plain Fastify
 *    process replaying its very bytes from memory, side by side on PGlite and PostgreSQL: the
 *    public map JSON's req/s and p99 (200 with br/gzip asked, and 304), `/m/{id}` HTML req/s,
 *    the ratio to the plain process, bytes per answer and the server's resident memory
 *    (bench/public-read.ts; `npm run bench -- public` alone);
 *  - the idle server's resident memory: VmRSS when /api/ready answers and after 30 s idle, on
 *    PGlite (first start and restart) and PostgreSQL (bench/server-memory.ts; `npm run bench --
 *    memory` alone);
 *  - insight beacons: 2,000 view beacons a second for a minute (`--seconds=`, `--rate=`,
 *    `--db=`) counted with nothing lost (the read model's total against the beacons answered,
 *    after a graceful stop), and the public map's p50/p99 with and without that load, as a
 *    ratio (bench/insights-load.ts; `npm run bench -- insights` alone);
 *  - other users' p50/p99 (a probe in a worker thread) while one user imports a big CSV, sends
 *    a big editMap of unknown ids, re-subscribes to a big map's topic in a loop, or downloads
 *    the insights after a beacon flood (bench/fairness.ts; `npm run bench -- fairness` alone);
 *  - imports: preview and apply of a 100,000-row lat/lng CSV through POST /api/maps/{id}/import
 *    (median seconds, peak RSS and heap; bench/import-throughput.ts), on PGlite and PostgreSQL;
 *  - a data source's sync of a 25,000-row store sheet from a loopback server: the first sync, then
 *    a changed sheet's preview (the diff by key) and apply, and the diff alone (bench/data-source-
 *    sync.ts; `npm run bench -- sync` alone, DATA_SOURCE_BENCH_QUICK=1 for 2,000 rows), on PGlite
 *    and PostgreSQL;
 *  - a one-field edit in the map data read model on maps of 100, 5,000 and 25,000 locations
 *    (a location's title, a path point, a floor's name): time in the projection and bytes
 *    written, medians and the ratio biggest to smallest (bench/map-data-edit.ts; `npm run bench
 *    -- mapdata` alone), on PGlite and PostgreSQL;
 *  - a 25,000-location map (the store-chain fixture on the world map): import preview and apply,
 *    the editor's first snapshot and one location's edit to a second tab, the public JSON cold
 *    and warm (bench/big-map.ts; `npm run bench -- bigmap` alone), on PGlite and PostgreSQL;
 *  - routing on a 10,000-point, 3-floor network: graph build, findRoute median and p99 (shortest
 *    and step-free), in Node and in headless Chromium (bench/route.ts; `npm run bench -- route` alone);
 *  - many points, clustered: first render of 2,000 locations and of the 25,000-store chain (server-
 *    rendered and client-only), frame times panning and zooming the 25,000, search among them,
 *    the editor opening them (bench/cluster.ts; `npm run bench -- cluster` alone).
 *  - a store chain on a street basemap: 25,000 stores on a basemap floor, first paint and ready
 *    on desktop and phone (CPU 4×), frames per second panning and zooming (WebGL on SwiftShader),
 *    nearest 10 to a postcode (bench/basemap.ts; `npm run bench -- basemap` alone, --quick).
 *  - geocoding on import: 10,000 addresses placed by the embedded geocoder (its data loaded cold,
 *    then warm), and 10,000 through a Nominatim-shaped server on loopback (bench/geocoding.ts;
 *    `npm run bench -- geocoding` alone).
 *  - webhook deliveries per second to fast receivers, alone and beside one receiver that takes
 *    seconds to answer (the aim: not delayed by it), with the fast ones' p50/p99 (bench/webhook-
 *    delivery.ts; `npm run bench -- webhooks` alone, WEBHOOK_BENCH_QUICK=1 for a quick run).
 * PostgreSQL comes from DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres); a
 * scratch database is created and dropped. Figures on a shared machine vary: compare ratios.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openPGliteDatabase } from '../server/db/pglite-database.js';
import { openPostgresDatabase } from '../server/db/postgres-database.js';
import type { Database } from '../ports/database.js';
import { createPostgresDatabase } from '../test/support/databases.js';
import { benchAppends } from './append-throughput.js';
import { benchCatchUp } from './projection-catch-up.js';
import { benchCommandToPush } from './command-to-push.js';
import { benchEditLatency } from './edit-latency.js';
import { benchHistoryAtRevision } from './history-at-revision.js';
import { benchImport } from './import-throughput.js';
import { benchDataSourceSync } from './data-source-sync.js';
import { benchBigMap } from './big-map.js';
import { benchMapDataEdit } from './map-data-edit.js';
import { benchInsightsLoad, insightsLoadOptions } from './insights-load.js';
import { benchPresenceFanout } from './presence-fanout.js';
import { benchPublicReads } from './public-read.js';
import { benchRoute } from './route.js';
import { benchServerMemory } from './server-memory.js';
import { benchLandingLcp } from './landing-lcp.js';
import { benchLiveFanout } from './live-fanout.js';
import { benchClusters } from './cluster.js';
import { benchBasemap } from './basemap.js';
import { benchDirectionsDraw } from './directions-draw.js';
import { benchInsightsFlushPause } from './insights-flush-pause.js';
import { benchFairnessOnDatabases } from './fairness.js';
import { benchGeocoding } from './geocoding.js';
import { benchWebhookDeliveries } from './webhook-delivery.js';
import { benchViewerRender } from './viewer-render.js';
import { benchViewerSize } from './viewer-size.js';
import { benchViewerTransfer } from './viewer-transfer.js';

process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';

interface Target {
  name: string;
  open(): Promise<{ db: Database; url: string | null; dispose(): Promise<void> }>;
}

const targets: Target[] = [
  {
    name: 'PGlite (embedded, on disk)',
    async open() {
      const dir = mkdtempSync(path.join(tmpdir(), 'mapfold-bench-'));
      const db = await openPGliteDatabase(dir);
      return { db, url: null, dispose: async () => { await db.close(); rmSync(dir, { recursive: true, force: true }); } };
    },
  },
  {
    name: 'PostgreSQL',
    async open() {
      const created = await createPostgresDatabase(undefined, { durable: true });
      const db = await openPostgresDatabase(created.url, 20);
      return { db, url: created.url, dispose: async () => { await db.close(); await created.drop(); } };
    },
  },
];

const only = process.argv[2];
// `npm run bench -- live` runs the edit-to-peer fan-out alone (PostgreSQL).
const liveOnly = only?.toLowerCase() === 'live';
// `npm run bench -- import` runs the imports alone (PostgreSQL, then PGlite).
const importOnly = only?.toLowerCase() === 'import';
// `npm run bench -- bigmap` runs the 25,000-location map alone (PGlite, then PostgreSQL).
const bigMapOnly = only?.toLowerCase() === 'bigmap';
// `npm run bench -- mapdata` runs the one-field edits in map_data alone (PGlite, then PostgreSQL).
const mapDataOnly = only?.toLowerCase() === 'mapdata';
for (const target of importOnly || bigMapOnly || mapDataOnly ? [] : targets) {
  if (liveOnly ? target.name !== 'PostgreSQL' : only && !target.name.toLowerCase().startsWith(only.toLowerCase())) continue;
  console.log(`\n== ${target.name} ==`);
  for (const run of liveOnly ? [] : [benchAppends, benchCatchUp, benchCommandToPush, benchEditLatency, benchHistoryAtRevision]) {
    const opened = await target.open();
    try {
      await run(opened.db, (line) => console.log(`  ${line}`));
    } finally {
      await opened.dispose();
    }
  }
  // Fan-out of one map's edits to 20 sockets, on PostgreSQL (one and two server processes).
  if (target.name === 'PostgreSQL') {
    const opened = await target.open();
    try {
      await benchLiveFanout(opened.db, (line) => console.log(`  ${line}`), opened.url);
    } finally {
      await opened.dispose();
    }
  }
}

// Imports of a 100,000-row CSV through the HTTP endpoint (bench/import-throughput.ts).
if (!only || importOnly) {
  console.log('\n== Import (100,000-row lat/lng CSV, POST /api/maps/{id}/import) ==');
  for (const target of [targets[1]!, targets[0]!]) {
    const opened = await target.open();
    try {
      await benchImport(opened.db, (line) => console.log(`  ${target.name}: ${line}`));
    } finally {
      await opened.dispose();
    }
  }
}

// A data source's 25,000-row sync (bench/data-source-sync.ts): `npm run bench -- sync` runs it alone.
if (!only || only.toLowerCase() === 'sync') {
  console.log('\n== A data source sync (25,000-row store sheet from a loopback server, syncMapNow) ==');
  for (const target of [targets[1]!, targets[0]!]) {
    const opened = await target.open();
    try {
      await benchDataSourceSync(opened.db, (line) => console.log(`  ${target.name}: ${line}`));
    } finally {
      await opened.dispose();
    }
  }
}

// A one-field edit in map_data on maps of growing size (bench/map-data-edit.ts).
if (!only || mapDataOnly) {
  console.log('\n== A one-field edit in the map data read model (100, 5,000 and 25,000 locations) ==');
  for (const target of targets) {
    const opened = await target.open();
    try {
      await benchMapDataEdit(opened.db, (line) => console.log(`  ${target.name}: ${line}`));
    } finally {
      await opened.dispose();
    }
  }
}

// A 25,000-location map end to end (bench/big-map.ts).
if (!only || bigMapOnly) {
  console.log('\n== A 25,000-location map (store-chain CSV on the world map) ==');
  for (const target of targets) {
    const opened = await target.open();
    try {
      await benchBigMap(opened.db, (line) => console.log(`  ${target.name}: ${line}`));
    } finally {
      await opened.dispose();
    }
  }
}

// Presence cursor fan-out (bench/presence-fanout.ts): `npm run bench -- presence` runs it alone.
if (!only || 'presence'.startsWith(only.toLowerCase())) {
  console.log('\n== Presence (20 tabs in one map) ==');
  for (const [target, processes] of [[targets[0]!, 1], [targets[1]!, 1], [targets[1]!, 2]] as const) {
    const opened = await target.open();
    try {
      await benchPresenceFanout(opened.db, (line) => console.log(`  ${target.name}: ${line}`), processes === 2 && opened.url ? { secondProcessUrl: opened.url } : {});
    } finally {
      await opened.dispose();
    }
  }
}

// Published maps, real server against plain Fastify with the same bytes (bench/public-read.ts):
// `npm run bench -- public` runs it alone. `/m/{id}` needs `npm run build` for its page.
if (!only || only.toLowerCase() === 'public') {
  console.log('\n== Published maps: the real server against plain Fastify serving the same bytes ==');
  await benchPublicReads((line) => console.log(`  ${line}`));
}

// Insight beacons under load (bench/insights-load.ts): `npm run bench -- insights [--seconds=60] [--rate=2000] [--db=both]`.
if (!only || only.toLowerCase() === 'insights') {
  console.log('\n== Insight beacons under load: counted with nothing lost, the public map\'s latency with and without ==');
  await benchInsightsFlushPause((line) => console.log(`  ${line}`));
  await benchInsightsLoad((line) => console.log(`  ${line}`), insightsLoadOptions(process.argv.slice(3)));
}

// Other users' latency while one user attacks (bench/fairness.ts): `npm run bench -- fairness [--db=pglite|postgres]`.
if (!only || only.toLowerCase() === 'fairness') {
  console.log("\n== Bounded work per request: other users' p50/p99 during each attack ==");
  await benchFairnessOnDatabases((line) => console.log(`  ${line}`), process.argv.slice(3));
}

// Resident memory of an idle server (bench/server-memory.ts): `npm run bench -- memory` alone.
if (!only || only.toLowerCase() === 'memory') {
  console.log('\n== Resident memory of an idle server (its own process, as npm start runs it) ==');
  await benchServerMemory((line) => console.log(`  ${line}`));
}

// The public viewer (needs `npm run build` and Chromium): `npm run bench -- viewer` runs it alone.
if (!only || 'viewer'.startsWith(only.toLowerCase())) {
  console.log('\n== Viewer (built client, headless Chromium) ==');
  benchViewerSize((line) => console.log(`  ${line}`));
  await benchViewerTransfer((line) => console.log(`  ${line}`));
  await benchViewerRender((line) => console.log(`  ${line}`));
}

// Directions on the demo mall (needs `npm run build` and Chromium): `npm run bench -- directions` alone.
if (!only || 'directions'.startsWith(only.toLowerCase())) {
  console.log('\n== Directions: first drawing of a route on the demo (built client, headless Chromium) ==');
  await benchDirectionsDraw((line) => console.log(`  ${line}`));
}

// The landing page in Chromium (needs `npm run build`): `npm run bench -- landing` runs it alone.
if (!only || 'landing'.startsWith(only.toLowerCase())) {
  console.log('\n== Landing page (built client, headless Chromium) ==');
  await benchLandingLcp((line) => console.log(`  ${line}`));
}

// Routing (bench/route.ts), in Node and in Chromium: `npm run bench -- route` runs it alone.
if (!only || only.toLowerCase() === 'route') {
  console.log('\n== Routing (10,000 path points on 3 floors) ==');
  await benchRoute((line) => console.log(`  ${line}`));
}

// Geocoding on import (bench/geocoding.ts): `npm run bench -- geocoding` runs it alone.
if (!only || only.toLowerCase() === 'geocoding') {
  console.log('\n== Geocoding on import: the embedded geocoder, and a Nominatim-shaped server on loopback ==');
  await benchGeocoding((line) => console.log(`  ${line}`));
}

// Webhook deliveries beside a slow receiver (bench/webhook-delivery.ts): `npm run bench -- webhooks`
// runs it alone; WEBHOOK_BENCH_QUICK=1 (or `--quick`) makes it a few seconds.
if (!only || only.toLowerCase() === 'webhooks') {
  console.log('\n== Webhook deliveries per second: fast receivers, then the same beside one slow receiver (PGlite) ==');
  await benchWebhookDeliveries((line) => console.log(`  ${line}`));
}

// Many points, clustered (needs the build and Chromium): `npm run bench -- cluster` runs it alone.
if (!only || only.toLowerCase() === 'cluster') {
  console.log('\n== Many points: 2,000 locations and the 25,000-store chain, clustered (built client, headless Chromium) ==');
  await benchClusters((line) => console.log(`  ${line}`));
}

// A store chain on a street basemap (needs the build and Chromium): `npm run bench -- basemap`
// runs it alone; BASEMAP_BENCH_QUICK=1 (or `--quick`) checks the harness with 2,000 stores.
if (!only || only.toLowerCase() === 'basemap') {
  console.log('\n== A store chain on a street basemap: 25,000 stores, desktop and phone (built client, headless Chromium, WebGL on SwiftShader) ==');
  await benchBasemap((line) => console.log(`  ${line}`));
}
