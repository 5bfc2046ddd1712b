/**
 * A 25,000-location map end to end (issue 19, many points), on one database: the store-chain
 * fixture (test/fixtures/import/csv/store-chain-25k.csv.gz, real GeoNames places) imported onto
 * the built-in world map (calibrated for latitude/longitude) through the real server.
 *  - import: preview and `?apply=1` of the 1.7 MB CSV (answer, then until map_data holds it);
 *  - the editor: a tab's first snapshot of the 25k map over `/api/live` (time and bytes), and one
 *    location's edit (`editMap`, a LocationUpdated of one title) from tab A until tab B's socket
 *    holds it (command → event store → projection → push), with the push's bytes;
 *  - the public JSON of the published 25k map: cold (the first read after an edit, built and
 *    compressed once for the revision), its bytes identity / gzip / br, and warm req/s and p99
 *    with `Accept-Encoding: br, gzip` (autocannon, bench/load.ts).
 * Medians. `npm run bench -- bigmap`; BIGMAP_BENCH_RUNS (3) and BIGMAP_BENCH_EDITS (30) shorten it.
 */
import WebSocket from 'ws';
import { LIVE_PROTOCOL_VERSION, type ServerMessage } from '../events/live-messages.js';
import type { MapEdit } from '../events/map-edits.js';
import { topics } from '../events/topics.js';
import type { Database } from '../ports/database.js';
import { storeChainCsv, STORE_CHAIN_ROWS } from '../test/support/store-chain.js';
import { projected, registerUser, type TestServer } from '../test/support/test-server.js';
import { callOk, startBenchServer } from './bench-server.js';
import { capture } from './captured-response.js';
import { load } from './load.js';
import { median } from './stats.js';

const RUNS = Number(process.env.BIGMAP_BENCH_RUNS ?? 3);
const EDITS = Number(process.env.BIGMAP_BENCH_EDITS ?? 30);
const COLD_READS = 5;
const LOAD_SECONDS = 5;
const KB = 1024;

const ms = (values: number[]) => `${median(values).toFixed(0)} ms`;

/** A `/api/live` socket of `cookie`'s session; resolves once open. */
async function openSocket(server: TestServer, cookie: string, onMessage: (text: string) => void): Promise<WebSocket> {
  const socket = new WebSocket(`${server.url.replace('http', 'ws')}/api/live?v=${LIVE_PROTOCOL_VERSION}`, { headers: { cookie } });
  socket.on('message', (raw) => onMessage(raw.toString()));
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  return socket;
}

/** Waits for the first message `accept` takes, resolving with its text. */
function waitForMessage(listeners: Set<(text: string) => boolean>, accept: (text: string) => boolean, timeoutMs = 60_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      listeners.delete(listener);
      reject(new Error('no such live message'));
    }, timeoutMs);
    const listener = (text: string) => {
      if (!accept(text)) return false;
      clearTimeout(timer);
      listeners.delete(listener);
      resolve(text);
      return true;
    };
    listeners.add(listener);
  });
}

