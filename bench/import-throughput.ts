/**
 * Imports of a large table (issue 15): a generated 100,000-row store CSV with its own column
 * names and latitude/longitude (the shape of a store locator's export), sent to
 * `POST /api/maps/{id}/import` of a real server as the raw body. Per run, on a new blank map:
 *  - preview: the endpoint's answer (parse, column guess, plan, sample), nothing recorded;
 *  - apply (`?apply=1`): the answer once the import is recorded as events, then the time until
 *    the map's read model (map_data) holds every location.
 * Median seconds over the runs, and the peak memory of the process (the server runs in it)
 * while each phase ran: RSS and V8 heap, sampled every 5 ms, and how far above their level
 * before the phase (the server runs in this process; a sample waits for synchronous work).
 */
import { parsePosition } from '../events/position.js';
import type { Database } from '../ports/database.js';
import { registerUser } from '../test/support/test-server.js';
import { startBenchServer } from './bench-server.js';
import { median } from './stats.js';

// `IMPORT_BENCH_ROWS` / `IMPORT_BENCH_RUNS` make a quick check of the harness; the figures are for the defaults.
const ROWS = Number(process.env.IMPORT_BENCH_ROWS ?? 100_000);
const RUNS = Number(process.env.IMPORT_BENCH_RUNS ?? 3);
const MB = 1024 * 1024;

/** A store list as a locator exports it: its own column names, latitude/longitude, an address. */
export function storeCsv(rows: number): string {
  const lines = ['Store Number,Store Name,Street Address,City,Country,Phone Number,Latitude,Longitude'];
  for (let i = 0; i < rows; i++) {
    // Spread over the inhabited latitudes and every longitude, deterministically.
    const lat = (((i * 7919) % 12_000) / 100 - 55).toFixed(5);
    const lng = (((i * 104_729) % 35_800) / 100 - 179).toFixed(5);
    lines.push(`${10_000 + i}-${i % 997},"Store ${i}, Main Street",${i % 500} Main Street,City ${i % 1_000},C${i % 200},+1 555 ${String(i % 10_000).padStart(4, '0')},${lat},${lng}`);
  }
  return `${lines.join('\r\n')}\r\n`;
}

interface Measured<T> {
  result: T;
  seconds: number;
  /** Peak RSS and heap while it ran, in MB, and how far above their level when it started. */
  rss: number;
  heap: number;
  rssAbove: number;
  heapAbove: number;
}

/** How long `work` took, and the peak RSS and heap while it ran. */
async function measured<T>(work: () => Promise<T>): Promise<Measured<T>> {
  globalThis.gc?.();
  const before = process.memoryUsage();
  let rss = before.rss;
  let heap = before.heapUsed;
  const sample = () => {
    const now = process.memoryUsage();
    rss = Math.max(rss, now.rss);
    heap = Math.max(heap, now.heapUsed);
  };
  const timer = setInterval(sample, 5);
  const started = performance.now();
  try {
    const result = await work();
    sample();
    return { result, seconds: (performance.now() - started) / 1000, rss: rss / MB, heap: heap / MB, rssAbove: (rss - before.rss) / MB, heapAbove: (heap - before.heapUsed) / MB };
  } finally {
    clearInterval(timer);
  }
}

interface ImportAnswer {
  format: string;
  counts: { locations: number; layers: number };
  revision: string | null;
}

export async function benchImport(db: Database, print: (line: string) => void): Promise<void> {
  const server = await startBenchServer(db);
  const base = server.url;
  const { runner } = server;
  try {
    const { cookie } = await registerUser(server, 'import-bench@example.com');
    const locationCount = async (id: string) => {
      const response = await fetch(`${base}/api/maps/${id}/data`, { headers: { cookie } });
      if (!response.ok) return -1;
      return ((await response.json()) as { result: { data: { locations: unknown[] } } }).result.data.locations.length;
    };
    const fn = async (name: string, data: unknown) => {
      const response = await fetch(`${base}/api/fn/${name}`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ data }) });
      const body = (await response.json()) as { result: string; error?: { message: string } };
      if (!response.ok) throw new Error(`${name} answered ${response.status}: ${body.error?.message}`);
      return body.result;
    };
    const createMap = async () => {
      const id = await fn('createMap', { title: 'Stores' });
      // The import reads the map's read model: wait until it has the new map.
      while ((await locationCount(id)) !== 0) await new Promise((resolve) => setTimeout(resolve, 20));
      return id;
    };
    const csv = storeCsv(ROWS);
    const send = async (id: string, apply: boolean) => {
      const response = await fetch(`${base}/api/maps/${id}/import?filename=stores.csv${apply ? '&apply=1' : ''}`, {
        method: 'POST',
        headers: { 'content-type': 'text/csv', cookie },
        body: csv,
      });
      const body = (await response.json()) as { result?: ImportAnswer; position?: string | null; error?: { message: string } };
      if (!response.ok || !body.result) throw new Error(`import answered ${response.status}: ${body.error?.message ?? JSON.stringify(body).slice(0, 300)}`);
      if (body.result.counts.locations !== ROWS) throw new Error(`the import counted ${body.result.counts.locations} locations of ${ROWS}`);
      return { ...body.result, position: body.position ?? null };
    };

    const previews: Measured<unknown>[] = [];
    const applies: Measured<Awaited<ReturnType<typeof send>>>[] = [];
    const projectedTimes: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const id = await createMap();
      previews.push(await measured(() => send(id, false)));
      const applied = await measured(() => send(id, true));
      applies.push(applied);
      const started = performance.now();
      // The map's read model at the import's position, then read once to be sure it holds them all.
      await runner.waitFor(parsePosition(applied.result.position!), ['map_data']);
      if ((await locationCount(id)) !== ROWS) throw new Error('the read model does not hold every imported location');
      projectedTimes.push(applied.seconds + (performance.now() - started) / 1000);
      // An account without a subscription keeps two test maps: make room for the next run.
      await fn('deleteMap', { id });
    }
    const figures = (label: string, runs: Measured<unknown>[]) =>
      `${label}: median ${median(runs.map((r) => r.seconds)).toFixed(2)} s (runs ${runs.map((r) => r.seconds.toFixed(2)).join(', ')}); ` +
      `peak RSS ${Math.max(...runs.map((r) => r.rss)).toFixed(0)} MB (+${Math.max(...runs.map((r) => r.rssAbove)).toFixed(0)}), ` +
      `peak heap ${Math.max(...runs.map((r) => r.heap)).toFixed(0)} MB (+${Math.max(...runs.map((r) => r.heapAbove)).toFixed(0)})`;
    print(`import of a ${ROWS.toLocaleString('en')}-row lat/lng CSV (${(Buffer.byteLength(csv) / MB).toFixed(1)} MB) through POST /api/maps/{id}/import, ${RUNS} runs on blank maps:`);
    print(`  ${figures('preview', previews)}`);
    print(`  ${figures('apply (answer)', applies)}`);
    print(`  apply until the map's read model holds every location: median ${median(projectedTimes).toFixed(2)} s`);
    print(`  process RSS at the end ${(process.memoryUsage().rss / MB).toFixed(0)} MB, its peak ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
  } finally {
    await server.close();
  }
}
