/**
 * Presence cursor fan-out: 20 tabs in one map, one moving its pointer at 20 Hz (one presence
 * update every 50 ms, as the editor sends at most), 19 receiving. Timed from the mover sending
 * an update to each receiver getting the peer at that position; p50 and p99 over every
 * (update, receiver) pair after a warm-up. With two processes on one PostgreSQL database the
 * mover and 9 receivers are on one, 10 receivers on the other (relayed through NOTIFY), and
 * the figures are given for each side too.
 *
 * The 20 tabs are sockets of one account (the map's owner), each its own peer, as tabs are;
 * the receivers keep alive every 2 s, as the editor does.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import WebSocket from 'ws';
import { LIVE_PROTOCOL_VERSION, type ServerMessage } from '../events/live-messages.js';
import { PRESENCE_KEEPALIVE_MS, PRESENCE_MIN_INTERVAL_MS, type PresenceState } from '../events/presence.js';
import { allProjections } from '../projections/index.js';
import { ProjectionRunner } from '../projections/runner.js';
import { buildApp } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import type { Database } from '../ports/database.js';
import { openPostgresDatabase } from '../server/db/postgres-database.js';
import { openServices } from '../server/services.js';
import { percentile } from './stats.js';

const CLIENTS = 20;
const WARM_UP = 40;
const MOVES = 400;

interface Tab {
  socket: WebSocket;
  /** Which process it is connected to (0 or 1). */
  process: number;
  bytes: number;
  messages: number;
}

async function openTab(base: string, cookie: string, mapId: string, process: number, onPresence: (message: Extract<ServerMessage, { type: 'presence' }>, tab: Tab) => void): Promise<Tab> {
  const socket = new WebSocket(`${base.replace('http', 'ws')}/api/live?v=${LIVE_PROTOCOL_VERSION}`, { headers: { cookie } });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  const tab: Tab = { socket, process, bytes: 0, messages: 0 };
  const joined = new Promise<void>((resolve, reject) => {
    socket.on('message', (raw) => {
      const text = raw.toString();
      const message = JSON.parse(text) as ServerMessage;
      if (message.type === 'error') reject(new Error(`presence: ${message.code} ${message.message}`));
      if (message.type !== 'presence') return;
      if (message.full) return resolve();
      tab.bytes += Buffer.byteLength(text);
      tab.messages += 1;
      onPresence(message, tab);
    });
  });
  socket.send(JSON.stringify({ v: LIVE_PROTOCOL_VERSION, type: 'presence', mapId, state: { cursor: null, selection: null, editing: null } }));
  await joined;
  return tab;
}

const summary = (samples: number[]) => `p50 ${percentile(samples, 50).toFixed(1)} ms, p99 ${percentile(samples, 99).toFixed(1)} ms`;

/**
 * One process on `db`, or (with `twoProcesses` and the database's URL) a second app on the same
 * PostgreSQL database, as another server process would be.
 */
