/**
 * Geocoding on import (issue 29 item 3): `npm run bench -- geocoding`.
 *  - the embedded geocoder: 10,000 rows of addresses without coordinates (US city and state,
 *    ZIP codes, cities of other countries with their country; `GEOCODE_BENCH_ROWS`) read as a
 *    CSV and placed, its gazetteer loaded cold first (as the planner's worker does on its first
 *    such import), then again warm; aim under 10 s;
 *  - a street geocoder in Nominatim's format on loopback (answering at once): 10,000 distinct
 *    street addresses (`GEOCODE_BENCH_REMOTE`) through RemoteGeocoder at `GEOCODE_BENCH_RATE`
 *    requests a second (default 1,000: a geocoder of one's own; Nominatim's public servers
 *    allow 1), then the same again from its cache.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { geocodePlan, type Gazetteer } from '../events/geocoding.js';
import type { PlannedAddress } from '../events/map-import.js';
import { buildGazetteer } from '../server/geocoding/gazetteer.js';
import { RemoteGeocoder } from '../server/geocoding/remote-geocoder.js';
import { parseCsv } from '../server/import/csv-import.js';

const ROWS = Number(process.env.GEOCODE_BENCH_ROWS ?? 10_000);
const REMOTE = Number(process.env.GEOCODE_BENCH_REMOTE ?? 10_000);
const RATE = Number(process.env.GEOCODE_BENCH_RATE ?? 1_000);

const US = [['Springfield', 'IL'], ['Springfield', 'MO'], ['Portland', 'OR'], ['Portland', 'ME'], ['Austin', 'TX'], ['Boulder', 'CO'], ['Madison', 'WI'], ['Columbus', 'OH'], ['Salem', 'MA'], ['Albany', 'NY']];
const ZIPS = ['10001', '94103', '60601', '02134', '30301', '73301', '98101', '33101', '80202', '85001'];
const WORLD = [['Paris', 'France'], ['Lyon', 'FR'], ['München', 'Germany'], ['Zürich', 'Schweiz'], ['São Paulo', 'Brasil'], ['Kraków', 'Poland'], ['Toronto', 'Canada'], ['Osaka', 'Japan'], ['Sevilla', 'Spain'], ['Melbourne', 'Australia']];

/** A store list without coordinates: a third each by US city and state, by ZIP code, by city and country. */
export function addressCsv(rows: number): string {
  const lines = ['Store Name,Street Address,City,State,Zip,Country'];
  for (let i = 0; i < rows; i++) {
    const street = `${(i % 900) + 1} Main Street`;
    if (i % 3 === 0) {
      const [city, state] = US[i % US.length]!;
      lines.push(`Store ${i},${street},${city},${state},,US`);
    } else if (i % 3 === 1) lines.push(`Store ${i},${street},,,${ZIPS[i % ZIPS.length]},`);
    else {
      const [city, country] = WORLD[i % WORLD.length]!;
      lines.push(`Store ${i},${street},${city},,,${country}`);
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}

function placeRows(text: string, gazetteer: () => Gazetteer | null): { seconds: number; placed: string; unplaced: number } {
  const started = performance.now();
  const plan = parseCsv({ text, bytes: Buffer.from(text), filename: 'stores.csv', contentType: 'text/csv', attachments: new Map(), options: {}, rememberedMapping: null, document: {} as never });
  const summary = geocodePlan(plan, gazetteer);
  const seconds = (performance.now() - started) / 1000;
  return { seconds, placed: Object.entries(summary?.placed ?? {}).map(([precision, n]) => `${precision} ${n}`).join(', '), unplaced: summary?.unplaced ?? 0 };
}

export async function benchGeocoding(log: (line: string) => void): Promise<void> {
  const text = addressCsv(ROWS);
  let gazetteer: Gazetteer | null = null;
  const heapBefore = process.memoryUsage().heapUsed;
  const loadStarted = performance.now();
  const cold = placeRows(text, () => {
    gazetteer ??= buildGazetteer();
    return gazetteer;
  });
  const loadAndPlace = (performance.now() - loadStarted) / 1000;
  const heap = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;
  log(`embedded, cold (gazetteer loaded): ${ROWS.toLocaleString('en')} rows in ${loadAndPlace.toFixed(2)} s (placed: ${cold.placed}; unplaced ${cold.unplaced}); gazetteer heap ≈ ${heap.toFixed(0)} MB`);
  const warm = placeRows(text, () => gazetteer);
  log(`embedded, warm: ${ROWS.toLocaleString('en')} rows in ${warm.seconds.toFixed(2)} s (${Math.round(ROWS / warm.seconds).toLocaleString('en')} rows/s)`);

  // A Nominatim-shaped server on loopback that answers every street at once.
  let requests = 0;
  const server = createServer((request, response) => {
    requests++;
    const url = new URL(request.url ?? '/', 'http://localhost');
    const n = Number(/^(\d+)/.exec(url.searchParams.get('street') ?? '')?.[1] ?? 0);
    const body = [{ lat: String(40 + (n % 1000) / 10_000), lon: String(-74 + (n % 997) / 10_000), place_rank: 30, addresstype: 'building', type: 'yes', category: 'building' }];
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const geocoder = new RemoteGeocoder({ url: base, kind: 'nominatim', requestsPerSecond: RATE, timeoutMs: 10_000, maxAddresses: REMOTE, allowPrivate: true });
    const addresses: PlannedAddress[] = Array.from({ length: REMOTE }, (_, i) => ({ street: `${i + 1} Main Street`, city: 'New York', state: 'NY', postcode: '', country: 'US' }));
    const started = performance.now();
    const answers = await geocoder.placeAll(addresses);
    const seconds = (performance.now() - started) / 1000;
    const placed = [...answers.values()].filter(Boolean).length;
    log(`Nominatim on loopback at ${RATE.toLocaleString('en')} requests/s: ${REMOTE.toLocaleString('en')} addresses in ${seconds.toFixed(2)} s (${Math.round(REMOTE / seconds).toLocaleString('en')}/s; ${placed.toLocaleString('en')} placed, ${requests.toLocaleString('en')} requests)`);
    const again = performance.now();
    await geocoder.placeAll(addresses);
    log(`the same again from the cache: ${((performance.now() - again) / 1000).toFixed(3)} s, ${(requests - REMOTE).toLocaleString('en')} more requests`);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
