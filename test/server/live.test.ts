/**
 * The live websocket `/api/live?v=2` against a real server: authentication, who may subscribe to
 * what, snapshots on subscribe and after every change, and pushes across server processes
 * that share one PostgreSQL database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CLOSE_FORBIDDEN_ORIGIN, CLOSE_UNAUTHENTICATED, type ServerMessage } from '../../events/live-messages.js';
import { comparePositions, parsePosition } from '../../events/position.js';
import { topics } from '../../events/topics.js';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { openPostgresDatabase } from '../../server/db/postgres-database.js';
import { openServices } from '../../server/services.js';
import { databaseTargets } from '../support/databases.js';
import { call, openLive, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

type Snapshot = Extract<ServerMessage, { type: 'snapshot' }>;
type Events = Extract<ServerMessage, { type: 'events' }>;
const mapsOf = (s: Snapshot) => (s.data.kind === 'maps' ? s.data.maps : []);
/** A `map:{id}` push holding an event that matches. */
const isEvents = (topic: string, predicate: (e: Events['events'][number]) => boolean = () => true) => (m: ServerMessage) =>
  m.type === 'events' && m.topic === topic && m.events.some(predicate);
const isSnapshot = (topic: string, predicate: (s: Snapshot) => boolean = () => true) => (m: ServerMessage) =>
  m.type === 'snapshot' && m.topic === topic && predicate(m);
const isError = (topic: string) => (m: ServerMessage) => m.type === 'error' && m.topic === topic;