export async function benchPresenceFanout(db: Database, print: (line: string) => void, options: { secondProcessUrl?: string } = {}): Promise<void> {
  const quiet = { info: () => {}, error: () => {} };
  const services = await openServices(loadConfig({ LOG_LEVEL: 'silent' }), { db, logger: quiet });
  const app = await buildApp(services);
  const runner = new ProjectionRunner(db, services.store, allProjections);
  await runner.start();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (server: typeof app.server) => {
    const address = server.address();
    return typeof address === 'object' && address ? address.port : 0;
  };
  const bases = [`http://127.0.0.1:${port(app.server)}`];
  let second: { close(): Promise<void> } | null = null;
  if (options.secondProcessUrl) {
    const otherDb = await openPostgresDatabase(options.secondProcessUrl);
    const otherServices = await openServices(loadConfig({ LOG_LEVEL: 'silent' }), { db: otherDb, logger: quiet });
    const other = await buildApp(otherServices);
    await other.listen({ port: 0, host: '127.0.0.1' });
    bases.push(`http://127.0.0.1:${port(other.server)}`);
    second = {
      close: async () => {
        await other.close();
        await otherServices.close();
      },
    };
  }
  const base = bases[0]!;
  const tabs: Tab[] = [];
  const timers: NodeJS.Timeout[] = [];
  try {
    const email = 'presence@example.com';
    const registered = await fetch(`${base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data: { email, password: 'bench password', displayName: 'Presence Bench' } }),
    });
    const cookie = registered.headers.get('set-cookie')!.split(';')[0]!;
    const [mail] = await services.outbox!.list(1);
    const token = /token=([\w-]+)/.exec(mail!.text)![1];
    await fetch(`${base}/api/auth/verify-email`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: { token } }) });
    const created = await fetch(`${base}/api/fn/createMap`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ data: { title: 'Presence' } }) });
    const mapId = ((await created.json()) as { result: string }).result;
    for (let attempt = 0; (await fetch(`${base}/api/maps/${mapId}/data`, { headers: { cookie } })).status !== 200; attempt++) {
      if (attempt > 200) throw new Error('the new map never reached its read model');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }

    // sent[x]: when the update with cursor x left the mover; samples per receiving process.
    const sent = new Map<number, number>();
    const samples: number[][] = [[], []];
    let moverId = '';
    const onPresence = (message: Extract<ServerMessage, { type: 'presence' }>, tab: Tab) => {
      const now = performance.now();
      for (const peer of message.peers) {
        const x = peer.state.cursor?.x;
        if (peer.id !== moverId || x === undefined) continue;
        const at = sent.get(x);
        if (at === undefined) continue;
        if (x >= WARM_UP) samples[tab.process]!.push(now - at);
      }
    };

    // The mover is on the first process; receivers alternate between the processes.
    const mover = await openTab(base, cookie, mapId, 0, () => {});
    tabs.push(mover);
    for (let i = 1; i < CLIENTS; i++) {
      const process = bases.length > 1 && i % 2 === 0 ? 1 : 0;
      tabs.push(await openTab(bases[process]!, cookie, mapId, process, onPresence));
    }
    // Who the mover is, as the others see it: the one peer that moves.
    const probe = new Promise<void>((resolve) => {
      const receiver = tabs[1]!;
      receiver.socket.on('message', (raw) => {
        const message = JSON.parse(raw.toString()) as ServerMessage;
        const peer = message.type === 'presence' ? message.peers.find((p) => p.state.cursor?.x === -1) : undefined;
        if (peer) {
          moverId = peer.id;
          resolve();
        }
      });
    });
    const move = (x: number) => {
      const state: PresenceState = { cursor: { layer: 'ground', x, y: 100 }, selection: null, editing: null };
      sent.set(x, performance.now());
      mover.socket.send(JSON.stringify({ v: LIVE_PROTOCOL_VERSION, type: 'presence', mapId, state }));
    };
    move(-1);
    await probe;
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Every receiver says it is still there, as the editor does.
    for (const tab of tabs.slice(1)) {
      const timer = setInterval(() => tab.socket.send(JSON.stringify({ v: LIVE_PROTOCOL_VERSION, type: 'presence', mapId, state: { cursor: null, selection: null, editing: null } })), PRESENCE_KEEPALIVE_MS);
      timers.push(timer);
    }
    for (const tab of tabs) {
      tab.bytes = 0;
      tab.messages = 0;
    }

    // How long the process's event loop was held up meanwhile (the server, the database driver
    // and the clients all share it; PGlite runs its queries on it).
    const LOOP_SAMPLE_MS = 5;
    const loop = monitorEventLoopDelay({ resolution: LOOP_SAMPLE_MS });
    loop.enable();
    // 20 Hz: one update every 50 ms, on a schedule (a late tick does not push the next ones back).
    const began = performance.now();
    for (let x = 0; x < WARM_UP + MOVES; x++) {
      const due = began + x * PRESENCE_MIN_INTERVAL_MS;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      move(x);
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    loop.disable();

    const all = [...samples[0]!, ...samples[1]!];
    const expected = MOVES * (CLIENTS - 1);
    const receivers = tabs.slice(1);
    const bytes = receivers.reduce((sum, tab) => sum + tab.bytes, 0) / Math.max(1, receivers.reduce((sum, tab) => sum + tab.messages, 0));
    const label = bases.length > 1 ? 'two processes' : 'one process';
    print(
      `presence fan-out, ${label}: ${summary(all)} (${CLIENTS} tabs in one map, 1 moving at 20 Hz, ${CLIENTS - 1} receiving; ${MOVES} moves; ${all.length}/${expected} deliveries, the rest coalesced; ${Math.round(bytes)} B per push)`,
    );
    // The histogram holds the sampling timer's whole period: the delay is what exceeds it.
    const lag = (ns: number) => Math.max(0, ns / 1e6 - LOOP_SAMPLE_MS).toFixed(1);
    print(`  event loop held up meanwhile: p50 ${lag(loop.percentile(50))} ms, p99 ${lag(loop.percentile(99))} ms, max ${lag(loop.max)} ms`);
    if (bases.length > 1) print(`  same process as the mover: ${summary(samples[0]!)}; the other process (NOTIFY): ${summary(samples[1]!)}`);
  } finally {
    for (const timer of timers) clearInterval(timer);
    for (const tab of tabs) tab.socket.close();
    await second?.close();
    await app.close();
    await runner.stop();
    await services.store.close();
  }
}
