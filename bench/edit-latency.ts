/**
 * Edit-to-other-editor latency: two editors of one map, as two browser tabs of its owner (two
 * sessions of the same user; the map topic is the owner's only). Editor A sends one
 * fine-grained edit (`editMap` with a LocationUpdated of one location's title); editor B, a
 * websocket subscribed to `map:{id}` on `/api/live`, waits for the push that holds that title
 * (protocol 2: the edit's event). Timed from A sending the request to B receiving that push,
 * one edit at a time, after a warm-up. Editor A is subscribed too, as its tab would be.
 * bench/live-fanout.ts measures the same with 20 sockets and bigger maps.
 */
import WebSocket from 'ws';
import type { MapEdit } from '../events/map-edits.js';
import { emptyMapDocument, Location, type MapDocument } from '../events/map-document.js';
import { LIVE_PROTOCOL_VERSION, type ServerMessage } from '../events/live-messages.js';
import { topics } from '../events/topics.js';
import type { Database } from '../ports/database.js';
import { registerUser, TEST_PASSWORD } from '../test/support/test-server.js';
import { startBenchServer } from './bench-server.js';
import { percentile } from './stats.js';

const WARM_UP = 50;
const EDITS = 500;
/** Locations on the map: each snapshot carries the whole document, as the editor's does. */
const LOCATIONS = 100;

/** A map of a mall floor: LOCATIONS shops with a short description each. */
function benchDocument(): MapDocument {
  const document = emptyMapDocument();
  const locations = Array.from({ length: LOCATIONS }, (_, i) =>
    Location.parse({
      id: `shop-${i}`,
      title: `Shop ${i}`,
      layer: 'ground',
      position: { x: 20 + (i % 10) * 110, y: 20 + Math.floor(i / 10) * 70 },
      description: `<p>Shop ${i} on the <strong>ground floor</strong>.</p>`,
    }),
  );
  return { ...document, locations };
}

/** A websocket of `/api/live` signed in with `cookie`, subscribed to `topic` (its first snapshot in). */
async function openEditorSocket(base: string, cookie: string, topic: string, onPush: (text: string) => void): Promise<WebSocket> {
  const socket = new WebSocket(`${base.replace('http', 'ws')}/api/live?v=${LIVE_PROTOCOL_VERSION}`, { headers: { cookie } });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  const subscribed = new Promise<void>((resolve, reject) => {
    socket.on('message', (raw) => {
      const text = raw.toString();
      const message = JSON.parse(text) as ServerMessage;
      if (message.type === 'error') reject(new Error(`subscribe ${topic}: ${message.code} ${message.message}`));
      if (message.type === 'snapshot' && message.topic === topic) resolve();
      if (message.type === 'events' && message.topic === topic) onPush(text);
    });
  });
  socket.send(JSON.stringify({ v: LIVE_PROTOCOL_VERSION, type: 'subscribe', topic }));
  await subscribed;
  return socket;
}

/** editMap over HTTP from one editor; time until the other editor's socket has the edit. */
export async function benchEditLatency(db: Database, print: (line: string) => void): Promise<void> {
  const server = await startBenchServer(db);
  const base = server.url;
  const sockets: WebSocket[] = [];
  try {
    const email = 'editor@example.com';
    const { cookie: cookieA } = await registerUser(server, email, { displayName: 'Editor' });
    // The second tab: the same person signed in again, a session of its own.
    const login = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: { email, password: TEST_PASSWORD } }) });
    if (!login.ok) throw new Error(`login failed: ${login.status} ${await login.text()}`);
    const cookieB = login.headers.get('set-cookie')!.split(';')[0]!;

    const callFn = async (name: string, data: unknown) => {
      const response = await fetch(`${base}/api/fn/${name}`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: cookieA }, body: JSON.stringify({ data }) });
      if (!response.ok) throw new Error(`${name} failed: ${response.status} ${await response.text()}`);
      return (await response.json()) as { result: unknown; position: string | null };
    };
    const mapId = (await callFn('createMap', { title: 'Edit latency', mapData: benchDocument() })).result as string;
    // The map topic answers not-found until the map's read model has it.
    for (let attempt = 0; (await fetch(`${base}/api/maps/${mapId}/data`, { headers: { cookie: cookieB } })).status !== 200; attempt++) {
      if (attempt > 200) throw new Error('the new map never reached its read model');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }

    const topic = topics.map(mapId);
    // Editor B: each push checked for the awaited edit (its unique title).
    let waiting: { id: string; title: string; resolve: () => void } | null = null;
    const onSnapshotB = (text: string) => {
      if (!waiting) return;
      if (text.includes(JSON.stringify(waiting.title))) {
        const done = waiting;
        waiting = null;
        done.resolve();
      }
    };
    sockets.push(await openEditorSocket(base, cookieA, topic, () => {}));
    sockets.push(await openEditorSocket(base, cookieB, topic, onSnapshotB));

    const samples: number[] = [];
    for (let i = 0; i < WARM_UP + EDITS; i++) {
      const id = `shop-${i % LOCATIONS}`;
      const title = `Shop ${i % LOCATIONS} (edit ${i})`;
      const edit: MapEdit = { type: 'LocationUpdated', id, changes: { title } };
      const arrived = new Promise<void>((resolve) => (waiting = { id, title, resolve }));
      const started = performance.now();
      const answered = callFn('editMap', { id: mapId, edits: [edit] });
      // A refused edit never arrives: its error ends the run, as does a push that never comes.
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`edit ${i} never reached editor B`)), 10_000)));
      await Promise.race([arrived, answered.then(() => arrived), timedOut]).finally(() => clearTimeout(timer));
      const elapsed = performance.now() - started;
      // Editor A's answer too, before the next edit: one edit at a time.
      await answered;
      if (i >= WARM_UP) samples.push(elapsed);
    }
    samples.sort((a, b) => a - b);
    print(`edit-to-other-editor: median ${percentile(samples, 50).toFixed(1)} ms, p99 ${percentile(samples, 99).toFixed(1)} ms (${EDITS} edits, ${LOCATIONS}-location map)`);
  } finally {
    for (const socket of sockets) socket.close();
    await server.close();
  }
}
