/**
 * Presence over `/api/live` against a real server: who may be present in a map, the peers a
 * tab is given on joining and their changes after, the throttle a flooding tab meets, leaving
 * on close, on silence and on request, and, on PostgreSQL, presence across two server
 * processes (relayed through NOTIFY), including the peers of a process that died.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { LIVE_PROTOCOL_VERSION, type ServerMessage } from '../../events/live-messages.js';
import { NO_PRESENCE, type PresenceState } from '../../events/presence.js';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { openPostgresDatabase } from '../../server/db/postgres-database.js';
import { PRESENCE_CHANNEL } from '../../server/live/presence.js';
import { openServices } from '../../server/services.js';
import { databaseTargets } from '../support/databases.js';
import { share } from '../support/sharing.js';
import { call, openLive, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

type Presence = Extract<ServerMessage, { type: 'presence' }>;
type Live = Awaited<ReturnType<typeof openLive>>;

/** Short enough for tests; the product's are 50 ms, 2 s and 6.5 s (events/presence.ts). */
const timings = { minIntervalMs: 50, keepaliveMs: 200, expiryMs: 900, recheckMs: 60_000 };

const at = (x: number, y = 10): PresenceState => ({ cursor: { layer: 'ground', x, y }, selection: null, editing: null });

/** The first message from index `from` on that matches, waiting for it. */
async function nextFrom(live: Live, from: number, predicate: (message: ServerMessage) => boolean, timeoutMs = 10_000): Promise<ServerMessage> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = live.messages.slice(from).find(predicate);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`No matching live message; got ${JSON.stringify(live.messages.slice(from))}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const presenceOf = (mapId: string, predicate: (message: Presence) => boolean = () => true) => (message: ServerMessage) =>
  message.type === 'presence' && message.mapId === mapId && predicate(message);

/** Joins and answers the full list it was given. */
async function join(live: Live, mapId: string, state: PresenceState = NO_PRESENCE): Promise<Presence> {
  const from = live.messages.length;
  live.send({ v: LIVE_PROTOCOL_VERSION, type: 'presence', mapId, state });
  return (await nextFrom(live, from, presenceOf(mapId, (m) => m.full))) as Presence;
}

/** Says "still here" every few moments, as the editor does, until stopped. */
function keepAlive(live: Live, mapId: string, state: () => PresenceState): () => void {
  const timer = setInterval(() => live.send({ v: LIVE_PROTOCOL_VERSION, type: 'presence', mapId, state: state() }), timings.keepaliveMs);
  return () => clearInterval(timer);
}

describe.each(databaseTargets)('presence on $name', (target) => {
  let server: TestServer;
  let ana: TestUser;
  let stranger: TestUser;
  let admin: TestUser;
  let mapId: string;

  beforeAll(async () => {
    server = await startTestServer(target, { presenceTimings: timings });
    [ana, stranger, admin] = [await registerUser(server), await registerUser(server), await registerUser(server, 'admin@example.com')];
    const made = await call(server, 'createMap', { title: 'Together' }, ana);
    await projected(server, made.body.position);
    mapId = made.body.result;
  });
  afterAll(() => server.close());

  it('gives a joining tab the others, and the others the newcomer, its moves and its leaving', async () => {
    const tab1 = await openLive(server, ana);
    const root = await openLive(server, admin);
    const first = await join(tab1, mapId, at(1));
    const stops = [keepAlive(tab1, mapId, () => at(42, 7))];
    expect(first).toMatchObject({ full: true, self: { uid: ana.uid, name: 'Test User' }, peers: [], left: [] });

    const mark = tab1.messages.length;
    const second = await join(root, mapId, { cursor: { layer: 'ground', x: 5, y: 6 }, selection: 'loc-1', editing: 'loc-1' });
    stops.push(keepAlive(root, mapId, () => ({ cursor: { layer: 'ground', x: 5, y: 6 }, selection: 'loc-1', editing: 'loc-1' })));
    // The newcomer sees who was there, state and all; the one there sees the newcomer come.
    expect(second.peers).toEqual([{ id: first.self!.id, uid: ana.uid, name: 'Test User', state: at(1) }]);
    const came = (await nextFrom(tab1, mark, presenceOf(mapId, (m) => m.peers.some((p) => p.uid === admin.uid)))) as Presence;
    expect(came.full).toBe(false);
    expect(came.peers[0]).toMatchObject({ id: second.self!.id, state: { selection: 'loc-1', editing: 'loc-1', cursor: { x: 5, y: 6 } } });

    // A move reaches the other, never the mover itself.
    const beforeMove = root.messages.length;
    tab1.send({ v: LIVE_PROTOCOL_VERSION, type: 'presence', mapId, state: at(42, 7) });
    const moved = (await nextFrom(root, beforeMove, presenceOf(mapId, (m) => m.peers.some((p) => p.state.cursor?.x === 42)))) as Presence;
    expect(moved.peers).toEqual([{ id: first.self!.id, uid: ana.uid, name: 'Test User', state: at(42, 7) }]);
    expect(tab1.messages.some((m) => m.type === 'presence' && m.peers.some((p) => p.state.cursor?.x === 42))).toBe(false);

    // The same person in a second tab is a peer of their own, with their uid.
    const tab2 = await openLive(server, ana);
    const own = await join(tab2, mapId);
    stops.push(keepAlive(tab2, mapId, () => NO_PRESENCE));
    expect(own.self!.uid).toBe(ana.uid);
    expect(own.self!.id).not.toBe(first.self!.id);
    expect(own.peers.map((p) => p.id).sort()).toEqual([first.self!.id, second.self!.id].sort());

    // Closing the socket: gone at once for the others.
    const beforeClose = tab1.messages.length;
    stops[1]!();
    root.close();
    await nextFrom(tab1, beforeClose, presenceOf(mapId, (m) => m.left.includes(second.self!.id)));
    // Leaving on request (the editor closed, the tab stays).
    stops[2]!();
    tab2.send({ v: LIVE_PROTOCOL_VERSION, type: 'presence', mapId, state: null });
    await nextFrom(tab1, beforeClose, presenceOf(mapId, (m) => m.left.includes(own.self!.id)));
    stops[0]!();
    tab1.close();
    tab2.close();
  });

  it('a tab that goes silent leaves within the expiry, while one that keeps alive stays', async () => {
    const tab = await openLive(server, ana);
    const root = await openLive(server, admin);
    const stay = await join(tab, mapId, at(3));
    const stop = keepAlive(tab, mapId, () => at(3));
    try {
      const mark = tab.messages.length;
      const silent = await join(root, mapId, at(9));
      // root says nothing more, as a tab whose network went does; its socket stays open.
      await nextFrom(tab, mark, presenceOf(mapId, (m) => m.left.includes(silent.self!.id)));
      expect(root.messages.some((m) => m.type === 'presence' && m.left.includes(stay.self!.id))).toBe(false);
    } finally {
      stop();
      tab.close();
      root.close();
    }
  });

  it('coalesces a flooding tab: the others get far fewer updates, and the last one', async () => {
    const watcher = await openLive(server, ana);
    const flooder = await openLive(server, admin);
    await join(watcher, mapId);
    const stop = keepAlive(watcher, mapId, () => NO_PRESENCE);
    const flooding = await join(flooder, mapId, at(0));
    const mark = watcher.messages.length;
    const began = Date.now();
    const sent = 400;
    for (let x = 1; x <= sent; x++) flooder.send({ v: LIVE_PROTOCOL_VERSION, type: 'presence', mapId, state: at(x) });
    const last = await nextFrom(watcher, mark, presenceOf(mapId, (m) => m.peers.some((p) => p.state.cursor?.x === sent)));
    const elapsed = Date.now() - began;
    const updates = watcher.messages.slice(mark, watcher.messages.indexOf(last) + 1).filter(presenceOf(mapId, (m) => m.peers.some((p) => p.id === flooding.self!.id)));
    // One update per slot of minIntervalMs at most, after a burst of 3 (server/live/presence.ts).
    expect(updates.length).toBeLessThanOrEqual(Math.ceil(elapsed / timings.minIntervalMs) + 3);
    expect(updates.length).toBeLessThan(sent);
    // In the order sent: coalescing drops states in between, never reorders them.
    const xs = updates.map((m) => (m as Presence).peers[0]!.state.cursor!.x);
    expect([...xs].sort((a, b) => a - b)).toEqual(xs);
    stop();
    watcher.close();
    flooder.close();
  });

  it("refuses a stranger, who then sees nobody and is seen by nobody", async () => {
    const tab = await openLive(server, ana);
    await join(tab, mapId);
    const stop = keepAlive(tab, mapId, () => NO_PRESENCE);
    const mark = tab.messages.length;
    const intruder = await openLive(server, stranger);
    await intruder.next((m) => m.type === 'welcome');
    intruder.send({ v: LIVE_PROTOCOL_VERSION, type: 'presence', mapId, state: at(1) });
    expect(await intruder.next((m) => m.type === 'error')).toMatchObject({ code: 'permission-denied' });
    intruder.send({ v: LIVE_PROTOCOL_VERSION, type: 'presence', mapId: 'no-such-map', state: at(1) });
    await nextFrom(intruder, 2, (m) => m.type === 'error');
    expect(intruder.messages.some((m) => m.type === 'presence')).toBe(false);
    // Anonymous: not even signed in.
    const anonymous = await openLive(server);
    anonymous.send({ v: LIVE_PROTOCOL_VERSION, type: 'presence', mapId, state: at(1) });
    expect((await anonymous.closed).code).toBe(4401);

    // Malformed states are refused before anything else looks at them.
    intruder.send({ v: LIVE_PROTOCOL_VERSION, type: 'presence', mapId, state: { cursor: { layer: 'ground', x: 1e308 * 10, y: 0 }, selection: null, editing: null } });
    intruder.send({ v: LIVE_PROTOCOL_VERSION, type: 'presence', mapId, state: { cursor: null, selection: '<script>', editing: null } });
    await nextFrom(intruder, 3, (m) => m.type === 'error' && m.code === 'invalid-argument');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(tab.messages.slice(mark).some((m) => m.type === 'presence')).toBe(false);
    stop();
    tab.close();
    intruder.close();
  });

  it("the map's members are present together, viewers too; a removed member leaves at once", async () => {
    const emails = { editor: `eve-${Date.now()}@example.com`, viewer: `vic-${Date.now()}@example.com` };
    const eve = { ...(await registerUser(server, emails.editor)), email: emails.editor };
    const vic = { ...(await registerUser(server, emails.viewer)), email: emails.viewer };
    await share(server, ana, mapId, eve, 'editor');
    await share(server, ana, mapId, vic, 'viewer');
    const [owner, editor, viewer] = [await openLive(server, ana), await openLive(server, eve), await openLive(server, vic)];
    const stops: Array<() => void> = [];
    try {
      const seen = [] as Presence[];
      for (const tab of [owner, editor, viewer]) {
        seen.push(await join(tab, mapId, at(seen.length)));
        stops.push(keepAlive(tab, mapId, () => NO_PRESENCE));
      }
      // The last to come is given the two already there.
      expect(seen[2]!.peers.map((peer) => peer.uid).sort()).toEqual([ana.uid, eve.uid].sort());
      const mark = owner.messages.length;
      const removed = await call(server, 'removeMapMember', { mapId, uid: vic.uid }, ana);
      expect(removed.status).toBe(200);
      // At once (the hub re-checks a map's people when its members change), not on the 15 s timer.
      await viewer.next((m) => m.type === 'error' && m.code === 'permission-denied');
      await nextFrom(owner, mark, presenceOf(mapId, (m) => m.left.includes(seen[2]!.self!.id)));
      await nextFrom(editor, 0, presenceOf(mapId, (m) => m.left.includes(seen[2]!.self!.id)));
      // And may not come back: told once, then not asked again for a while (no query per keepalive).
      const before = viewer.messages.length;
      const ownerBefore = owner.messages.length;
      viewer.send({ v: LIVE_PROTOCOL_VERSION, type: 'presence', mapId, state: at(5) });
      viewer.send({ v: LIVE_PROTOCOL_VERSION, type: 'ping' });
      await nextFrom(viewer, before, (m) => m.type === 'pong');
      expect(viewer.messages.slice(before).filter((m) => m.type === 'presence' || m.type === 'error')).toEqual([]);
      expect(owner.messages.slice(ownerBefore).some((m) => m.type === 'presence' && m.peers.some((peer) => peer.uid === vic.uid))).toBe(false);
    } finally {
      for (const stop of stops) stop();
      for (const tab of [owner, editor, viewer]) tab.close();
    }
  });

  it('a tab whose access ended leaves, and is told', async () => {
    const made = await call(server, 'createMap', { title: 'Short-lived' }, ana);
    await projected(server, made.body.position);
    const doomed = made.body.result as string;
    const owner = await openLive(server, ana);
    const root = await openLive(server, admin);
    const mine = await join(owner, doomed);
    await join(root, doomed);
    const mark = root.messages.length;
    // Still allowed: nothing happens.
    await server.app.liveHub.presence.recheckMaps([doomed]);
    expect(owner.messages.some((m) => m.type === 'error')).toBe(false);

    const deleted = await call(server, 'deleteMap', { id: doomed }, ana);
    await projected(server, deleted.body.position);
    await server.app.liveHub.presence.recheckAccess({ uid: ana.uid });
    expect(await owner.next((m) => m.type === 'error')).toMatchObject({ code: 'permission-denied' });
    // The admin is told the owner left, unless the deletion's own re-check (the members read
    // model's notice) dropped the admin's tab from the gone map first: then it is refused too.
    const told = await nextFrom(root, mark, (m) => presenceOf(doomed, (p) => p.left.includes(mine.self!.id))(m) || (m.type === 'error' && m.code === 'permission-denied'));
    if (told.type === 'error') expect(root.messages.slice(mark).some(presenceOf(doomed, (p) => p.peers.some((peer) => peer.id === mine.self!.id)))).toBe(false);
    owner.close();
    root.close();
  });

  if (target.name === 'postgres') {
    it('relays presence between two server processes on one PostgreSQL, and drops the peers of one that died', async () => {
      const db = await openPostgresDatabase(server.database.url!);
      const services = await openServices(loadConfig({ ADMIN_EMAILS: 'admin@example.com' }), { db, logger: { info: () => {}, error: () => {} } });
      const other = await buildApp(services, false, { presenceTimings: timings });
      await other.listen({ port: 0, host: '127.0.0.1' });
      const address = other.server.address();
      const otherServer = { ...server, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
      const raw = new pg.Client({ connectionString: server.database.url! });
      await raw.connect();
      const here = await openLive(server, ana);
      const there = await openLive(otherServer, admin);
      const stops: Array<() => void> = [];
      try {
        const mine = await join(here, mapId, at(1));
        stops.push(keepAlive(here, mapId, () => at(1)));
        const mark = here.messages.length;
        const theirs = await join(there, mapId, at(2));
        stops.push(keepAlive(there, mapId, () => at(2)));
        // The one there learns of the peer here (its process asks the others when its first tab joins).
        await nextFrom(there, 0, presenceOf(mapId, (m) => m.peers.some((p) => p.id === mine.self!.id)));
        await nextFrom(here, mark, presenceOf(mapId, (m) => m.peers.some((p) => p.id === theirs.self!.id)));

        // Moves cross over, in order.
        const beforeMove = here.messages.length;
        stops.pop()!();
        for (let x = 10; x <= 13; x++) {
          there.send({ v: LIVE_PROTOCOL_VERSION, type: 'presence', mapId, state: at(x) });
          await new Promise((resolve) => setTimeout(resolve, timings.minIntervalMs + 10));
        }
        await nextFrom(here, beforeMove, presenceOf(mapId, (m) => m.peers.some((p) => p.state.cursor?.x === 13)));
        const xs = here.messages
          .slice(beforeMove)
          .flatMap((m) => (m.type === 'presence' ? m.peers.filter((p) => p.id === theirs.self!.id).map((p) => p.state.cursor!.x) : []));
        expect(xs).toEqual([...xs].sort((a, b) => a - b));

        // Closing the socket over there: gone here too.
        there.close();
        await nextFrom(here, beforeMove, presenceOf(mapId, (m) => m.left.includes(theirs.self!.id)));

        // A process that announced a peer and then died (no goodbye, no keepalive): its peer
        // expires here all the same.
        const beforeGhost = here.messages.length;
        const ghost = { id: 'ghost-peer', uid: admin.uid, name: 'Ghost', state: at(77) };
        await raw.query('SELECT pg_notify($1, $2)', [PRESENCE_CHANNEL, JSON.stringify({ kind: 'peers', from: 'dead-process', mapId, peers: [ghost], left: [] })]);
        await nextFrom(here, beforeGhost, presenceOf(mapId, (m) => m.peers.some((p) => p.id === 'ghost-peer')));
        await nextFrom(here, beforeGhost, presenceOf(mapId, (m) => m.left.includes('ghost-peer')));
        // A relay that is not one (another version, garbage) is ignored.
        await raw.query('SELECT pg_notify($1, $2)', [PRESENCE_CHANNEL, '{"kind":"peers","from":"x"}']);
        await raw.query('SELECT pg_notify($1, $2)', [PRESENCE_CHANNEL, 'not json']);
        expect(here.messages.some((m) => m.type === 'presence' && m.left.includes(mine.self!.id))).toBe(false);
      } finally {
        for (const stop of stops) stop();
        here.close();
        there.close();
        await raw.end();
        await other.close();
        await services.close();
      }
    });
  }
});
