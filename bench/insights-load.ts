/**
 * Insight beacons under load (issue 19, part 4): `npm run bench -- insights [--seconds=60]
 * [--rate=2000] [--db=postgres|pglite|both]`.
 *
 * Per database, the real server as its own process (bench/server-process.ts, as production
 * runs it), then:
 *  1. the public map's latency alone: `GET /api/public/maps/demo` at a steady 50 requests a
 *     second (4 connections, as browsers ask: br/gzip), p50 and p99;
 *  2. the same probe again while autocannon sends `--rate` view beacons a second
 *     (`POST /api/public/maps/demo/insights`, one view each, 20 connections) for `--seconds`,
 *     from a worker thread (sent from the probe's own event loop, they delayed the probe's
 *     requests and answers, and that delay was counted as the server's: p99 ×5.5 then, ×1.7
 *     from a worker, one 30 s run each on PGlite);
 *  3. the server is stopped gracefully (SIGTERM: it flushes what it counted on close) and the
 *     read model (`map_insights`) is read: its total must equal the beacons the server
 *     answered 204 (counted); anything else is a loss and is printed as such.
 * Then the latency with the load as a share of the latency without (p50 and p99 ratios).
 *
 * One load generator is one address: the per-address limit is raised for the run
 * (INSIGHTS_BEACONS_PER_MINUTE), as thousands of visitors would each be far below it. The
 * figures are for comparison within a run on this shared 2-core machine (load generator and
 * server compete for it), not absolute.
 */
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { openPGliteDatabase } from '../server/db/pglite-database.js';
import { startRealServer, type ServerDatabase } from './server-process.js';
import { COMPILED_SERVER_COMMAND } from '../test/support/compiled-server.js';

const PROBE_RATE = 50;
const PROBE_CONNECTIONS = 4;
const BEACON_CONNECTIONS = 20;
const MAP_ID = 'demo';
const BEACON = JSON.stringify({ data: { counters: [{ kind: 'view', count: 1 }] } });

export interface InsightsLoadOptions {
  seconds: number;
  rate: number;
  databases: ServerDatabase[];
}

interface Probe {
  p50: number;
  p99: number;
  requests: number;
  unexpected: number;
}

function probe(url: string, seconds: number): Promise<Probe> {
  return autocannon({
    url: `${url}/api/public/maps/${MAP_ID}`,
    headers: { accept: 'application/json', 'accept-encoding': 'br, gzip' },
    connections: PROBE_CONNECTIONS,
    overallRate: PROBE_RATE,
    duration: seconds,
  }).then((result) => ({
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    unexpected: result.non2xx + result.errors,
  }));
}

async function beacons(url: string, seconds: number, rate: number) {
  const result = await autocannon({
    url: `${url}/api/public/maps/${MAP_ID}/insights`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: BEACON,
    connections: BEACON_CONNECTIONS,
    overallRate: rate,
    duration: seconds,
    // In a thread of its own: sending 2,000 requests a second on the probe's event loop would
    // delay the probe's own requests and answers, and count that as the server's latency.
    workers: 1,
  });
  const byStatus = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([status, stat]) => [status, Number(stat.count ?? 0)]));
  return { sent: result.requests.total, counted: byStatus['204'] ?? 0, byStatus, errors: result.errors, timeouts: result.timeouts, perSecond: result.requests.average, p99: result.latency.p99 };
}

/** The views the read model holds for the map, read after the server stopped. */
async function viewsInReadModel(server: { dataDir: string; databaseUrl: string | null }): Promise<number> {
  const sql = `SELECT coalesce(sum(count), 0)::text AS n FROM map_insights WHERE map_id = $1 AND kind = 'view'`;
  if (server.databaseUrl) {
    const client = new pg.Client({ connectionString: server.databaseUrl });
    await client.connect();
    try {
      return Number((await client.query<{ n: string }>(sql, [MAP_ID])).rows[0]!.n);
    } finally {
      await client.end();
    }
  }
  const db = await openPGliteDatabase(path.join(server.dataDir, 'pglite'));
  try {
    return Number((await db.query<{ n: string }>(sql, [MAP_ID])).rows[0]!.n);
  } finally {
    await db.close();
  }
}

