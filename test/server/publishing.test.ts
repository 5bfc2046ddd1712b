/**
 * Drafts, review and scheduled publishing (issue 27, item 3) through the API, on PGlite and
 * PostgreSQL: an edit of a manual map leaves the public JSON and page as they were, publishing
 * changes them, a rollback serves the earlier document, a schedule is published exactly once
 * by two schedulers at its time (a clock the test moves), a draft never published is not
 * public, and live maps (those recorded before publishing existed too) are public at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicMap } from '../../events/http-api.js';
import { mapDecider, type MapEvent } from '../../events/map.js';
import { defaultSettings, MapDocumentInput } from '../../events/map-document.js';
import { formatPosition } from '../../events/position.js';
import { streams } from '../../events/streams.js';
import { handleCommand } from '../../server/commands/command-handler.js';
import { MapHistory } from '../../server/history/map-history.js';
import { PublishScheduler } from '../../server/publishing/publish-scheduler.js';
import { databaseTargets } from '../support/databases.js';
import { share } from '../support/sharing.js';
import { call, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';
import { until } from '../support/until.js';

const document = {
  version: 2,
  settings: { ...defaultSettings(), size: { width: 1000, height: 600 }, defaultLayer: 'ground' },
  styles: { regions: { base: '#e2e8f0', hover: '#c7d2fe', active: '#818cf8' } },
  layers: [{ id: 'ground', name: 'Ground floor', file: null }],
  locations: [{ id: 'cafe', title: 'Café Noir', layer: 'ground', position: { x: 100, y: 200 } }],
  groups: [],
};

/** A clock the test moves (the services' and the schedulers'). */
const clock = {
  offsetMs: 0,
  now: () => new Date(Date.now() + clock.offsetMs),
};

/** The page renders the map's title and its locations' titles: what the test reads of `/m/{id}`. */
const viewerPage = {
  render: async (map: PublicMap) => `<html><h1>${map.title}</h1>${(map.data as { locations: Array<{ title: string }> }).locations.map((l) => `<p>${l.title}</p>`).join('')}</html>`,
  shell: async () => '<html>shell</html>',
};