export async function benchBigMap(db: Database, print: (line: string) => void): Promise<void> {
  // The production body limit (2 MB), not the tests' 64 KB: the world map's document is sent whole.
  const server = await startBenchServer(db);
  const sockets: WebSocket[] = [];
  try {
    // The admin keeps any number of test maps and may publish one.
    const admin = await registerUser(server, 'admin@example.com');
    const csv = storeChainCsv();
    const world = await fetch(`${server.url}/api/templates/world/instantiate`, { method: 'POST', headers: { cookie: admin.cookie } });
    if (!world.ok) throw new Error(`the world map answered ${world.status}`);
    const worldDocument = ((await world.json()) as { result: unknown }).result;
    const newWorldMap = async (title: string) => {
      const made = await callOk(server, admin, 'createMap', { title, mapData: worldDocument });
      await projected(server, made.position!);
      return made.result as string;
    };
    const send = async (mapId: string, apply: boolean) => {
      const response = await fetch(`${server.url}/api/maps/${mapId}/import?filename=stores.csv${apply ? '&apply=1' : ''}`, {
        method: 'POST',
        headers: { 'content-type': 'text/csv', cookie: admin.cookie },
        body: csv,
      });
      const body = (await response.json()) as { result?: { counts: { locations: number } }; position?: string | null; error?: { message: string } };
      if (!response.ok || !body.result) throw new Error(`import answered ${response.status}: ${body.error?.message ?? ''}`);
      if (body.result.counts.locations !== STORE_CHAIN_ROWS) throw new Error(`the import counted ${body.result.counts.locations} locations`);
      return body.position ?? null;
    };

    // Import: preview and apply, each run on a new world map; the last one is kept for the rest.
    const previews: number[] = [];
    const answers: number[] = [];
    const projectedTimes: number[] = [];
    let mapId = '';
    for (let run = 0; run < RUNS; run++) {
      mapId = await newWorldMap(`Stores ${run}`);
      let started = performance.now();
      await send(mapId, false);
      previews.push(performance.now() - started);
      started = performance.now();
      const position = await send(mapId, true);
      answers.push(performance.now() - started);
      await projected(server, position!);
      projectedTimes.push(performance.now() - started);
    }
    print(`import of the ${STORE_CHAIN_ROWS.toLocaleString('en')}-store CSV (${(Buffer.byteLength(csv) / KB / KB).toFixed(1)} MB) onto the world map, ${RUNS} runs:`);
    print(`  preview ${ms(previews)}; apply: answer ${ms(answers)}, until map_data holds it ${ms(projectedTimes)}`);

    // The editor: two tabs of the admin (two sessions), B waiting for A's edit.
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data: { email: 'admin@example.com', password: 'a long enough password' } }),
    });
    const cookieB = login.headers.get('set-cookie')!.split(';')[0]!;
    const listeners = new Set<(text: string) => boolean>();
    const topic = topics.map(mapId);
    const dispatch = (text: string) => {
      for (const listener of [...listeners]) if (listener(text)) return;
    };
    const snapshots: Array<{ ms: number; bytes: number }> = [];
    for (const cookie of [admin.cookie, cookieB]) {
      const socket = await openSocket(server, cookie, dispatch);
      sockets.push(socket);
      const started = performance.now();
      const snapshot = waitForMessage(listeners, (text) => (JSON.parse(text) as ServerMessage).type === 'snapshot');
      socket.send(JSON.stringify({ v: LIVE_PROTOCOL_VERSION, type: 'subscribe', topic }));
      const text = await snapshot;
      snapshots.push({ ms: performance.now() - started, bytes: Buffer.byteLength(text) });
    }
    print(`editor: a tab's first snapshot of the 25k map over /api/live ${ms(snapshots.map((s) => s.ms))}, ${(median(snapshots.map((s) => s.bytes)) / KB).toFixed(0)} KB`);

    const edit = async (i: number) => {
      const title = `Store edited ${i}-${Date.now()}`;
      const change: MapEdit = { type: 'LocationUpdated', id: `S${String(((i + 1000) % 1000) + 1).padStart(5, "0")}`, changes: { title } };
      const arrived = waitForMessage(listeners, (text) => text.includes(JSON.stringify(title)));
      const started = performance.now();
      const answered = callOk(server, admin, 'editMap', { id: mapId, edits: [change] });
      const text = await arrived;
      const elapsed = performance.now() - started;
      const answer = await answered;
      return { ms: elapsed, bytes: Buffer.byteLength(text), position: answer.position! };
    };
    await edit(-1);
    const edits: Array<{ ms: number; bytes: number }> = [];
    for (let i = 0; i < EDITS; i++) edits.push(await edit(i));
    print(`one location's edit on the 25k map, tab A's editMap until tab B's socket holds it: median ${ms(edits.map((e) => e.ms))} over ${EDITS}, push ${median(edits.map((e) => e.bytes))} bytes`);

    // The public JSON of the published map.
    const published = await callOk(server, admin, 'adminUpdateMap', { id: mapId, state: 1 });
    await projected(server, published.position!);
    const publicUrl = `${server.url}/api/public/maps/${mapId}`;
    const read = async (encoding: string) => {
      // Undecoded (fetch would decompress): the bytes on the wire.
      const response = await capture(publicUrl, { 'accept-encoding': encoding });
      if (response.status !== 200) throw new Error(`the public map answered ${response.status}`);
      return { bytes: response.body.length, encoding: response.headers['content-encoding'] ?? 'identity' };
    };
    const cold: number[] = [];
    for (let i = 0; i < COLD_READS; i++) {
      // An edit makes a new revision: its first read builds and compresses the answer.
      const { position } = await edit(1_000 + i);
      await projected(server, position);
      const started = performance.now();
      await read('br, gzip');
      cold.push(performance.now() - started);
    }
    const sizes = await Promise.all(['identity', 'gzip', 'br'].map(read));
    print(`public JSON of the published 25k map: cold (first read of a revision) ${ms(cold)}; ${sizes.map((s) => `${s.encoding} ${(s.bytes / KB).toFixed(0)} KB`).join(', ')}`);
    const warm = await load({ url: publicUrl, headers: { 'accept-encoding': 'br, gzip' }, connections: 10, seconds: LOAD_SECONDS, expect: 200 });
    print(`  warm: ${warm.requestsPerSecond.toFixed(0)} req/s, p50 ${warm.p50} ms, p99 ${warm.p99} ms (10 connections, ${LOAD_SECONDS} s${Object.keys(warm.unexpected).length ? `; unexpected ${JSON.stringify(warm.unexpected)}` : ''})`);
  } finally {
    for (const socket of sockets) socket.close();
    await server.close();
  }
}
