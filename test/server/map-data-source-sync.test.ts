/**
 * Live data from a sheet or URL (issue 30 item 4), on the real HTTP app against a local HTTP
 * server (ALLOW_LOOPBACK_TARGETS=1) serving a real CSV (test/fixtures/realworld/csv's airports):
 * the data source recorded on the map, a first sync's preview and apply, then a changed sheet
 * synced by key (added, changed, removed) as one import, said so in the timeline; the same
 * through `POST /api/maps/{id}/sync`; a failing source keeps the map as it was; undoing the
 * sync's import (its inverse) takes all of it back in one step. PGlite and PostgreSQL.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MapDocument } from '../../events/map-document.js';
import { applyEdits, invertEdit } from '../../events/map-edit-inverse.js';
import type { MapEdit } from '../../events/map-edits.js';
import { syncEdits } from '../../server/import/import-routes.js';
import { SyncScheduler } from '../../server/import/sync-scheduler.js';
import { streams } from '../../events/streams.js';
import { appliedEntry, dataSourceName } from '../../events/map-data-source.js';
import { MapHistory } from '../../server/history/map-history.js';
import { databaseTargets } from '../support/databases.js';
import { call, createMapAs, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

const airports = readFileSync(path.join(import.meta.dirname, '../fixtures/realworld/csv/vega-airports.csv'), 'utf8').split('\n');
const header = airports[0]!;
/** The sheet at first: 20 airports. */
const first = [header, ...airports.slice(1, 21)].join('\n');
/** The sheet later: the first airport gone, two renamed, three more. */
const later = [
  header,
  ...airports.slice(2, 21).map((line, index) => (index < 2 ? line.replace(/^([^,]+),([^,]+),/, '$1,$2 (renamed),') : line)),
  ...airports.slice(21, 24),
].join('\n');

/** A clock the test moves (the services' and the schedulers'). */
const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };
const HOUR = 60 * 60 * 1000;

