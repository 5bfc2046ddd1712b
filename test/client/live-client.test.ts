/**
 * The live client against the real server: snapshots on subscribe and after a write, read-your-
 * writes through `reached`, reconnecting and resubscribing after the server drops the socket,
 * stale snapshots ignored, 4401 stops reconnecting (a logout closes with it at once), pings.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Position } from '../../events/position';
import type { MapListItem } from '../../events/read-models';
import { topics } from '../../events/topics';
import { createApiClient } from '../../client/src/lib/api';
import {
  createLiveClient,
  liveUrlFor,
  reconnectDelay,
  type ConnectionState,
  type LiveClient,
  type LiveClientOptions,
  type LiveSocket,
} from '../../client/src/lib/live-client';
import { CLOSE_OUTDATED_CLIENT, OUTDATED_CLIENT_REASON } from '../../events/live-messages';
import { Location } from '../../events/map-document';
import type { LiveMap } from '../../events/map-live';
import type { DocumentEdit } from '../../events/map-edits';
import { registerUser, startAppServer, type AppServer } from './support/app-server';

let server: AppServer;
const clients: LiveClient[] = [];

beforeAll(async () => {
  server = await startAppServer();
}, 60_000);

afterEach(() => {
  for (const client of clients.splice(0)) client.disconnect();
});

afterAll(async () => {
  await server.close();
});

interface Harness {
  live: LiveClient;
  sockets: WebSocket[];
  sent: string[];
  states: ConnectionState[];
}

/** A live client whose sockets carry `cookie`, recording its sockets, sent messages and states. */
function liveFor(cookie: string | null, options: Partial<LiveClientOptions> = {}): Harness {
  const sockets: WebSocket[] = [];
  const sent: string[] = [];
  const states: ConnectionState[] = [];
  const live = createLiveClient({
    url: server.wsUrl,
    minDelayMs: 20,
    maxDelayMs: 200,
    createSocket: (url) => {
      const socket = new WebSocket(url, { headers: cookie ? { cookie } : {} });
      const send = socket.send.bind(socket);
      socket.send = ((data: string) => {
        sent.push(data);
        send(data);
      }) as typeof socket.send;
      sockets.push(socket);
      return socket as unknown as LiveSocket;
    },
    ...options,
  });
  live.onStateChange((state) => states.push(state));
  clients.push(live);
  return { live, sockets, sent, states };
}

/** Records every snapshot of a topic. */
function follow(live: LiveClient, topic: string) {
  const snapshots: { data: MapListItem[]; position: Position }[] = [];
  const errors: { code: string; message: string }[] = [];
  const stop = live.subscribe(
    topic,
    (data, position) => snapshots.push({ data: data.kind === 'maps' ? data.maps : [], position }),
    (error) => errors.push(error),
  );
  return { snapshots, errors, stop };
}

