/**
 * A store chain on a street basemap (issue 29's Benchmarks), in headless Chromium against a
 * whole server on an in-memory PGlite and the built client (`npm run build`):
 *  - the 25,000-store chain (test/fixtures/import/csv/store-chain-25k.csv.gz, real GeoNames
 *    places: the repository's stand-in for the 25,600-row Starbucks directory, of which it
 *    carries only a 218-row excerpt) on one floor laid on the basemap (Web Mercator bounds
 *    around the stores, `basemap: true`), published;
 *  - on the desktop and the phone profile (CPU 4× slower through CDP
 *    Emulation.setCPUThrottlingRate; bench/browser-profiles.ts): cold loads of `/m/{id}`, first
 *    contentful paint and ready (MapLibre's first full drawing: `.mf-basemap[data-ready]`),
 *    medians;
 *  - frame times while dragging and wheel-zooming over the map (requestAnimationFrame
 *    intervals: median and p95 as frames per second; the aim is a 60 fps median);
 *  - "nearest 10 to a postcode": the places endpoint (GET /api/public/maps/{id}/places, the
 *    store locator's geocoder) answering a US postcode, then events/nearest.ts's nearestFirst
 *    over the 25,000 stores' places (each floor point through its calibration), medians.
 * WebGL runs on SwiftShader (Chromium's software GL): `--enable-unsafe-swiftshader
 * --use-angle=swiftshader` beside the usual flags; the renderer Chromium reports is printed.
 * `npm run bench -- basemap`; BASEMAP_BENCH_QUICK=1 (or `--quick`) makes one load per profile,
 * a short gesture and 2,000 stores, to check the harness. Prints medians; nothing is asserted.
 */
import { existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { boundsAround } from '../events/basemap-bounds.js';
import { LOCATION_DEFAULTS } from '../events/compact-locations.js';
import { floorToGeo, projectToFloor } from '../events/geo-calibration.js';
import { emptyMapDocument, type MapDocument } from '../events/map-document.js';
import { nearestFirst } from '../events/nearest.js';
import { pgliteTarget } from '../test/support/databases.js';
import { storeChainCsv } from '../test/support/store-chain.js';
import { call, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../test/support/test-server.js';
import { CHROMIUM, CHROMIUM_ARGS, DESKTOP, openProfiled, PHONE, type Profile } from './browser-profiles.js';
import { recordFrames } from './frame-times.js';
import { median, percentile } from './stats.js';

const QUICK = process.env.BASEMAP_BENCH_QUICK === '1' || process.argv.includes('--quick');
const LOADS = QUICK ? 1 : Number(process.env.BASEMAP_BENCH_RUNS ?? 5);
const STORES = QUICK ? 2_000 : 25_000;
/** Software WebGL in a headless Chromium without a GPU. */
export const SWIFTSHADER_ARGS = ['--enable-unsafe-swiftshader', '--use-angle=swiftshader'];
const SIZE = { width: 8000, height: 5000 };
/** Postcodes a visitor types (the embedded geocoder's US ZIP codes). */
const POSTCODES = ['75201', '80202', '10001', '94103', '60601', '98101', '33131', '02108'];

const ms = (value: number) => `${value.toFixed(1)} ms`;
const fps = (interval: number) => `${(1000 / interval).toFixed(0)} fps`;

/** The chain's stores on one floor laid on the basemap, fitted around them. */
export async function basemapStoresDocument(count: number): Promise<MapDocument> {
  const { default: Papa } = await import('papaparse');
  const rows = Papa.parse<Record<string, string>>(storeChainCsv(), { header: true, skipEmptyLines: true }).data.slice(0, count);
  const places = rows.map((row) => ({ lat: Number(row.latitude), lng: Number(row.longitude) }));
  const geo = boundsAround(places, SIZE);
  const base = emptyMapDocument();
  const locations = rows.map((row, index) => ({
    ...LOCATION_DEFAULTS,
    id: row.store_id ?? `s${index}`,
    title: `Northwind ${row.name}`,
    about: `${row.city}, ${row.country}`,
    groups: [],
    entrances: [],
    layer: 'stores',
    position: projectToFloor(geo, SIZE, places[index]!)!,
  }));
  return {
    ...base,
    settings: { ...base.settings, size: SIZE, defaultLayer: 'stores' },
    layers: [{ id: 'stores', name: 'Stores', file: null, geo, basemap: true }],
    groups: [],
    locations,
  } as MapDocument;
}

async function publish(server: TestServer, user: TestUser, document: MapDocument): Promise<string> {
  const answer = await call(server, 'createMap', { title: 'Northwind stores', mapData: document }, user);
  if (answer.status !== 200) throw new Error(`createMap failed: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
  await projected(server, answer.body.position);
  await server.database.db.query('UPDATE maps_list SET state = 1 WHERE id = $1', [answer.body.result]);
  return answer.body.result as string;
}

/** A cold load under a profile: its first contentful paint, and MapLibre's first full drawing. */
async function coldLoad(browser: Browser, url: string, profile: Profile): Promise<{ paint: number; ready: number; page: Page; close: () => Promise<void> }> {
  const { context, page } = await openProfiled((options) => browser.newContext(options), profile);
  // The basemap's tiles (Range reads of its archive): a load that fetched none drew a blank map,
  // and its figures would be quietly small.
  let tileReads = 0;
  page.on('response', (response) => {
    if (/\/basemap\/[^/]+\.pmtiles$/.test(new URL(response.url()).pathname) && response.status() === 206) tileReads++;
  });
  await page.goto(url, { timeout: 120_000 });
  const ready = (await (
    await page.waitForFunction(() => (document.querySelector('.mf-basemap[data-ready] canvas') ? performance.now() : 0), undefined, { timeout: 120_000, polling: 'raf' })
  ).jsonValue()) as number;
  if (tileReads === 0) throw new Error(`cold load of ${url}: MapLibre drew without reading a tile of the basemap's archive`);
  const paint = (await page.evaluate(`performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1`)) as number;
  return { paint, ready, page, close: () => context.close() };
}

/**
 * The scripts a cold load of a published basemap map fetches, the page's and its workers' (MapLibre's),
 * until MapLibre's first full drawing: each file once, gzipped at level 9 as bench/viewer-size.ts
 * counts them (what the browser received may be Brotli: the server's precompressed copies).
 * Throws when no worker script was fetched: a worker missed would make the figure quietly small.
 */
export async function measureLoadedScripts(browser: Browser, url: string): Promise<{ totalJs: number; files: Array<{ file: string; gzip: number }> }> {
  const context = await browser.newContext({ viewport: DESKTOP.viewport });
  try {
    const page = await context.newPage();
    const bodies = new Map<string, Promise<number>>();
    const record = (response: import('playwright-core').Response) => {
      const request = response.request();
      const type = request.resourceType();
      const path = new URL(response.url()).pathname;
      if (type !== 'script' && !/\.m?js$/.test(path)) return;
      if (bodies.has(path) || response.status() !== 200) return;
      bodies.set(path, response.body().then((body) => gzipSync(body, { level: 9 }).length));
    };
    page.on('response', record);
    page.on('worker', (worker) => bodies.set(`worker:${worker.url()}`, Promise.resolve(0)));
    await page.goto(url, { timeout: 120_000 });
    await page.waitForSelector('.mf-basemap[data-ready] canvas', { timeout: 120_000 });
    // What came after MapLibre's first drawing is not counted (nor read after the context closes).
    page.off('response', record);
    const files = await Promise.all([...bodies].map(async ([file, gzip]) => ({ file, gzip: await gzip })));
    const workers = files.filter((file) => file.file.startsWith('worker:'));
    if (workers.length === 0) throw new Error('loaded scripts: the page started no worker (MapLibre draws with one)');
    for (const worker of workers) {
      const path = new URL(worker.file.slice('worker:'.length)).pathname;
      if (!files.some((file) => file.file === path)) throw new Error(`loaded scripts: the worker ${path} was not seen fetched`);
    }
    const scripts = files.filter((file) => !file.file.startsWith('worker:'));
    return { totalJs: scripts.reduce((sum, file) => sum + file.gzip, 0), files: scripts };
  } finally {
    await context.close();
  }
}

/** Drags and wheel-zooms over the map's middle, recording the intervals between frames. */
async function panAndZoom(page: Page): Promise<number[]> {
  const box = (await page.locator('.mf-basemap').boundingBox())!;
  const radius = Math.min(box.width, box.height) / 4;
  const steps = QUICK ? 30 : 120;
  const wheels = QUICK ? 6 : 16;
  const { intervals } = await recordFrames(page, { x: box.x + box.width / 2, y: box.y + box.height / 2 }, [
    { drag: steps, radius },
    { wheel: wheels, delta: -120 },
    { drag: steps, radius },
    { wheel: wheels, delta: 120 },
  ]);
  return intervals;
}

export async function benchBasemap(print: (line: string) => void): Promise<void> {
  if (!existsSync('dist/client/viewer.html') || !existsSync('dist/server/viewer-server.js')) {
    print('basemap: no build (npm run build first)');
    return;
  }
  if (!existsSync(CHROMIUM)) {
    print(`basemap: no Chromium at ${CHROMIUM}`);
    return;
  }
  // Its own address as PUBLIC_URL: the style names the archive, fonts and sprites under it, and
  // the page's Content-Security-Policy refuses them from any other origin (localhost:3000 by default).
  const server = await startTestServer(pgliteTarget, { env: { BODY_LIMIT: String(32 * 1024 * 1024), LOG_LEVEL: 'silent' }, linksToThisServer: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, ...SWIFTSHADER_ARGS] });
  try {
    const user = await registerUser(server);
    const document = await basemapStoresDocument(STORES);
    const id = await publish(server, user, document);
    const url = `${server.url}/m/${id}`;
    print(`${STORES.toLocaleString('en')} stores on a basemap floor${QUICK ? ' (quick run)' : ''}, ${LOADS} cold load${LOADS === 1 ? '' : 's'} per profile`);
    const scripts = await measureLoadedScripts(browser, url);
    print(`scripts a cold load fetched (the page's and MapLibre's worker), gzipped: ${(scripts.totalJs / 1024).toFixed(1)} KB (${scripts.totalJs} B, ${scripts.files.length} files; bench/viewer-size.ts reads the build for the same figure)`);

    for (const profile of [DESKTOP, PHONE]) {
      const paints: number[] = [];
      const readies: number[] = [];
      // One warm-up load (the server's first answers, the tiles' first reads).
      for (let run = 0; run <= LOADS; run++) {
        const load = await coldLoad(browser, url, profile);
        if (run === 0 && profile === DESKTOP) {
          const renderer = await load.page.evaluate(`(() => {
            const gl = document.createElement('canvas').getContext('webgl2') || document.createElement('canvas').getContext('webgl');
            if (!gl) return 'no WebGL';
            const info = gl.getExtension('WEBGL_debug_renderer_info');
            return info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER);
          })()`);
          print(`WebGL: ${String(renderer)}`);
        }
        if (run > 0) {
          paints.push(load.paint);
          readies.push(load.ready);
        }
        if (run === LOADS) {
          // A moment after the map appears (as a person would), then the gestures.
          await load.page.waitForTimeout(1000);
          const intervals = await panAndZoom(load.page);
          print(`  ${profile.name}: first paint median ${ms(median(paints))}, ready (MapLibre drawn) median ${ms(median(readies))} (min ${ms(Math.min(...readies))}, max ${ms(Math.max(...readies))}); ready/first paint ${(median(readies) / median(paints)).toFixed(1)}×`);
          print(
            `  ${profile.name}: panning and zooming, frames median ${fps(median(intervals))} (${ms(median(intervals))}), p95 ${fps(percentile(intervals, 95))} (${ms(percentile(intervals, 95))}); ` +
              `${intervals.length} frames, ${intervals.filter((value) => value > 34).length} longer than two frames; median ${(median(intervals) / (1000 / 60)).toFixed(2)}× a 60 fps frame`,
          );
        }
        await load.close();
      }
    }

    // "Nearest 10 to a postcode": the geocoder's answer, then the nearest ten of the stores.
    const layer = document.layers[0]!;
    const placeOf = (location: MapDocument['locations'][number]) => (location.position ? floorToGeo(layer.geo!, SIZE, location.position) : null);
    const asked: number[] = [];
    const sorted: number[] = [];
    // The geocoder's first answer loads its data (once per server process): timed apart.
    const cold = performance.now();
    await fetch(`${server.url}/api/public/maps/${id}/places?q=73301`).then((response) => response.text());
    print(`the places endpoint's first answer (the embedded geocoder's data loaded): ${ms(performance.now() - cold)}`);
    for (let round = 0; round < (QUICK ? 1 : 3); round++) {
      for (const postcode of POSTCODES) {
        const began = performance.now();
        const response = await fetch(`${server.url}/api/public/maps/${id}/places?q=${postcode}`);
        const [place] = ((await response.json()) as { result: { places: { lat: number; lng: number }[] } }).result.places;
        const answered = performance.now();
        if (!place) throw new Error(`no place for ${postcode}`);
        const nearest = nearestFirst(document.locations, placeOf, place, { limit: 10 });
        if (nearest.length !== 10) throw new Error(`nearest: ${nearest.length}`);
        if (round > 0 || QUICK) {
          asked.push(answered - began);
          sorted.push(performance.now() - answered);
        }
      }
    }
    print(
      `nearest 10 to a postcode among ${STORES.toLocaleString('en')} stores: median ${ms(median(asked) + median(sorted))} ` +
        `(the places endpoint ${ms(median(asked))}, p95 ${ms(percentile(asked, 95))}; nearestFirst in Node ${ms(median(sorted))}, p95 ${ms(percentile(sorted, 95))}; ${asked.length} postcodes)`,
    );
  } finally {
    await browser.close();
    await server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchBasemap((line) => console.log(line));