describe.each(databaseTargets)('a map’s data source, synced ($name)', (target) => {
  let server: TestServer;
  let owner: TestUser;
  let source: Server;
  let sourceUrl: string;
  let sheet = first;
  let failing = false;
  /** A sheet whose keys are not usable ids (spaces, #, accents). */
  let keyed = 'store,name,latitude,longitude\nStore #1,Harbour,51.5,-0.1\nStore #2,Market,51.6,-0.2\nMagasin n° 3,Gare,51.7,-0.3';

  beforeAll(async () => {
    source = createServer((request, response) => {
      if (failing) {
        response.writeHead(500).end('down');
        return;
      }
      response.writeHead(200, { 'content-type': 'text/csv; charset=utf-8' }).end(request.url === '/stores.csv' ? sheet : request.url === '/keys.csv' ? keyed : '');
    });
    await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
    sourceUrl = `http://127.0.0.1:${(source.address() as AddressInfo).port}/stores.csv`;
    server = await startTestServer(target, { clock, env: { ALLOW_LOOPBACK_TARGETS: '1' } });
  }, 60_000);
  // Two test maps per user: a new user for each test.
  beforeEach(async () => {
    owner = await registerUser(server);
  });
  afterAll(async () => {
    await server?.close();
    await new Promise((resolve) => source?.close(resolve));
  });

  const ok = async (name: string, data: unknown) => {
    const answer = await call(server, name, data, owner);
    if (answer.status !== 200) throw new Error(`${name}: ${answer.status} ${JSON.stringify(answer.body)}`);
    if (answer.body.position) await projected(server, answer.body.position);
    return answer.body.result;
  };
  const documentOf = async (mapId: string) =>
    ((await (await fetch(`${server.url}/api/maps/${mapId}/data`, { headers: { cookie: owner.cookie } })).json()) as { result: { data: MapDocument } }).result.data;
  const timeline = async (mapId: string) =>
    ((await (await fetch(`${server.url}/api/maps/${mapId}/timeline`, { headers: { cookie: owner.cookie } })).json()) as { result: { items: Array<{ summary: string }> } }).result.items.map((e) => e.summary);

  it('previews, applies, then syncs a changed sheet by key as one import, and keeps the map when the source fails', async () => {
    const mapId = await createMapAs(server, owner, 'Airports');
    sheet = first;
    failing = false;
    // No source yet: a sync says so.
    const none = await call(server, 'syncMapNow', { mapId }, owner);
    expect(none.status).toBe(400);
    expect(none.body.error.message).toMatch(/no data source/);

    await ok('setMapDataSource', { mapId, url: sourceUrl, keyColumn: 'iata', schedule: 'manual', name: 'Stores sheet' });

    // The first sync previews through the import pipeline: nothing recorded.
    const preview = await ok('syncMapNow', { mapId, preview: true });
    expect(preview.revision).toBeNull();
    expect(preview.sync).toMatchObject({ added: 20, changed: 0, removed: 0 });
    expect((await documentOf(mapId)).locations).toHaveLength(0);

    const applied = await ok('syncMapNow', { mapId });
    expect(applied.sync).toEqual({ added: 20, changed: 0, removed: 0, overridden: 0, summary: 'Sync from Stores sheet: 20 added, 0 changed, 0 removed' });
    const before = await documentOf(mapId);
    expect(before.locations.map((l) => l.id)).toContain('00M');
    expect(before.locations.find((l) => l.id === '01G')?.title).toBe('Perry-Warsaw');

    // Nothing changed at the source: nothing recorded.
    const same = await ok('syncMapNow', { mapId });
    expect(same.sync).toMatchObject({ added: 0, changed: 0, removed: 0 });
    expect(same.revision).toBeNull();

    // The sheet changes: one removed, two renamed, three added; through the token route's URL.
    sheet = later;
    const response = await fetch(`${server.url}/api/maps/${mapId}/sync`, { method: 'POST', headers: { cookie: owner.cookie, 'content-type': 'application/json' }, body: '{}' });
    const answer = (await response.json()) as { result: { sync: { added: number; changed: number; removed: number; summary: string } }; position: string };
    expect(response.status, JSON.stringify(answer)).toBe(200);
    await projected(server, answer.position);
    expect(answer.result.sync).toEqual({ added: 3, changed: 2, removed: 1, overridden: 0, summary: 'Sync from Stores sheet: 3 added, 2 changed, 1 removed' });
    const after = await documentOf(mapId);
    expect(after.locations).toHaveLength(22);
    expect(after.locations.some((l) => l.id === '00M')).toBe(false);
    expect(after.locations.find((l) => l.id === '00R')?.title).toBe('Livingston Municipal (renamed)');
    expect((await timeline(mapId)).some((summary) => summary.startsWith('Sync from Stores sheet: 3 added, 2 changed, 1 removed'))).toBe(true);

    // A failing source: refused with what went wrong, the map keeps its last good data.
    failing = true;
    const failed = await call(server, 'syncMapNow', { mapId }, owner);
    expect(failed.status).toBe(400);
    expect(failed.body.error.message).toMatch(/answered 500/);
    expect((await documentOf(mapId)).locations).toHaveLength(22);
    failing = false;
    // What the editor's "Data source" section reads.
    const read = (await (await fetch(`${server.url}/api/maps/${mapId}/data-source`, { headers: { cookie: owner.cookie } })).json()) as { result: { source: { url: string; keyColumn: string; schedule: string }; lastSyncAt: string | null } };
    expect(read.result.source).toMatchObject({ url: sourceUrl, keyColumn: 'iata', schedule: 'manual', name: 'Stores sheet' });
    expect(read.result.lastSyncAt).not.toBeNull();
  }, 60_000);

  it('syncs an hourly source once an hour, once with two schedulers running, and records a failure once', async () => {
    const mapId = await createMapAs(server, owner, 'Hourly airports');
    sheet = first;
    failing = false;
    await ok('setMapDataSource', { mapId, url: sourceUrl, keyColumn: 'iata', schedule: 'hourly', name: 'Stores sheet' });
    await ok('syncMapNow', { mapId });
    sheet = later;
    // Another process: its own history, the same log, read models and sync.
    const other = new SyncScheduler({
      deps: { store: server.services.store, db: server.database.db, ids: server.services.ids, history: await MapHistory.open(server.database.db, server.services.store) },
      mapSync: server.app.syncScheduler.mapSync,
      clock,
      logger: { info() {}, warn() {}, error() {} },
      // A second process mails as the first does: whichever claims the failing sync tells the owner.
      mailer: server.services.mailer,
    });
    const schedulers = [server.app.syncScheduler, other];
    // Not due for an hour.
    expect(await Promise.all(schedulers.map((s) => s.tick()))).toEqual([0, 0]);
    expect((await documentOf(mapId)).locations).toHaveLength(20);
    clock.offsetMs += HOUR + 60_000;
    try {
      const counts = await Promise.all(schedulers.map((s) => s.tick()));
      expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
      expect(await Promise.all(schedulers.map((s) => s.tick()))).toEqual([0, 0]);
      // The editor's copy (the read model) has the sync once it catches up.
      const synced = await vi.waitFor(async () => {
        const document = await documentOf(mapId);
        expect(document.locations).toHaveLength(22);
        return document;
      });
      expect(synced.locations.find((l) => l.id === '00R')?.title).toBe('Livingston Municipal (renamed)');
      // An hour later the source fails: recorded once, the map keeps its data.
      failing = true;
      clock.offsetMs += HOUR + 60_000;
      expect((await Promise.all(schedulers.map((s) => s.tick()))).reduce((a, b) => a + b, 0)).toBe(1);
      expect((await documentOf(mapId)).locations).toHaveLength(22);
      expect((await timeline(mapId)).filter((summary) => summary.startsWith('Syncing the data source failed:'))).toHaveLength(1);
      const read = (await (await fetch(`${server.url}/api/maps/${mapId}/data-source`, { headers: { cookie: owner.cookie } })).json()) as { result: { lastError: string | null } };
      expect(read.result.lastError).toMatch(/answered 500/);
      // Its owner is mailed once; failing again an hour later records and mails nothing more.
      const mails = async () => (await server.services.outbox!.list(200)).filter((m) => m.subject === 'Syncing “Hourly airports” failed');
      expect(await mails()).toHaveLength(1);
      clock.offsetMs += HOUR + 60_000;
      expect((await Promise.all(schedulers.map((s) => s.tick()))).reduce((a, b) => a + b, 0)).toBe(1);
      expect(await mails()).toHaveLength(1);
      expect((await timeline(mapId)).filter((summary) => summary.startsWith('Syncing the data source failed:'))).toHaveLength(1);
    } finally {
      failing = false;
      clock.offsetMs = 0;
    }
  }, 60_000);

  it('keeps a field edited in Mapfold through syncs (overridden), and takes the source’s value or keeps Mapfold’s by the owner’s choice', async () => {
    const mapId = await createMapAs(server, owner, 'Overridden airports');
    sheet = first;
    failing = false;
    await ok('setMapDataSource', { mapId, url: sourceUrl, keyColumn: 'iata', schedule: 'manual', name: 'Stores sheet' });
    await ok('syncMapNow', { mapId });
    type Listed = { key: string; title: string; field: string; mapfold: unknown; source: unknown; choice: 'keep' | null };
    const listed = async () =>
      ((await (await fetch(`${server.url}/api/maps/${mapId}/data-source`, { headers: { cookie: owner.cookie } })).json()) as { result: { overrides: Listed[]; moreOverrides: number } }).result;
    const title = async (id: string) => (await documentOf(mapId)).locations.find((l) => l.id === id)?.title;
    expect((await listed()).overrides).toEqual([]);

    // Edits in Mapfold: a title the source renames next (both changed), a title the source keeps, a pin moved.
    const synced = await documentOf(mapId);
    const moved = synced.locations.find((l) => l.id === '01M')!;
    const position = { x: moved.position!.x + 5, y: moved.position!.y + 5 };
    await ok('editMap', {
      id: mapId,
      edits: [
        { type: 'LocationUpdated', id: '00R', changes: { title: 'Livingston (our name)' } },
        { type: 'LocationUpdated', id: '01G', changes: { title: 'Perry (ours)' } },
        { type: 'LocationMoved', id: '01M', position },
      ],
    });

    // The sheet changes (00R and 00V renamed, 00M gone, three added): Mapfold's edits survive, 00V follows the source.
    sheet = later;
    const second = await ok('syncMapNow', { mapId });
    expect(second.sync).toMatchObject({ added: 3, changed: 1, removed: 1, overridden: 3 });
    expect(await title('00R')).toBe('Livingston (our name)');
    expect(await title('01G')).toBe('Perry (ours)');
    expect(await title('00V')).toBe('Meadow Lake (renamed)');
    expect((await documentOf(mapId)).locations.find((l) => l.id === '01M')?.position).toEqual(position);
    const found = (await listed()).overrides;
    expect(found).toEqual(
      expect.arrayContaining([
        { key: '00R', title: 'Livingston (our name)', field: 'title', mapfold: 'Livingston (our name)', source: 'Livingston Municipal (renamed)', choice: null },
        { key: '01G', title: 'Perry (ours)', field: 'title', mapfold: 'Perry (ours)', source: 'Perry-Warsaw', choice: null },
        { key: '01M', title: 'Tishomingo County', field: 'position', mapfold: position, source: moved.position, choice: null },
      ]),
    );
    expect(found).toHaveLength(3);
    expect((await timeline(mapId)).some((summary) => summary.startsWith('The data source sync kept 3 fields edited in Mapfold'))).toBe(true);

    // Syncing again changes nothing and records nothing: the list stays.
    const again = await ok('syncMapNow', { mapId });
    expect(again.sync).toMatchObject({ added: 0, changed: 0, removed: 0, overridden: 3 });
    expect(again.revision).toBeNull();
    expect((await listed()).overrides).toHaveLength(3);

    // A field that is not overridden: refused (409), nothing recorded.
    const refused = await call(server, 'resolveSyncOverride', { mapId, overrides: [{ key: '00V', field: 'title', choice: 'source' }] }, owner);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/not overridden/);

    // "Use the source's value" for 00R, "Keep Mapfold's value" for 01G.
    const before = await documentOf(mapId);
    const resolved = await ok('resolveSyncOverride', {
      mapId,
      overrides: [
        { key: '00R', field: 'title', choice: 'source' },
        { key: '01G', field: 'title', choice: 'keep' },
      ],
    });
    expect(resolved).toMatchObject({ kept: 1, used: 1 });
    expect(resolved.revision).not.toBeNull();
    expect(await title('00R')).toBe('Livingston Municipal (renamed)');
    expect(await title('01G')).toBe('Perry (ours)');
    expect((await listed()).overrides.map((o) => [o.key, o.field, o.choice])).toEqual(
      expect.arrayContaining([
        ['01G', 'title', 'keep'],
        ['01M', 'position', null],
      ]),
    );
    expect((await listed()).overrides).toHaveLength(2);
    expect((await timeline(mapId)).some((summary) => summary.includes("used “Stores sheet”'s values for fields of 1 location edited in Mapfold"))).toBe(true);

    // One recorded change, undone as one step (its inverse, as the editor sends it): Mapfold's value is back.
    const recorded = (await server.services.store.readStream(streams.map(mapId))).filter((e) => e.type === 'ImportApplied').at(-1)!;
    expect(recorded.revision.toString()).toBe(resolved.revision);
    const { mapId: _m, edited: _e, ...fields } = recorded.data as Record<string, unknown>;
    const edit = { type: 'ImportApplied', ...fields } as MapEdit;
    expect(edit).toMatchObject({ source: { name: 'Stores sheet', overrides: true }, updates: [{ id: '00R', changes: { title: 'Livingston Municipal (renamed)' } }] });
    await ok('editMap', { id: mapId, edits: invertEdit(before, edit) });
    expect(await title('00R')).toBe('Livingston (our name)');
    // …so the next sync finds it overridden again: no silent loss either way.
    const third = await ok('syncMapNow', { mapId });
    expect(third.sync.overridden).toBe(3);
    expect(await title('00R')).toBe('Livingston (our name)');

    // "Keep" holds through later syncs, even when the source changes that field; an untouched field still follows.
    sheet = later.replace('01G,Perry-Warsaw,', '01G,Perry-Warsaw Intl,').replace('02A,Gragg-Wade,', '02A,Gragg-Wade Field,');
    const fourth = await ok('syncMapNow', { mapId });
    expect(fourth.sync).toMatchObject({ changed: 1, overridden: 3 });
    expect(await title('01G')).toBe('Perry (ours)');
    expect(await title('02A')).toBe('Gragg-Wade Field');
    expect((await listed()).overrides).toEqual(expect.arrayContaining([{ key: '01G', title: 'Perry (ours)', field: 'title', mapfold: 'Perry (ours)', source: 'Perry-Warsaw Intl', choice: 'keep' }]));
    // …until the choice changes: the source's value now.
    await ok('resolveSyncOverride', { mapId, overrides: [{ key: '01G', field: 'title', choice: 'source' }] });
    expect(await title('01G')).toBe('Perry-Warsaw Intl');
    sheet = sheet.replace('01G,Perry-Warsaw Intl,', '01G,Perry-Warsaw International,');
    const fifth = await ok('syncMapNow', { mapId });
    expect(fifth.sync).toMatchObject({ changed: 1, overridden: 2 });
    expect(await title('01G')).toBe('Perry-Warsaw International');
  }, 90_000);

  it('gives a key that is not a usable id the same location id at every sync (changed, never removed and added)', async () => {
    const mapId = await createMapAs(server, owner, 'Keyed stores');
    const url = sourceUrl.replace('/stores.csv', '/keys.csv');
    await ok('setMapDataSource', { mapId, url, keyColumn: 'store', schedule: 'manual' });
    expect((await ok('syncMapNow', { mapId })).sync).toMatchObject({ added: 3, changed: 0, removed: 0 });
    const ids = (await documentOf(mapId)).locations.map((l) => l.id).sort();
    expect(ids).toHaveLength(3);
    for (const id of ids) expect(id).toMatch(/^(Store-1|Store-2|Magasin-n-3)-[0-9a-z]+$/);
    keyed = keyed.replace('Store #2,Market,', 'Store #2,Market Hall,');
    expect((await ok('syncMapNow', { mapId })).sync).toMatchObject({ added: 0, changed: 1, removed: 0 });
    expect((await documentOf(mapId)).locations.map((l) => l.id).sort()).toEqual(ids);
    expect((await ok('syncMapNow', { mapId })).sync).toMatchObject({ added: 0, changed: 0, removed: 0 });
  }, 30_000);

  it('reads a synced map from a snapshot kept before the applied values were kept by folding its events again', async () => {
    const mapId = await createMapAs(server, owner, 'Old snapshot');
    sheet = first;
    failing = false;
    await ok('setMapDataSource', { mapId, url: sourceUrl, keyColumn: 'iata', schedule: 'manual' });
    await ok('syncMapNow', { mapId });
    const history = await MapHistory.open(server.database.db, server.services.store);
    const { state, revision } = await history.stateAt(mapId);
    if (state.status !== 'active' || !state.dataSource) throw new Error('no data source');
    expect(Object.keys(state.dataSource.applied ?? {})).toHaveLength(20);
    // A snapshot as an earlier version kept it: keys, no applied values.
    const { applied: _applied, ...old } = state.dataSource;
    await server.database.db.query('INSERT INTO map_snapshots (map_id, revision, state) VALUES ($1, $2, $3)', [mapId, revision.toString(), JSON.stringify({ ...state, dataSource: old })]);
    const fresh = await MapHistory.open(server.database.db, server.services.store);
    const read = (await fresh.stateAt(mapId)).state;
    expect(read.status === 'active' && Object.keys(read.dataSource?.applied ?? {})).toHaveLength(20);
    expect((await server.database.db.query('SELECT 1 FROM map_snapshots WHERE map_id = $1', [mapId])).rows).toHaveLength(0);
  }, 30_000);

  it('a viewer may not set or sync the source', async () => {
    const mapId = await createMapAs(server, owner, 'Not theirs');
    const stranger = await registerUser(server);
    expect((await call(server, 'setMapDataSource', { mapId, url: sourceUrl, keyColumn: 'iata', schedule: 'manual' }, stranger)).status).toBe(403);
    expect((await call(server, 'syncMapNow', { mapId }, stranger)).status).toBe(403);
    expect((await call(server, 'resolveSyncOverride', { mapId, overrides: [{ key: '00R', field: 'title', choice: 'source' }] }, stranger)).status).toBe(403);
  }, 30_000);
});