async function until(predicate: () => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function apiFor(cookie: string) {
  return createApiClient({ baseUrl: server.url, headers: { cookie } });
}

describe('live client', () => {
  it('opens, then receives a snapshot of a topic after subscribing', async () => {
    const user = await registerUser(server);
    const { live, states } = liveFor(user.cookie);
    const maps = follow(live, topics.maps(user.uid));

    live.connect();

    await until(() => maps.snapshots.length > 0);
    expect(states).toEqual(['connecting', 'open']);
    expect(live.state).toBe('open');
    expect(maps.snapshots[0]!.data).toEqual([]);
    expect(live.positionOf(topics.maps(user.uid))).toEqual(maps.snapshots[0]!.position);
  });

  it('receives a new snapshot after createMap over another connection, and reached() resolves at its position', async () => {
    const user = await registerUser(server);
    const topic = topics.maps(user.uid);
    const first = liveFor(user.cookie);
    const second = liveFor(user.cookie);
    const a = follow(first.live, topic);
    const b = follow(second.live, topic);
    first.live.connect();
    second.live.connect();
    await until(() => a.snapshots.length > 0 && b.snapshots.length > 0);

    const { result: id, position } = await apiFor(user.cookie).callFunction('createMap', { title: 'Riverside Mall' });
    expect(position).not.toBeNull();
    await first.live.reached(topic, position!);

    const latest = a.snapshots.at(-1)!;
    expect(latest.data.map((map) => [map.id, map.title])).toEqual([[id, 'Riverside Mall']]);
    await until(() => b.snapshots.some((snapshot) => snapshot.data.length === 1));
  });

  it('reached() accepts the wire form and resolves at once for a position already applied', async () => {
    const user = await registerUser(server);
    const topic = topics.maps(user.uid);
    const { live } = liveFor(user.cookie);
    follow(live, topic);
    live.connect();
    const { position } = await apiFor(user.cookie).callFunction('createMap', { title: 'One' });
    await live.reached(topic, position!);

    await expect(live.reached(topic, '0:0')).resolves.toBeUndefined();
  });

  it('reconnects after the server drops the socket, resubscribes, and gets later changes', async () => {
    const user = await registerUser(server);
    const topic = topics.maps(user.uid);
    const { live, sockets, sent, states } = liveFor(user.cookie);
    const maps = follow(live, topic);
    live.connect();
    await until(() => maps.snapshots.length === 1);

    // The server side drops every connection, as a restart or a proxy timeout would.
    for (const socket of server.app.websocketServer.clients) socket.terminate();

    await until(() => sockets.length === 2 && live.state === 'open');
    await until(() => maps.snapshots.length === 2);
    expect(states).toEqual(['connecting', 'open', 'connecting', 'open']);
    const subscribes = sent.map((text) => JSON.parse(text) as { type: string; topic?: string }).filter((m) => m.type === 'subscribe');
    expect(subscribes).toEqual([
      { v: 2, type: 'subscribe', topic },
      { v: 2, type: 'subscribe', topic },
    ]);

    const { position } = await apiFor(user.cookie).callFunction('createMap', { title: 'After the drop' });
    await live.reached(topic, position!);
    expect(maps.snapshots.at(-1)!.data.map((map) => map.title)).toEqual(['After the drop']);
  });

  it('keeps trying while the server is unreachable, backing off', async () => {
    const { live, sockets, states } = liveFor('irrelevant=1', { url: 'ws://127.0.0.1:9/api/live', minDelayMs: 10, maxDelayMs: 40 });
    live.connect();
    await until(() => sockets.length >= 4);
    expect(live.state).toBe('connecting');
    expect(states).toEqual(['connecting']);
  });

  it('tries again at once when the browser comes back online', async () => {
    const { live, sockets } = liveFor('irrelevant=1', { url: 'ws://127.0.0.1:9/api/live', minDelayMs: 60_000, maxDelayMs: 60_000 });
    live.connect();
    await until(() => sockets[0]?.readyState === WebSocket.CLOSED);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sockets).toHaveLength(1);

    window.dispatchEvent(new Event('online'));

    expect(sockets).toHaveLength(2);
  });

  it('ignores a snapshot older than the last one applied for the topic', async () => {
    const user = await registerUser(server);
    const topic = topics.maps(user.uid);
    const { live, sockets } = liveFor(user.cookie);
    const maps = follow(live, topic);
    live.connect();
    const { position } = await apiFor(user.cookie).callFunction('createMap', { title: 'Fresh' });
    await live.reached(topic, position!);
    const applied = maps.snapshots.length;
    const current = live.positionOf(topic)!;

    // A delayed answer from before the write arrives late on the socket.
    const deliver = (message: unknown) =>
      (sockets.at(-1) as unknown as LiveSocket).onmessage!({ data: JSON.stringify(message) });
    const older = `${current.commit}:${current.prepare - 1n}`;
    deliver({ v: 2, type: 'snapshot', topic, position: older, data: { kind: 'maps', maps: [] } });
    deliver({ v: 2, type: 'snapshot', topic, position: '-1:-1', data: { kind: 'maps', maps: [] } });

    expect(maps.snapshots).toHaveLength(applied);
    expect(live.positionOf(topic)).toEqual(current);
    expect(maps.snapshots.at(-1)!.data.map((map) => map.title)).toEqual(['Fresh']);

    // Messages that are not the protocol's are dropped too.
    deliver({ v: 1, type: 'snapshot', topic, position: '999999:0', data: [] });
    deliver({ v: 2, type: 'snapshot', topic, position: '999999:0', data: [] });
    deliver({ hello: 'world' });
    expect(maps.snapshots).toHaveLength(applied);
  });

  it('reports a topic the server refuses to the subscriber', async () => {
    const user = await registerUser(server);
    const other = await registerUser(server);
    const { live } = liveFor(user.cookie);
    const theirs = follow(live, topics.maps(other.uid));
    live.connect();

    await until(() => theirs.errors.length > 0);
    expect(theirs.errors[0]!.code).toBe('permission-denied');
    expect(theirs.snapshots).toEqual([]);
  });

  it('stops reconnecting when the server closes with 4401 (signed out), until told to connect', async () => {
    let refused = 0;
    const { live, sockets } = liveFor(null, { onUnauthenticated: () => refused++ });
    live.connect();

    await until(() => refused === 1);
    expect(live.state).toBe('closed');
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(sockets).toHaveLength(1);

    live.connect();
    await until(() => refused === 2);
    expect(sockets).toHaveLength(2);
  });

  it('a logout elsewhere closes the socket at once as signed out, and the client does not reconnect', async () => {
    const user = await registerUser(server);
    let refused = 0;
    const { live, sockets } = liveFor(user.cookie, { onUnauthenticated: () => refused++ });
    live.connect();
    await until(() => live.state === 'open');

    const logout = await fetch(`${server.url}/api/auth/logout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: user.cookie },
      body: JSON.stringify({ data: {} }),
    });
    expect(logout.status).toBe(200);

    // The server's periodic re-check is 30 s away: the close comes from the logout itself.
    await until(() => refused === 1);
    expect(live.state).toBe('closed');
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(sockets).toHaveLength(1);
  });

  it('sends pings while open, and the server answers', async () => {
    const user = await registerUser(server);
    const { live, sent, sockets } = liveFor(user.cookie, { pingIntervalMs: 30 });
    const pongs: string[] = [];
    live.connect();
    await until(() => sockets.length === 1);
    sockets[0]!.on('message', (raw) => {
      if (JSON.parse(String(raw)).type === 'pong') pongs.push(String(raw));
    });

    await until(() => pongs.length >= 2);
    expect(sent.filter((text) => JSON.parse(text).type === 'ping').length).toBeGreaterThanOrEqual(2);
    expect(live.state).toBe('open');
  });

  it('unsubscribes from the server when the last listener leaves', async () => {
    const user = await registerUser(server);
    const topic = topics.maps(user.uid);
    const { live, sent } = liveFor(user.cookie);
    const one = follow(live, topic);
    const two = follow(live, topic);
    live.connect();
    await until(() => one.snapshots.length > 0 && two.snapshots.length > 0);

    one.stop();
    expect(sent.some((text) => JSON.parse(text).type === 'unsubscribe')).toBe(false);
    const waiting = live.reached(topic, '999999999:0');
    two.stop();
    expect(JSON.parse(sent.at(-1)!)).toEqual({ v: 2, type: 'unsubscribe', topic });
    await expect(waiting).rejects.toThrow(/Stopped following/);
  });

  it('disconnect() closes the socket and does not reconnect', async () => {
    const user = await registerUser(server);
    const { live, sockets } = liveFor(user.cookie);
    live.connect();
    await until(() => live.state === 'open');

    live.disconnect();

    expect(live.state).toBe('closed');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sockets).toHaveLength(1);
  });
});

/** Records every update of a map topic: the map, the events it added, and whether it was a snapshot. */
function followMap(live: LiveClient, topic: string) {
  const updates: { map: LiveMap; revisions: string[]; snapshot: boolean }[] = [];
  const stop = live.subscribe(topic, (data) => {
    if (data.kind === 'map') updates.push({ map: data.map, revisions: data.events.map((e) => e.revision), snapshot: data.snapshot });
  });
  return { updates, stop, last: () => updates.at(-1)?.map };
}

const shop = (id: string, title: string) => Location.parse({ id, title, layer: 'ground', position: { x: 10, y: 20 } });

describe('live client on a map topic (protocol version 2)', () => {
  async function newMap(cookie: string) {
    const made = await apiFor(cookie).callFunction('createMap', { title: 'Harbour' });
    await server.runner.waitFor(made.position!);
    return { id: made.result as string, topic: topics.map(made.result as string) };
  }
  const edit = (cookie: string, id: string, edits: DocumentEdit[]) => apiFor(cookie).callFunction('editMap', { id, edits });

  it('gets one snapshot, then folds the edits pushed as events into the map', async () => {
    const user = await registerUser(server);
    const { id, topic } = await newMap(user.cookie);
    const { live } = liveFor(user.cookie);
    const map = followMap(live, topic);
    live.connect();
    await until(() => map.updates.length === 1);
    expect(map.updates[0]).toMatchObject({ snapshot: true, revisions: [] });
    expect(map.last()!.revision).toBe(0n);

    await edit(user.cookie, id, [{ type: 'LocationAdded', location: shop('cafe', 'Cafe') }]);
    await edit(user.cookie, id, [{ type: 'LocationUpdated', id: 'cafe', changes: { title: 'Café Nord' } }]);
    await until(() => map.last()!.document.locations[0]?.title === 'Café Nord');
    // Never a second snapshot: every later update is events, in stream order.
    expect(map.updates.slice(1).every((update) => !update.snapshot)).toBe(true);
    // The first edit of a stretch comes after the product's own history entry (VersionSaved):
    // the history follows from the events too.
    expect(map.updates.slice(1).flatMap((update) => update.revisions)).toEqual(['1', '2', '3']);
    expect(map.last()!.revision).toBe(3n);
    expect(map.last()!.history).toMatchObject([{ mapId: id, revision: '0', auto: true, author: user.uid }]);
  });

  it('after a reconnect, asks since its revision and gets the missed events, not a snapshot', async () => {
    const user = await registerUser(server);
    const { id, topic } = await newMap(user.cookie);
    const { live, sent, sockets } = liveFor(user.cookie, { minDelayMs: 300, maxDelayMs: 300 });
    const map = followMap(live, topic);
    live.connect();
    await until(() => map.updates.length === 1);
    await edit(user.cookie, id, [{ type: 'LocationAdded', location: shop('cafe', 'Cafe') }]);
    await until(() => map.last()!.document.locations.length === 1);
    const before = map.last()!.revision;

    for (const socket of server.app.websocketServer.clients) socket.terminate();
    // Made while the tab is away.
    await edit(user.cookie, id, [{ type: 'LocationUpdated', id: 'cafe', changes: { title: 'Missed' } }]);
    await until(() => sockets.length === 2 && live.state === 'open');
    await until(() => map.last()!.document.locations[0]?.title === 'Missed');

    const subscribes = sent.map((text) => JSON.parse(text) as { type: string; since?: string }).filter((m) => m.type === 'subscribe');
    expect(subscribes.map((m) => m.since)).toEqual([undefined, String(before)]);
    expect(map.updates.filter((update) => update.snapshot)).toHaveLength(1);
    expect(map.updates.at(-1)!.revisions).toEqual([String(before + 1n)]);
  });

  it('on a gap (an event that is not the next revision) asks since the last revision it has', async () => {
    const user = await registerUser(server);
    const { id, topic } = await newMap(user.cookie);
    const { live, sent, sockets } = liveFor(user.cookie);
    const map = followMap(live, topic);
    live.connect();
    await until(() => map.updates.length === 1);

    // A push from further ahead than the next revision (a lost message before it).
    const far = { revision: '5', position: '999999:0', at: '2026-11-24T10:00:00.000Z', by: null, event: null };
    (sockets.at(-1) as unknown as LiveSocket).onmessage!({ data: JSON.stringify({ v: 2, type: 'events', topic, events: [far] }) });
    expect(map.updates).toHaveLength(1);
    expect(JSON.parse(sent.at(-1)!)).toEqual({ v: 2, type: 'subscribe', topic, since: '0' });

    await edit(user.cookie, id, [{ type: 'LocationAdded', location: shop('cafe', 'Cafe') }]);
    await until(() => map.last()!.document.locations.length === 1);
    expect(map.last()!.revision).toBe(2n);
  });

  it('a late listener of a map gets the map as it is now, as a snapshot', async () => {
    const user = await registerUser(server);
    const { id, topic } = await newMap(user.cookie);
    const { live } = liveFor(user.cookie);
    const first = followMap(live, topic);
    live.connect();
    await edit(user.cookie, id, [{ type: 'LocationAdded', location: shop('cafe', 'Cafe') }]);
    await until(() => first.last()?.document.locations.length === 1);
    const second = followMap(live, topic);
    expect(second.updates).toEqual([{ map: first.last(), revisions: [], snapshot: true }]);
  });

  it('a server of another protocol version closes with 4426: the client says so and stops', async () => {
    const reasons: string[] = [];
    const user = await registerUser(server);
    // A page of another version: it names no version (as version 1 did).
    const { live, sockets } = liveFor(user.cookie, {
      onOutdated: (reason) => reasons.push(reason),
      createSocket: () => {
        const socket = new WebSocket(server.wsUrl, { headers: { cookie: user.cookie } });
        sockets.push(socket);
        return socket as unknown as LiveSocket;
      },
    });
    live.connect();
    await until(() => live.state === 'outdated');
    expect(reasons).toEqual([OUTDATED_CLIENT_REASON]);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(sockets).toHaveLength(1);
    expect(CLOSE_OUTDATED_CLIENT).toBe(4426);
  });
});

describe('reconnectDelay', () => {
  const options = (random: number) => ({ minDelayMs: 500, maxDelayMs: 15_000, random: () => random });

  it('doubles from 0.5 s up to 15 s, with jitter in the upper half of each step', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 10].map((attempt) => reconnectDelay(attempt, options(1)))).toEqual([
      500, 1000, 2000, 4000, 8000, 15_000, 15_000, 15_000,
    ]);
    expect([0, 1, 5].map((attempt) => reconnectDelay(attempt, options(0)))).toEqual([250, 500, 7500]);
  });
});

describe('liveUrlFor', () => {
  it('uses ws: for http pages and wss: for https pages, on the same host', () => {
    expect(liveUrlFor({ protocol: 'http:', host: 'localhost:3000' })).toBe('ws://localhost:3000/api/live');
    expect(liveUrlFor({ protocol: 'https:', host: 'maps.example.com' })).toBe('wss://maps.example.com/api/live');
  });
});
