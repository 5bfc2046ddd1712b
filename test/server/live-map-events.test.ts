/**
 * Live protocol version 2 on `map:{id}` over real websockets: a push is the recorded events with
 * their stream revisions (who and when), never the document; a subscriber with a revision gets
 * the events since it, one with none, an unknown one or one too far behind gets a snapshot; a
 * client of another version is closed with 4426; pushes cross server processes.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import WebSocket from 'ws';
import { CLOSE_OUTDATED_CLIENT, MAX_CATCH_UP_EVENTS, OUTDATED_CLIENT_REASON, type ServerMessage } from '../../events/live-messages.js';
import { emptyMapDocument, Location, type MapDocument } from '../../events/map-document.js';
import type { DocumentEdit } from '../../events/map-edits.js';
import { topics } from '../../events/topics.js';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { openPostgresDatabase } from '../../server/db/postgres-database.js';
import { openServices } from '../../server/services.js';
import { databaseTargets } from '../support/databases.js';
import { call, openLive, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

type Events = Extract<ServerMessage, { type: 'events' }>;
type Snapshot = Extract<ServerMessage, { type: 'snapshot' }>;

const shop = (i: number) =>
  Location.parse({ id: `shop-${i}`, title: `Shop ${i}`, layer: 'ground', position: { x: i % 100, y: Math.floor(i / 100) }, description: `<p>Shop ${i}.</p>` });

/** A small map to create with (the test server takes 64 KB bodies; bigger malls grow by edits). */
function mall(size: number): MapDocument {
  return { ...emptyMapDocument(), locations: Array.from({ length: size }, (_, i) => shop(i)) };
}

/** Every event revision a socket was pushed for a topic, in arrival order. */
function revisionsOf(messages: readonly ServerMessage[], topic: string): string[] {
  return messages.flatMap((m) => (m.type === 'events' && m.topic === topic ? m.events.map((e) => e.revision) : []));
}

const consecutive = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String(from + i));

