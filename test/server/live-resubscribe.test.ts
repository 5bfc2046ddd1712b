/**
 * Subscribing to a map's live topic again and again (issue 26: a loop of re-subscribes to a big
 * map pushed everyone's median latency to 2.3 s): the snapshot is kept per map and revision and
 * sent again without reading the map (server/live/map-snapshots.ts); one socket's subscribes are
 * rate-limited (server/live/subscribe-limits.ts), the excess waiting in that socket's own queue
 * while other sockets are served at once; a socket that piles up messages meanwhile is closed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_PROTOCOL_VERSION, type ServerMessage } from '../../events/live-messages.js';
import { topics } from '../../events/topics.js';
import { SUBSCRIBE_LIMITS } from '../../server/live/subscribe-limits.js';
import { databaseTargets } from '../support/databases.js';
import { call, openLive, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

type Snapshot = Extract<ServerMessage, { type: 'snapshot' }>;
const snapshotsOf = (messages: readonly ServerMessage[], topic: string) => messages.filter((m): m is Snapshot => m.type === 'snapshot' && m.topic === topic);
const titleOf = (snapshot: Snapshot) => (snapshot.data.kind === 'map' ? snapshot.data.map.title : null);

describe.each(databaseTargets)('live re-subscribes on $name', (target) => {
  let server: TestServer;
  let ana: TestUser;
  let mapId: string;
  let topic: string;

  beforeAll(async () => {
    server = await startTestServer(target);
    ana = await registerUser(server);
    const made = await call(server, 'createMap', { title: 'Harbour' }, ana);
    expect(made.status).toBe(200);
    await projected(server, made.body.position);
    mapId = made.body.result as string;
    topic = topics.map(mapId);
  });
  afterAll(() => server.close());

  it('sends a re-subscribe the kept snapshot, without reading the map again', async () => {
    const first = await openLive(server, ana);
    first.send({ v: LIVE_PROTOCOL_VERSION, type: 'subscribe', topic });
    expect(titleOf((await first.next((m) => m.type === 'snapshot' && m.topic === topic)) as Snapshot)).toBe('Harbour');
    // The read model now says otherwise: a snapshot read from it would show it.
    await server.database.db.query(`UPDATE map_data SET title = 'Read again' WHERE id = $1`, [mapId]);
    const second = await openLive(server, ana);
    second.send({ v: LIVE_PROTOCOL_VERSION, type: 'subscribe', topic });
    expect(titleOf((await second.next((m) => m.type === 'snapshot' && m.topic === topic)) as Snapshot)).toBe('Harbour');
    await server.database.db.query(`UPDATE map_data SET title = 'Harbour' WHERE id = $1`, [mapId]);
    first.close();
    second.close();
  });

  it("rate-limits one socket's subscribes without holding up the others", async () => {
    const { burst, perSecond } = SUBSCRIBE_LIMITS.snapshot;
    const looping = await openLive(server, ana);
    const sent = burst + 3;
    const began = Date.now();
    for (let i = 0; i < sent; i++) looping.send({ v: LIVE_PROTOCOL_VERSION, type: 'subscribe', topic });
    await looping.next(() => snapshotsOf(looping.messages, topic).length >= burst);

    // Meanwhile another tab subscribes and sees an edit at once.
    const other = await openLive(server, ana);
    other.send({ v: LIVE_PROTOCOL_VERSION, type: 'subscribe', topic });
    await other.next((m) => m.type === 'snapshot' && m.topic === topic);
    const edited = await call(server, 'editMap', { id: mapId, edits: [{ type: 'LayerRenamed', id: 'ground', name: 'Quay level' }] }, ana);
    expect(edited.status).toBe(200);
    await other.next((m) => m.type === 'events' && m.topic === topic && JSON.stringify(m).includes('Quay level'));
    expect(snapshotsOf(looping.messages, topic).length).toBeLessThan(sent);

    // The looping socket gets the rest at the limit's pace, not at once.
    await looping.next(() => snapshotsOf(looping.messages, topic).length >= sent, 20_000);
    expect(Date.now() - began).toBeGreaterThanOrEqual(((sent - burst) / perSecond) * 1000 - 250);
    looping.close();
    other.close();
  }, 30_000);

  it('closes a socket that piles up messages behind a rate-limited subscribe', async () => {
    const flooding = await openLive(server, ana);
    for (let i = 0; i < SUBSCRIBE_LIMITS.snapshot.burst + 1; i++) flooding.send({ v: LIVE_PROTOCOL_VERSION, type: 'subscribe', topic });
    for (let i = 0; i < 300; i++) flooding.send({ v: LIVE_PROTOCOL_VERSION, type: 'ping' });
    expect((await flooding.closed).code).toBe(1008);
  });
});