describe.each(databaseTargets)('live push on $name', (target) => {
  let server: TestServer;
  let ana: TestUser;
  let ben: TestUser;
  let admin: TestUser;

  beforeAll(async () => {
    server = await startTestServer(target);
    [ana, ben, admin] = [await registerUser(server), await registerUser(server), await registerUser(server, 'admin@example.com')];
  });
  afterAll(() => server.close());

  it('closes a socket without a session with 4401', async () => {
    const live = await openLive(server);
    expect((await live.closed).code).toBe(CLOSE_UNAUTHENTICATED);
    const forged = await openLive(server, { uid: 'x', cookie: 'mapfold_session=forged' });
    expect((await forged.closed).code).toBe(CLOSE_UNAUTHENTICATED);
  });

  it("refuses a socket opened from another site's page, even with a valid session", async () => {
    const foreign = new WebSocket(`${server.url.replace('http', 'ws')}/api/live?v=2`, {
      headers: { cookie: ana.cookie, origin: 'https://evil.example' },
    });
    const code = await new Promise<number>((resolve) => foreign.on('close', (c) => resolve(c)));
    expect(code).toBe(CLOSE_FORBIDDEN_ORIGIN);
    const own = await openLive(server, ana);
    expect(await own.next((m) => m.type === 'welcome')).toMatchObject({ uid: ana.uid });
    own.close();
  });

  it('welcomes, answers ping, and refuses malformed messages', async () => {
    const live = await openLive(server, ana);
    expect(await live.next((m) => m.type === 'welcome')).toEqual({ v: 2, type: 'welcome', uid: ana.uid });
    live.send({ v: 2, type: 'ping' });
    await live.next((m) => m.type === 'pong');
    live.socket.send('not json');
    await live.next((m) => m.type === 'error' && m.message === 'Message is not valid JSON.');
    live.send({ v: 2, type: 'subscribe', topic: 42 });
    await live.next((m) => m.type === 'error' && m.code === 'invalid-argument' && m.message !== 'Message is not valid JSON.');
    live.close();
  });

  it('a second tab sees a map created in the first, with a position at or after the command', async () => {
    const tab1 = await openLive(server, ana);
    const tab2 = await openLive(server, ana);
    for (const tab of [tab1, tab2]) tab.send({ v: 2, type: 'subscribe', topic: topics.maps(ana.uid) });
    await tab2.next(isSnapshot(topics.maps(ana.uid)));
    const created = await call(server, 'createMap', { title: 'Live mall' }, ana);
    const pushed = (await tab2.next(
      isSnapshot(topics.maps(ana.uid), (s) => mapsOf(s).some((m) => m.id === created.body.result)),
    )) as Snapshot;
    expect(comparePositions(parsePosition(pushed.position), parsePosition(created.body.position))).toBeGreaterThanOrEqual(0);
    await tab1.next(isSnapshot(topics.maps(ana.uid), (s) => mapsOf(s).length === 1));

    // Unsubscribed tabs get no more pushes.
    tab1.send({ v: 2, type: 'unsubscribe', topic: topics.maps(ana.uid) });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const before = tab1.messages.length;
    const second = await call(server, 'createMap', { title: 'Second' }, ana);
    await tab2.next(isSnapshot(topics.maps(ana.uid), (s) => mapsOf(s).some((m) => m.id === second.body.result)));
    expect(tab1.messages.length).toBe(before);
    tab1.close();
    tab2.close();
  });

  it("only a topic's owner or an admin may subscribe", async () => {
    const made = await call(server, 'createMap', { title: 'Private' }, ben);
    await projected(server, made.body.position);
    const mapTopic = topics.map(made.body.result);

    const intruder = await openLive(server, ana);
    intruder.send({ v: 2, type: 'subscribe', topic: topics.maps(ben.uid) });
    intruder.send({ v: 2, type: 'subscribe', topic: mapTopic });
    intruder.send({ v: 2, type: 'subscribe', topic: topics.map('no-such-map') });
    intruder.send({ v: 2, type: 'subscribe', topic: 'secrets:all' });
    expect(await intruder.next(isError(topics.maps(ben.uid)))).toMatchObject({ code: 'permission-denied' });
    expect(await intruder.next(isError(mapTopic))).toMatchObject({ code: 'permission-denied' });
    expect(await intruder.next(isError(topics.map('no-such-map')))).toMatchObject({ code: 'not-found' });
    expect(await intruder.next(isError('secrets:all'))).toMatchObject({ code: 'invalid-argument' });
    expect(intruder.messages.some((m) => m.type === 'snapshot')).toBe(false);

    const owner = await openLive(server, ben);
    owner.send({ v: 2, type: 'subscribe', topic: mapTopic });
    expect(await owner.next(isSnapshot(mapTopic))).toMatchObject({ data: { kind: 'map', map: { id: made.body.result, title: 'Private', revision: '0' } } });

    const root = await openLive(server, admin);
    root.send({ v: 2, type: 'subscribe', topic: topics.maps(ben.uid) });
    root.send({ v: 2, type: 'subscribe', topic: mapTopic });
    await root.next(isSnapshot(topics.maps(ben.uid)));
    await root.next(isSnapshot(mapTopic));

    // A change to the map reaches its subscribers.
    await call(server, 'saveMap', { id: made.body.result, title: 'Private, renamed' }, ben);
    const renamed = (e: Events['events'][number]) => e.event?.type === 'MapSaved' && e.event.data.title === 'Private, renamed';
    await owner.next(isEvents(mapTopic, renamed));
    await root.next(isEvents(mapTopic, renamed));
    for (const socket of [intruder, owner, root]) socket.close();
  });

  if (target.name === 'postgres') {
    it('pushes reach clients of another server process sharing the database', async () => {
      // A second app on the same database, without its own projection runner.
      const db = await openPostgresDatabase(server.database.url!);
      const services = await openServices(loadConfig({}), { db });
      const other = await buildApp(services);
      await other.listen({ port: 0, host: '127.0.0.1' });
      const address = other.server.address();
      const otherServer = { ...server, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
      try {
        const live = await openLive(otherServer, ana);
        live.send({ v: 2, type: 'subscribe', topic: topics.maps(ana.uid) });
        await live.next(isSnapshot(topics.maps(ana.uid)));
        const deleted = await call(server, 'deleteMap', { id: (await fetch(`${server.url}/api/maps`, { headers: { cookie: ana.cookie } }).then((r) => r.json())).result[0].id }, ana);
        expect(deleted.status).toBe(200);
        const pushed = (await live.next(isSnapshot(topics.maps(ana.uid), (s) => comparePositions(parsePosition(s.position), parsePosition(deleted.body.position)) >= 0))) as Snapshot;
        expect(mapsOf(pushed).length).toBe(1);
        live.close();
      } finally {
        await other.close();
        await services.close();
      }
    });
  }
});