describe.each(databaseTargets)('live map events (protocol 2) on $name', (target) => {
  let server: TestServer;
  /** A fresh account per test: each has two free test maps. */
  let ana: TestUser;

  beforeAll(async () => {
    server = await startTestServer(target);
  });
  beforeEach(async () => {
    ana = await registerUser(server);
  });
  afterAll(() => server.close());

  async function newMap(user: TestUser, mapData?: MapDocument) {
    const made = await call(server, 'createMap', { title: 'Harbour', ...(mapData ? { mapData } : {}) }, user);
    expect(made.status).toBe(200);
    await projected(server, made.body.position);
    return { id: made.body.result as string, topic: topics.map(made.body.result as string) };
  }
  async function edit(user: TestUser, id: string, edits: DocumentEdit[]) {
    const answer = await call(server, 'editMap', { id, edits }, user);
    expect(answer.status).toBe(200);
    return { ...(answer.body.result as { revision: string }), position: answer.body.position as string };
  }
  const rename = (id: string, title: string): DocumentEdit => ({ type: 'LocationUpdated', id, changes: { title } });

  it('closes a client of another protocol version with 4426 and a reason to reload', async () => {
    const url = `${server.url.replace('http', 'ws')}/api/live`;
    for (const address of [url, `${url}?v=1`]) {
      const old = new WebSocket(address, { headers: { cookie: ana.cookie } });
      const closed = await new Promise<{ code: number; reason: string }>((resolve) => old.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
      expect(closed).toEqual({ code: CLOSE_OUTDATED_CLIENT, reason: OUTDATED_CLIENT_REASON });
    }
    // A message of another version on an open socket (a page that got through the open).
    const live = await openLive(server, ana);
    await live.next((m) => m.type === 'welcome');
    live.send({ v: 1, type: 'subscribe', topic: topics.maps(ana.uid) });
    expect(await live.closed).toEqual({ code: CLOSE_OUTDATED_CLIENT, reason: OUTDATED_CLIENT_REASON });
  });

  it('pushes a one-field edit of a 1,000-location map as its event: revision, who, when; small, no document', async () => {
    const { id, topic } = await newMap(ana);
    for (let from = 0; from < 1_000; from += 100) {
      const added = await edit(ana, id, Array.from({ length: 100 }, (_, i) => ({ type: 'LocationAdded', location: shop(from + i) }) satisfies DocumentEdit));
      await projected(server, added.position);
    }
    const live = await openLive(server, ana);
    const raw: string[] = [];
    live.socket.on('message', (data) => raw.push(String(data)));
    live.send({ v: 2, type: 'subscribe', topic });
    const snapshot = (await live.next((m) => m.type === 'snapshot' && m.topic === topic)) as Snapshot;
    expect(snapshot.data).toMatchObject({ kind: 'map', map: { id, title: 'Harbour' } });
    const base = snapshot.data.kind === 'map' ? Number(snapshot.data.map.revision) : -1;
    expect(snapshot.data.kind === 'map' && snapshot.data.map.document.locations).toHaveLength(1_000);

    const saved = await edit(ana, id, [rename('shop-7', 'Café Nord')]);
    const pushed = (await live.next((m) => m.type === 'events' && m.events.some((e) => e.revision === saved.revision))) as Events;
    const entry = pushed.events.find((e) => e.revision === saved.revision)!;
    expect(entry).toMatchObject({ by: { uid: ana.uid, name: 'Test User' }, event: { type: 'LocationUpdated', data: { mapId: id, id: 'shop-7', changes: { title: 'Café Nord' } } } });
    expect(Date.parse(entry.at)).not.toBeNaN();
    const text = raw.find((message) => message.includes('Café Nord'))!;
    expect(text).not.toContain('"document"');
    expect(Buffer.byteLength(text)).toBeLessThan(2_048);
    // Every revision after the snapshot's once, in order.
    expect(revisionsOf(live.messages, topic)).toEqual(consecutive(base + 1, Number(saved.revision)));
    live.close();
  });

  it('answers a subscribe with `since` with the events after it, and no snapshot', async () => {
    const { id, topic } = await newMap(ana);
    await edit(ana, id, [{ type: 'LocationAdded', location: Location.parse({ id: 'cafe', title: 'Cafe', layer: 'ground', position: { x: 1, y: 1 } }) }]);
    await edit(ana, id, [rename('cafe', 'One')]);
    const last = await edit(ana, id, [rename('cafe', 'Two')]);

    const live = await openLive(server, ana);
    live.send({ v: 2, type: 'subscribe', topic, since: '2' });
    await live.next((m) => m.type === 'events' && m.events.some((e) => e.revision === last.revision));
    expect(revisionsOf(live.messages, topic)).toEqual(consecutive(3, Number(last.revision)));
    expect(live.messages.some((m) => m.type === 'snapshot')).toBe(false);

    // Asking again on the same socket (a gap seen by the client): only what is after `since`.
    live.send({ v: 2, type: 'subscribe', topic, since: String(Number(last.revision) - 1) });
    await live.next((m) => m.type === 'events' && m.events.length === 1 && m.events[0]!.revision === last.revision);
    // Up to date: nothing to send.
    const before = live.messages.length;
    live.send({ v: 2, type: 'subscribe', topic, since: last.revision });
    live.send({ v: 2, type: 'ping' });
    await live.next((m, ) => m.type === 'pong');
    expect(live.messages.slice(before).filter((m) => m.type !== 'pong')).toEqual([]);
    live.close();
  });

  it('answers a snapshot to a revision the stream does not have, or one too far behind', async () => {
    const { id, topic } = await newMap(ana, mall(10));
    const unknown = await openLive(server, ana);
    unknown.send({ v: 2, type: 'subscribe', topic, since: '99' });
    expect(await unknown.next((m) => m.type === 'snapshot' && m.topic === topic)).toMatchObject({ data: { kind: 'map', map: { revision: '0' } } });
    unknown.close();

    // More than MAX_CATCH_UP_EVENTS after revision 0: 500 renames per call.
    let last = '0';
    let firstPosition = '';
    for (let call = 0; call * 500 <= MAX_CATCH_UP_EVENTS; call++) {
      const edited = await edit(ana, id, Array.from({ length: 500 }, (_, i) => rename(`shop-${i % 10}`, `Shop ${call}-${i}`)));
      last = edited.revision;
      firstPosition ||= edited.position;
    }
    expect(Number(last)).toBeGreaterThan(MAX_CATCH_UP_EVENTS + 1);
    // The read model holds at least the first call's renames (on a busy machine it could still
    // be at revision 0 otherwise, and a snapshot at 0 says nothing); it may trail the rest.
    await projected(server, firstPosition);
    const behind = await openLive(server, ana);
    behind.send({ v: 2, type: 'subscribe', topic, since: '0' });
    const snapshot = (await behind.next((m) => m.type === 'snapshot' && m.topic === topic)) as Snapshot;
    const at = snapshot.data.kind === 'map' ? Number(snapshot.data.map.revision) : -1;
    expect(at).toBeGreaterThan(0);
    // The read model may trail the stream: the snapshot is followed by the events after it.
    if (at < Number(last)) {
      await behind.next((m) => m.type === 'events' && m.events.some((e) => e.revision === last));
      expect(revisionsOf(behind.messages, topic)).toEqual(consecutive(at + 1, Number(last)));
    }
    behind.close();
  });

  it('pushes a burst of edits to every subscriber once, in order, without gaps or repeats', async () => {
    const { id, topic } = await newMap(ana, mall(5));
    const sockets = await Promise.all([openLive(server, ana), openLive(server, ana), openLive(server, ana)]);
    for (const socket of sockets) socket.send({ v: 2, type: 'subscribe', topic });
    for (const socket of sockets) await socket.next((m) => m.type === 'snapshot' && m.topic === topic);
    // Back to back, not waiting for the pushes: notices come while the hub is still reading.
    let last = '0';
    for (let i = 0; i < 10; i++) last = (await edit(ana, id, [rename(`shop-${i % 5}`, `Burst ${i}`)])).revision;
    for (const socket of sockets) {
      await socket.next((m) => m.type === 'events' && m.events.some((e) => e.revision === last));
      expect(revisionsOf(socket.messages, topic)).toEqual(consecutive(1, Number(last)));
      socket.close();
    }
  });

  if (target.name === 'postgres') {
    it("pushes a map's events to subscribers of another server process sharing the database", async () => {
      const { id, topic } = await newMap(ana);
      const db = await openPostgresDatabase(server.database.url!);
      const services = await openServices(loadConfig({}), { db });
      const other = await buildApp(services);
      await other.listen({ port: 0, host: '127.0.0.1' });
      const address = other.server.address();
      const otherServer = { ...server, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
      try {
        const here = await openLive(server, ana);
        const there = await openLive(otherServer, ana);
        for (const socket of [here, there]) socket.send({ v: 2, type: 'subscribe', topic });
        for (const socket of [here, there]) await socket.next((m) => m.type === 'snapshot' && m.topic === topic);
        await edit(ana, id, [{ type: 'LocationAdded', location: Location.parse({ id: 'kiosk', title: 'Kiosk', layer: 'ground', position: { x: 1, y: 1 } }) }]);
        const last = await edit(ana, id, [rename('kiosk', 'Kiosk 2')]);
        for (const socket of [here, there]) {
          await socket.next((m) => m.type === 'events' && m.events.some((e) => e.revision === last.revision));
          expect(revisionsOf(socket.messages, topic)).toEqual(consecutive(1, Number(last.revision)));
          socket.close();
        }
      } finally {
        await other.close();
        await services.close();
      }
    });

    it('pushes an edit here and to another process at once while an older transaction of the database server is still open', async () => {
      // The log shows an event only once every older transaction has ended (a projection's of
      // the edit before, one of another database on the same server): a push waited for that,
      // tens to hundreds of ms per edit (issue 26 item 5). Here one stays open throughout.
      const { id, topic } = await newMap(ana);
      const db = await openPostgresDatabase(server.database.url!);
      const services = await openServices(loadConfig({}), { db });
      const other = await buildApp(services);
      await other.listen({ port: 0, host: '127.0.0.1' });
      const address = other.server.address();
      const otherServer = { ...server, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
      const older = new pg.Client({ connectionString: server.database.url! });
      await older.connect();
      try {
        const here = await openLive(server, ana);
        const there = await openLive(otherServer, ana);
        for (const socket of [here, there]) socket.send({ v: 2, type: 'subscribe', topic });
        for (const socket of [here, there]) await socket.next((m) => m.type === 'snapshot' && m.topic === topic);
        await older.query('BEGIN');
        await older.query('SELECT pg_current_xact_id()');
        await edit(ana, id, [{ type: 'LocationAdded', location: Location.parse({ id: 'kiosk', title: 'Kiosk', layer: 'ground', position: { x: 1, y: 1 } }) }]);
        const second = await edit(ana, id, [rename('kiosk', 'Kiosk 2')]);
        for (const socket of [here, there]) {
          await socket.next((m) => m.type === 'events' && m.events.some((e) => e.revision === second.revision), 5_000);
          expect(revisionsOf(socket.messages, topic)).toEqual(consecutive(1, Number(second.revision)));
        }
        // The log's copy of the same events, once the old transaction ends, is not pushed again.
        await older.query('ROLLBACK');
        const third = await edit(ana, id, [rename('kiosk', 'Kiosk 3')]);
        for (const socket of [here, there]) {
          await socket.next((m) => m.type === 'events' && m.events.some((e) => e.revision === third.revision));
          expect(revisionsOf(socket.messages, topic)).toEqual(consecutive(1, Number(third.revision)));
          socket.close();
        }
      } finally {
        await older.query('ROLLBACK').catch(() => {});
        await older.end();
        await other.close();
        await services.close();
      }
    });
  }
});