describe.each(databaseTargets)('publishing a map on $name', (target) => {
  let server: TestServer;
  let owner: TestUser;
  let editor: TestUser & { email: string };
  let admin: TestUser;

  beforeAll(async () => {
    server = await startTestServer(target, { clock, viewerPage });
    owner = await registerUser(server);
    const editorEmail = `editor-${Date.now()}@example.com`;
    editor = { ...(await registerUser(server, editorEmail)), email: editorEmail };
    admin = await registerUser(server, 'admin@example.com');
  }, 120_000);
  afterAll(() => server?.close());

  async function ok(name: string, data: unknown, user: TestUser) {
    const answer = await call(server, name, data, user);
    if (answer.status !== 200) throw new Error(`${name}: ${answer.status} ${JSON.stringify(answer.body)}`);
    if (answer.body.position) await projected(server, answer.body.position);
    return answer.body;
  }

  /** The public JSON as anyone gets it, once the cache has heard of every change projected so far. */
  async function publicJson(id: string) {
    // A projected change's notice drops the kept answer; wait until it did, then read afresh.
    await until(async () => server.app.publicMaps.has('json', id), (kept) => !kept, 'the cache to drop the map', 8_000).catch(() => {});
    const response = await fetch(`${server.url}/api/public/maps/${id}`);
    const text = await response.text();
    return { status: response.status, etag: response.headers.get('etag'), result: text ? (JSON.parse(text).result as PublicMap | undefined) : undefined };
  }

  async function page(id: string) {
    const response = await fetch(`${server.url}/m/${id}`);
    return { status: response.status, body: await response.text() };
  }

  const titleOf = (map: PublicMap | undefined) => (map?.data as { locations: Array<{ title: string }> } | undefined)?.locations[0]?.title;

  async function rename(id: string, title: string, by: TestUser) {
    await ok('editMap', { id, edits: [{ type: 'LocationUpdated', id: 'cafe', changes: { title } }] }, by);
  }

  async function publication(id: string, user: TestUser) {
    const response = await fetch(`${server.url}/api/maps/${id}/publication`, { headers: { cookie: user.cookie } });
    expect(response.status).toBe(200);
    return (await response.json()).result as { mode: string; revision: string; publishedRevision: string | null; scheduled: unknown; canPublish: boolean };
  }

  async function publishedEvents(id: string) {
    return (await server.services.store.readStream(streams.map(id))).filter((e) => e.type === 'MapPublished');
  }

  /** A new map of the owner's (manual, as every new map), Ben its editor, put in a slot (its first publish). */
  async function manualMap(): Promise<string> {
    const id = (await ok('createMap', { title: 'Mall', mapData: document }, owner)).result as string;
    await share(server, owner, id, editor, 'editor');
    await ok('adminUpdateMap', { id, state: 1 }, admin);
    return id;
  }

  it('keeps an edit of a manual map off the public JSON and page until it is published; a rollback serves the earlier document', async () => {
    const id = await manualMap();
    const first = await publicJson(id);
    expect(first.status).toBe(200);
    expect(titleOf(first.result)).toBe('Café Noir');
    const firstRevision = first.result!.revision;

    // The editor proposes: nothing public changes, not even the ETag.
    await rename(id, 'Tea Room', editor);
    const draft = await publicJson(id);
    expect(titleOf(draft.result)).toBe('Café Noir');
    expect(draft.etag).toBe(first.etag);
    expect((await page(id)).body).toContain('<p>Café Noir</p>');
    const before = await publication(id, editor);
    expect(before).toMatchObject({ mode: 'manual', publishedRevision: firstRevision, canPublish: false });
    expect(Number(before.revision)).toBeGreaterThan(Number(firstRevision));

    // The editor may not publish; the owner does.
    expect((await call(server, 'publishMapChanges', { mapId: id }, editor)).status).toBe(403);
    await ok('publishMapChanges', { mapId: id }, owner);
    const published = await publicJson(id);
    expect(titleOf(published.result)).toBe('Tea Room');
    expect(published.etag).not.toBe(first.etag);
    expect((await page(id)).body).toContain('<p>Tea Room</p>');

    // Roll back to the first published revision.
    await ok('publishMapChanges', { mapId: id, revision: firstRevision }, owner);
    const rolledBack = await publicJson(id);
    expect(titleOf(rolledBack.result)).toBe('Café Noir');
    expect(rolledBack.result!.revision).toBe(firstRevision);
    expect(rolledBack.etag).toBe(first.etag);
    expect((await page(id)).body).toContain('<p>Café Noir</p>');
    const events = await publishedEvents(id);
    expect(events.at(-1)!.data).toMatchObject({ revision: firstRevision, rollback: true });

    // History tells of the publishes.
    const timeline = await fetch(`${server.url}/api/maps/${id}/timeline`, { headers: { cookie: owner.cookie } }).then((r) => r.json());
    const summaries = (timeline.result.items as Array<{ summary: string }>).map((item) => item.summary);
    expect(summaries.some((s) => s.includes(`rolled the public map back to revision ${firstRevision}`))).toBe(true);
    expect(summaries.some((s) => /published revision \d+/.test(s))).toBe(true);
  }, 60_000);

  it('publishes a scheduled revision exactly once at its time, with two schedulers running', async () => {
    const id = await manualMap();
    await rename(id, 'Opening soon', editor);
    const at = new Date(clock.now().getTime() + 60_000).toISOString();
    await ok('publishMapChanges', { mapId: id, at }, owner);
    expect((await publication(id, owner)).scheduled).toMatchObject({ publishAt: at });
    // Another process: its own history (its own kept states), the same log and read models.
    const otherHistory = await MapHistory.open(server.database.db, server.services.store);
    const other = new PublishScheduler({ deps: { store: server.services.store, db: server.database.db, ids: server.services.ids, history: otherHistory }, clock, logger: { error: () => {} } });
    const schedulers = [server.app.publishScheduler, other];

    // Not yet due: nothing happens.
    expect(await Promise.all(schedulers.map((s) => s.tick()))).toEqual([0, 0]);
    expect(titleOf((await publicJson(id)).result)).toBe('Café Noir');
    const publishedBefore = (await publishedEvents(id)).length;

    clock.offsetMs += 61_000;
    try {
      const counts = await Promise.all(schedulers.map((s) => s.tick()));
      expect(counts.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(1);
      const again = await Promise.all(schedulers.map((s) => s.tick()));
      expect(again).toEqual([0, 0]);
    } finally {
      clock.offsetMs -= 61_000;
    }
    const events = await publishedEvents(id);
    expect(events.length).toBe(publishedBefore + 1);
    // In the name of whoever scheduled it, by the product.
    expect(events.at(-1)!.data).toMatchObject({ by: owner.uid });
    expect(events.at(-1)!.metadata.userId).toBe('mapfold-scheduler');
    await projected(server, formatPosition(events.at(-1)!.position));
    expect(titleOf((await until(() => publicJson(id), (answer) => titleOf(answer.result) === 'Opening soon', 'the scheduled publish')).result)).toBe('Opening soon');
    expect((await publication(id, owner)).scheduled).toBeNull();
  }, 60_000);

  it('does not show a manual map never published to the public; its first slot publishes it', async () => {
    const id = (await ok('createMap', { title: 'Secret plan', mapData: document }, owner)).result as string;
    await rename(id, 'Secret café', owner);
    expect((await publicJson(id)).status).toBe(404);
    expect(await publication(id, owner)).toMatchObject({ mode: 'manual', publishedRevision: null });
    const own = await fetch(`${server.url}/api/public/maps/${id}`, { headers: { cookie: owner.cookie } });
    expect((await own.json()).result).toMatchObject({ id, test: true });
    await ok('adminUpdateMap', { id, state: 1 }, admin);
    const published = await publicJson(id);
    expect(published.status).toBe(200);
    expect(titleOf(published.result)).toBe('Secret café');
    expect((await publication(id, owner)).publishedRevision).toBe(published.result!.revision);
  }, 60_000);

  it('publishes every edit of a live map at once, and of a map recorded before publishing existed', async () => {
    const id = await manualMap();
    await ok('setMapPublishMode', { mapId: id, mode: 'live' }, owner);
    await rename(id, 'Live Café', editor);
    expect(titleOf((await until(() => publicJson(id), (answer) => titleOf(answer.result) === 'Live Café', 'the live edit')).result)).toBe('Live Café');
    expect((await publication(id, owner)).mode).toBe('live');
    // Refused on a live map: there is nothing to publish.
    expect((await call(server, 'publishMapChanges', { mapId: id }, owner)).status).toBe(400);

    // A map as an earlier version recorded it: no mode at all.
    const oldId = `old${Date.now()}`;
    const created: MapEvent = {
      type: 'MapCreated',
      data: { mapId: oldId, uid: owner.uid, author: owner.uid, title: 'Old mall', state: 1, document: MapDocumentInput.parse(document), created: new Date().toISOString() },
    };
    const meta = { principal: null, now: new Date(), correlationId: 'c', commandId: 'c' };
    const outcome = await handleCommand({ store: server.services.store, ids: server.services.ids }, mapDecider, oldId, () => [created], meta);
    await projected(server, formatPosition(outcome.position!));
    expect(titleOf((await publicJson(oldId)).result)).toBe('Café Noir');
    await rename(oldId, 'Old Tea Room', owner);
    expect(titleOf((await until(() => publicJson(oldId), (answer) => titleOf(answer.result) === 'Old Tea Room', 'the old map’s edit')).result)).toBe('Old Tea Room');
    expect((await publication(oldId, owner)).mode).toBe('live');
  }, 60_000);
});
