/**
 * One map's bad event never stops another map: through the real app on both databases, an
 * event the map projections refuse is appended straight to one map's stream (as an older
 * version or a bug could have recorded it). That map's stream is set aside (its published page
 * and editor keep its last good version, the editor is told), every other map, list and
 * editor carries on, /api/ready and /metrics name the stream, a restart keeps it set aside
 * without stopping, and once the fix is deployed (here an upcaster the test's projections
 * read through) a repair applies the stream and nothing is reported any more.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streams } from '../../events/streams.js';
import { allProjections } from '../../projections/index.js';
import type { Projection } from '../../projections/projection.js';
import { ProjectionRunner } from '../../projections/runner.js';
import type { RecordedEvent } from '../../ports/event-store.js';
import { databaseTargets } from '../support/databases.js';
import { newEvent } from '../support/events.js';
import { call, createMapAs, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

/** The fix, once deployed: a MapSaved whose title an old bug recorded as a number is read as text. */
function upcast(event: RecordedEvent): RecordedEvent {
  const data = event.data as { title?: unknown };
  return event.type === 'MapSaved' && typeof data.title === 'number' ? { ...event, data: { ...data, title: String(data.title) } } : event;
}

/** The real projections, reading through the upcaster once it is deployed. */
function projectionsWith(fix: { deployed: boolean }): Projection[] {
  return allProjections.map((projection) => ({ ...projection, apply: (tx, events, changed) => projection.apply(tx, fix.deployed ? events.map(upcast) : events, changed) }));
}