describe('a sync’s edits (syncEdits) and their undo', () => {
  const layer = { id: 'floor', name: 'Floor', file: null };
  const location = (id: string, title: string) => ({ id, title, about: '', description: '', layer: 'floor', position: { x: 1, y: 1 }, groups: [], link: '', image: null, thumbnail: null, entrances: [] }) as unknown as MapDocument['locations'][number];
  const base = { version: 3, settings: {}, layers: [layer], groups: [], locations: [location('a', 'A'), location('b', 'B'), location('c', 'C'), location('mine', 'Made by hand')], regionStyles: {}, paths: { nodes: [], edges: [], connectors: [] } } as unknown as MapDocument;
  const source = { format: 'csv' as const, name: 'Stores sheet', mapping: null };

  it('keeps only real changes, removes the keys gone (never a location the source did not bring), and undoes as one', () => {
    const planned: MapEdit[] = [
      { type: 'ImportApplied', source, layers: [], groups: [], locations: [location('d', 'D')], updates: [{ id: 'a', changes: { title: 'A' } }, { id: 'b', changes: { title: 'B2' } }] },
    ];
    const { edits, counts } = syncEdits(base, planned, { name: 'Stores sheet', keys: ['a', 'b', 'c'] });
    expect(counts).toEqual({ added: 1, changed: 1, removed: 1, overridden: 0 });
    expect(edits).toHaveLength(1);
    const edit = edits[0] as Extract<MapEdit, { type: 'ImportApplied' }>;
    expect(edit.source.sync).toBe(true);
    expect(edit.updates).toEqual([{ id: 'b', changes: { title: 'B2' } }]);
    expect(edit.removed).toEqual(['c']);
    const { document: after } = applyEdits(base, edits);
    expect(after.locations.map((l) => l.id).sort()).toEqual(['a', 'b', 'd', 'mine']);
    const { document: undone } = applyEdits(after, invertEdit(base, edit));
    expect(undone.locations.map((l) => [l.id, l.title]).sort()).toEqual(base.locations.map((l) => [l.id, l.title]).sort());
  });

  it('leaves a field edited since the sync applied it (or kept) as it is, and lists it with the source’s value', () => {
    // What the last sync applied: a, b and c as they were synced; since then b's title was edited in Mapfold.
    const applied = Object.fromEntries(['a', 'b', 'c'].map((id) => [id, appliedEntry(location(id, id.toUpperCase()) as never, undefined)]));
    const edited = { ...base, locations: base.locations.map((l) => (l.id === 'b' ? { ...l, title: 'Ours' } : l)) } as MapDocument;
    const planned: MapEdit[] = [
      {
        type: 'ImportApplied',
        source,
        layers: [],
        groups: [],
        locations: [],
        updates: [
          { id: 'a', changes: { title: 'A2' } },
          { id: 'b', changes: { title: 'B2', about: 'new' } },
          { id: 'c', changes: { title: 'C2' } },
        ],
      },
    ];
    const { edits, counts, overrides } = syncEdits(edited, planned, { name: 'Stores sheet', keys: ['a', 'b', 'c'], applied, kept: { c: ['title'] } });
    expect(counts).toEqual({ added: 0, changed: 2, removed: 0, overridden: 2 });
    expect((edits[0] as Extract<MapEdit, { type: 'ImportApplied' }>).updates).toEqual([
      { id: 'a', changes: { title: 'A2' } },
      { id: 'b', changes: { about: 'new' } },
    ]);
    expect(overrides).toEqual({ list: [{ id: 'b', source: { title: 'B2' } }, { id: 'c', source: { title: 'C2' } }], more: 0 });
    // A field edited to the source's own value is not overridden: nothing to choose.
    const agreed = syncEdits(edited, [{ ...planned[0]!, updates: [{ id: 'b', changes: { title: 'Ours' } }] } as MapEdit], { name: 'Stores sheet', keys: ['a', 'b', 'c'], applied });
    expect(agreed.counts.overridden).toBe(0);
  });

  it('names a sync by its source: the name given, a Google Sheet as such, else the file', () => {
    const named = (url: string, name?: string) => dataSourceName({ url, keyColumn: 'id', schedule: 'manual', ...(name ? { name } : {}) });
    expect(named('https://docs.google.com/spreadsheets/d/e/2PACX-1vQ/pub?gid=0&single=true&output=csv')).toBe('Google Sheet');
    expect(named('https://docs.google.com/spreadsheets/d/1AbC/export?format=csv')).toBe('Google Sheet');
    expect(named('https://docs.google.com/spreadsheets/d/e/2PACX-1vQ/pub?output=csv', 'Stores sheet')).toBe('Stores sheet');
    expect(named('https://example.com/data/stores.csv')).toBe('stores.csv');
    expect(named('https://example.com/')).toBe('example.com');
  });

  it('refuses a source with no rows rather than removing everything', () => {
    expect(() => syncEdits(base, [], { name: 'Stores sheet', keys: ['a', 'b', 'c'] })).toThrow(/no rows/);
  });
});