const ms = (value: number) => `${value.toFixed(value < 10 ? 1 : 0)} ms`;
const int = (value: number) => Math.round(value).toLocaleString('en');

export async function benchInsightsLoad(print: (line: string) => void, options: InsightsLoadOptions): Promise<void> {
  const probeSeconds = Math.max(5, Math.min(20, options.seconds));
  print(`${int(options.rate)} view beacons/s for ${options.seconds} s (autocannon, ${BEACON_CONNECTIONS} connections, one beacon = one view); the public map probed at ${PROBE_RATE} req/s (${PROBE_CONNECTIONS} connections) alone for ${probeSeconds} s and during the load`);
  print(`the real server as production runs it (${COMPILED_SERVER_COMMAND}, NODE_ENV=production), INSIGHTS_BEACONS_PER_MINUTE raised (one load generator is one address)`);
  for (const database of options.databases) {
    const name = database === 'pglite' ? 'PGlite' : 'PostgreSQL';
    const server = await startRealServer(database, { INSIGHTS_BEACONS_PER_MINUTE: '1000000' });
    try {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const alone = await probe(server.url, probeSeconds);
      const [load, loaded] = await Promise.all([beacons(server.url, options.seconds, options.rate), probe(server.url, options.seconds)]);
      // Graceful stop: the server writes what it counted since its last flush.
      await server.stopProcess();
      const total = await viewsInReadModel(server);
      const others = Object.entries(load.byStatus).filter(([status]) => status !== '204');
      print(`${name}: beacon requests completed ${int(load.sent)}, answered 204 (counted) ${int(load.counted)}${others.length ? `, other answers ${others.map(([s, n]) => `${int(n)} × ${s}`).join(', ')}` : ''}${load.errors ? `, socket errors ${int(load.errors)} (timeouts ${int(load.timeouts)})` : ''}; ${int(load.perSecond)} beacons/s achieved, beacon p99 ${ms(load.p99)}`);
      const lost = load.counted - total;
      print(`${name}: read model total after a graceful stop ${int(total)} views: ${lost === 0 ? 'nothing lost' : lost > 0 ? `${int(lost)} LOST` : `${int(-lost)} more than answered (requests answered after the load generator stopped listening)`}`);
      print(`${name}: GET /api/public/maps/${MAP_ID} alone p50 ${ms(alone.p50)}, p99 ${ms(alone.p99)} (${int(alone.requests)} requests${alone.unexpected ? `, ${alone.unexpected} unexpected` : ''}); under the beacon load p50 ${ms(loaded.p50)}, p99 ${ms(loaded.p99)} (${int(loaded.requests)} requests${loaded.unexpected ? `, ${loaded.unexpected} unexpected` : ''})`);
      print(`${name}: latency with the load / without: p50 ×${(loaded.p50 / Math.max(alone.p50, 0.01)).toFixed(2)}, p99 ×${(loaded.p99 / Math.max(alone.p99, 0.01)).toFixed(2)}`);
    } finally {
      await server.stop();
    }
  }
}

/** `--seconds=60 --rate=2000 --db=both` from the command line. */
export function insightsLoadOptions(args: readonly string[]): InsightsLoadOptions {
  const flag = (name: string) => args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const seconds = Number(flag('seconds') ?? process.env.INSIGHTS_BENCH_SECONDS ?? 60);
  const rate = Number(flag('rate') ?? 2000);
  const db = flag('db') ?? 'both';
  if (!Number.isFinite(seconds) || seconds < 1) throw new Error('--seconds must be a number of seconds (1 or more)');
  if (!Number.isFinite(rate) || rate < 1) throw new Error('--rate must be a number of beacons per second');
  const databases: ServerDatabase[] = db === 'both' ? ['postgres', 'pglite'] : db === 'postgres' || db === 'pglite' ? [db] : (() => { throw new Error('--db must be postgres, pglite or both'); })();
  return { seconds, rate, databases };
}