describe.each(databaseTargets)('a map whose event the projections refuse, on $name', (target) => {
  let server: TestServer;
  let owner: TestUser;
  let admin: TestUser;
  const fix = { deployed: false };

  /** A runner on the server's database, as a (re)started process would have, retrying quickly. */
  async function startRunner(): Promise<void> {
    const runner = new ProjectionRunner(server.database.db, server.services.store, projectionsWith(fix), undefined, { retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 5 } });
    await runner.start();
    server.runner = runner;
  }

  beforeAll(async () => {
    server = await startTestServer(target);
    await server.runner.stop();
    await startRunner();
    owner = await registerUser(server);
    admin = await registerUser(server, 'admin@example.com');
  });
  afterAll(async () => {
    await server?.runner.stop();
    await server?.close();
  });

  const get = async (path: string, user?: TestUser) => {
    const response = await fetch(`${server.url}${path}`, { headers: user ? { cookie: user.cookie } : {} });
    return { status: response.status, body: (await response.json()) as any };
  };
  const titleOf = async (id: string) => (await get(`/api/maps/${id}/data`, owner)).body.result.title as string;
  const ready = () => get('/api/ready');
  const metrics = async () => (await fetch(`${server.url}/metrics`)).text();

  /** Renames a map through the API and waits until the projections have it. */
  async function rename(id: string, title: string) {
    const answer = await call(server, 'saveMap', { id, title }, owner);
    expect(answer.status).toBe(200);
    await projected(server, answer.body.position);
  }

  it('sets aside only that map, every other map carries on, a restart keeps it, and a repair after the fix applies it', async () => {
    // Given two maps, the victim published.
    const victim = await createMapAs(server, owner, 'Victim');
    const other = await createMapAs(server, owner, 'Other');
    const published = await call(server, 'adminUpdateMap', { id: victim, state: 1 }, admin);
    await projected(server, published.body.position);
    // Every edit public at once (issue 27: new maps wait for a publish), so its page follows the repair.
    const live = await call(server, 'setMapPublishMode', { mapId: victim, mode: 'live' }, admin);
    await projected(server, live.body.position);
    expect((await get(`/api/public/maps/${victim}`)).body.result.title).toBe('Victim');

    // When an event the map projections refuse is appended to the victim's stream, bypassing
    // the commands, and then a good one after it.
    const bad = newEvent('MapSaved', { mapId: victim, title: 42, edited: new Date().toISOString() }, owner.uid);
    const later = newEvent('MapSaved', { mapId: victim, title: 'Victim renamed', edited: new Date().toISOString() }, owner.uid);
    await server.services.store.append(streams.map(victim), [bad], 'any');
    const appended = await server.services.store.append(streams.map(victim), [later], 'any');
    // Before isolation per stream this never resolved: map_data and maps_list stopped on it.
    await server.runner.waitFor(appended.position);

    // Then every other map still updates, and new maps appear in the list.
    await rename(other, 'Other renamed');
    expect(await titleOf(other)).toBe('Other renamed');
    const third = await createMapAs(server, owner, 'Third');
    expect((await get('/api/maps', owner)).body.result.map((map: { id: string }) => map.id)).toEqual(expect.arrayContaining([victim, other, third]));

    // The victim keeps its last good version, in the editor and on its published page, and says why.
    expect(await titleOf(victim)).toBe('Victim');
    expect((await get(`/api/public/maps/${victim}`)).body.result.title).toBe('Victim');
    expect((await get(`/api/maps/${victim}/set-aside`, owner)).body.result).toEqual({ setAside: { reference: bad.id, since: expect.any(String) } });
    expect((await get(`/api/maps/${other}/set-aside`, owner)).body.result).toEqual({ setAside: null });
    // Someone without access learns nothing of it.
    const stranger = await registerUser(server);
    expect((await get(`/api/maps/${victim}/set-aside`, stranger)).status).toBe(403);

    // /api/ready stays 200, says degraded and names the stream; /metrics names it.
    const degraded = await ready();
    expect(degraded.status).toBe(200);
    expect(degraded.body.status).toBe('degraded');
    expect(degraded.body.degraded).toEqual(expect.arrayContaining(['map_data', 'maps_list']));
    expect(degraded.body.setAside).toContainEqual(expect.objectContaining({ by: 'map_data', stream: streams.map(victim), eventId: bad.id, skipped: 1 }));
    expect(degraded.body.projections.map_data.setAside).toEqual([expect.objectContaining({ stream: streams.map(victim), eventId: bad.id })]);
    expect(await metrics()).toContain(`mapfold_projection_set_aside_stream{projection="map_data",stream="${streams.map(victim)}"} 1`);

    // A restart (a new runner on the same database) keeps the list and does not stop.
    await server.runner.stop();
    await startRunner();
    await rename(other, 'Other after restart');
    expect(await titleOf(other)).toBe('Other after restart');
    expect((await ready()).body.setAside).toContainEqual(expect.objectContaining({ by: 'map_data', stream: streams.map(victim) }));
    expect(await titleOf(victim)).toBe('Victim');

    // The fix is deployed; the repair applies the victim's events in log order and clears it.
    fix.deployed = true;
    const report = await server.runner.repair();
    expect(report.stillFailing).toEqual([]);
    expect(report.repaired.map((record) => record.projection)).toEqual(expect.arrayContaining(['map_data', 'maps_list']));
    expect(await titleOf(victim)).toBe('Victim renamed');
    expect((await get(`/api/maps/${victim}/set-aside`, owner)).body.result).toEqual({ setAside: null });
    const healthy = await ready();
    expect(healthy.body).toMatchObject({ status: 'ready', degraded: [], setAside: [] });
    expect(await metrics()).not.toContain(`stream="${streams.map(victim)}"`);
    // And it follows its stream again like any other map (appended raw: the commands' own
    // reading of the old event is not what this test deploys a fix for).
    const mended = await server.services.store.append(streams.map(victim), [newEvent('MapSaved', { mapId: victim, title: 'Victim mended', edited: new Date().toISOString() }, owner.uid)], 'any');
    await server.runner.waitFor(mended.position);
    expect(await titleOf(victim)).toBe('Victim mended');
  });
});
