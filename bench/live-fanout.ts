/**
 * Edit-to-peer fan-out on one map (issue 16): 20 sockets follow `map:{id}` on `/api/live`, one
 * editor sends a one-field edit (`editMap`, a LocationUpdated of one location's title) and the
 * 19 others wait for it. Per edit and peer, the time from sending the request to that peer
 * receiving the message that holds the new title, and the size of that message (bytes per
 * push). Maps of 100, 1,000 and 5,000 locations; then the same with the 20 sockets split over
 * two server processes sharing the database (PostgreSQL only: the second one is spawned as
 * `node dist/node/server/main.js`, as in test/server/multi-process.test.ts).
 *
 * Arrival is recognised by the unique title in the raw message, so the figure does not depend
 * on the protocol's shape (it measured the version-1 whole-document snapshots the same way).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import WebSocket from 'ws';
import { LIVE_PROTOCOL_VERSION, LIVE_PROTOCOL_QUERY } from '../events/live-messages.js';
import type { MapEdit } from '../events/map-edits.js';
import { emptyMapDocument, Location, type MapDocument } from '../events/map-document.js';
import { topics } from '../events/topics.js';
import type { Database } from '../ports/database.js';
import { registerUser } from '../test/support/test-server.js';
import { startBenchServer } from './bench-server.js';
import { freePort, waitForOk } from './processes.js';
import { median, percentile } from './stats.js';
import { compiledServerArgs } from '../test/support/compiled-server.js';

const SOCKETS = 20;
const WARM_UP = 20;
const EDITS = 150;
const SIZES = [100, 1_000, 5_000];

function mallDocument(size: number): MapDocument {
  const document = emptyMapDocument();
  const locations = Array.from({ length: size }, (_, i) =>
    Location.parse({
      id: `shop-${i}`,
      title: `Shop ${i}`,
      layer: 'ground',
      position: { x: 20 + (i % 100) * 11, y: 20 + Math.floor(i / 100) * 7 },
      description: `<p>Shop ${i} on the <strong>ground floor</strong>.</p>`,
    }),
  );
  return { ...document, locations };
}

async function until(predicate: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface Peer {
  socket: WebSocket;
  /** Resolves with the size of the first message holding `needle`. */
  await(needle: string): Promise<number>;
  /** Messages that held a needle already received (the same change pushed again). */
  repeats(): number;
}

/** A socket subscribed to `topic`, its first answer in. */
async function openPeer(base: string, cookie: string, topic: string): Promise<Peer> {
  const socket = new WebSocket(`${base.replace('http', 'ws')}/api/live?${LIVE_PROTOCOL_QUERY}=${LIVE_PROTOCOL_VERSION}`, { headers: { cookie } });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  let waiting: { needle: string; resolve: (bytes: number) => void } | null = null;
  const received: string[] = [];
  let repeats = 0;
  let first: (() => void) | null = null;
  const subscribed = new Promise<void>((resolve) => (first = resolve));
  socket.on('message', (raw: Buffer) => {
    const text = raw.toString();
    if (first && text.includes(`"topic":"${topic}"`)) {
      first();
      first = null;
    }
    // The last few changes: one seen again is a repeat (each edit's title is unique).
    if (received.some((needle) => text.includes(needle))) repeats++;
    if (waiting && text.includes(waiting.needle)) {
      const done = waiting;
      waiting = null;
      received.push(done.needle);
      if (received.length > 5) received.shift();
      done.resolve(raw.length);
    }
  });
  socket.send(JSON.stringify({ v: LIVE_PROTOCOL_VERSION, type: 'subscribe', topic }));
  await subscribed;
  return {
    socket,
    await: (needle) => new Promise((resolve) => (waiting = { needle, resolve })),
    repeats: () => repeats,
  };
}

/** Runs the fan-out on one or two servers (`bases`); the editor uses the first. */
async function measure(bases: string[], cookie: string, size: number, print: (line: string) => void, label: string): Promise<void> {
  const callFn = async (name: string, data: unknown) => {
    const response = await fetch(`${bases[0]}/api/fn/${name}`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ data }) });
    if (!response.ok) throw new Error(`${name} failed: ${response.status} ${await response.text()}`);
    return (await response.json()) as { result: unknown; position: string | null };
  };
  const mapId = (await callFn('createMap', { title: `Fan-out ${size}`, mapData: mallDocument(size) })).result as string;
  await until(async () => (await fetch(`${bases.at(-1)}/api/maps/${mapId}/data`, { headers: { cookie } })).status === 200);
  const topic = topics.map(mapId);
  const peers: Peer[] = [];
  try {
    for (let i = 0; i < SOCKETS; i++) peers.push(await openPeer(bases[i % bases.length]!, cookie, topic));
    // Every socket is the editor's own account; the first is its tab (it waits too, for repeats).
    const receivers = peers.slice(1);
    const latencies: number[] = [];
    const bytes: number[] = [];
    /** The editor's own answer (the command's part of the latency). */
    const answers: number[] = [];
    for (let i = 0; i < WARM_UP + EDITS; i++) {
      const title = `Shop ${i % size} edit-${i}-${Math.random().toString(36).slice(2, 8)}`;
      const edit: MapEdit = { type: 'LocationUpdated', id: `shop-${i % size}`, changes: { title } };
      const started = performance.now();
      const arrivals = receivers.map((peer) => peer.await(title).then((length) => ({ length, at: performance.now() })));
      const ownTab = peers[0]!.await(title);
      const answered = callFn('editMap', { id: mapId, edits: [edit] }).then(() => performance.now());
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`edit ${i} never reached every peer`)), 20_000)));
      const everyone = Promise.all([Promise.all(arrivals), ownTab]).then(([peersGot]) => peersGot);
      const got = await Promise.race([everyone, timedOut]).finally(() => clearTimeout(timer));
      const answeredAt = await answered;
      if (i < WARM_UP) continue;
      answers.push(answeredAt - started);
      for (const arrival of got) {
        latencies.push(arrival.at - started);
        bytes.push(arrival.length);
      }
    }
    print(
      `${label}, ${size} locations: edit-to-peer median ${median(latencies).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms; ` +
        `bytes per push median ${median(bytes)} (max ${Math.max(...bytes)}); editMap answered median ${median(answers).toFixed(1)} ms (${EDITS} edits × ${receivers.length} peers); ` +
        `changes pushed again to a socket: ${peers.reduce((sum, peer) => sum + peer.repeats(), 0)}`,
    );
  } finally {
    for (const peer of peers) peer.socket.close();
    // Two free test slots: the next size needs this one's back.
    await callFn('deleteMap', { id: mapId });
  }
}

export async function benchLiveFanout(db: Database, print: (line: string) => void, databaseUrl: string | null): Promise<void> {
  const server = await startBenchServer(db);
  const base = server.url;
  let second: ChildProcess | null = null;
  try {
    const { cookie } = await registerUser(server, 'fanout@example.com', { displayName: 'Ben' });
    for (const size of SIZES) await measure([base], cookie, size, print, `one process (${SOCKETS} sockets)`);
    if (!databaseUrl) return;
    const port = await freePort();
    const secondBase = `http://127.0.0.1:${port}`;
    second = spawn(process.execPath, await compiledServerArgs(), {
      env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', PUBLIC_URL: secondBase },
      stdio: 'ignore',
    });
    await waitForOk(`${secondBase}/api/health`, second, 60_000);
    for (const size of SIZES) await measure([base, secondBase], cookie, size, print, `two processes (${SOCKETS / 2} sockets each, editor on the first)`);
  } finally {
    second?.kill('SIGTERM');
    await server.close();
  }
}
