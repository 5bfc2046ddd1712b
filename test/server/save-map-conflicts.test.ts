/**
 * A whole-document save (saveMap, an admin's adminUpdateMap with mapData) carries the revision
 * its document was read at; a save made on an older revision is refused with `aborted` (409)
 * and the current revision, so no acknowledged change is ever silently erased. Against a real
 * database, on PGlite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../events/errors.js';
import { functionPayloads } from '../../events/functions.js';
import type { Principal } from '../../events/principal.js';
import { editMap, saveMap } from '../../server/commands/map-commands.js';
import type { EventStore } from '../../ports/event-store.js';
import { databaseTargets } from '../support/databases.js';
import { call, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

interface Location {
  id: string;
  title: string;
  [field: string]: unknown;
}
interface MapData {
  revision: string;
  title: string;
  data: { locations: Location[]; [field: string]: unknown };
}

const STALE = /^This map changed since you loaded it \(revision (\d+); it is now at (\d+)\)\. Load it again and reapply your changes\.$/;

describe.each(databaseTargets)('saving a whole map document on $name', (target) => {
  let server: TestServer;
  let owner: TestUser;
  let admin: TestUser;

  beforeAll(async () => {
    server = await startTestServer(target);
    owner = await registerUser(server);
    admin = await registerUser(server, 'admin@example.com');
  });
  afterAll(() => server.close());

  /** A map with two locations, as its owner made it. */
  async function mapWithTwoLocations(): Promise<string> {
    const made = await call(server, 'createMap', { title: 'Harbour Market' }, admin);
    const id = made.body.result as string;
    const edits = [
      { type: 'LocationAdded', location: { id: 'north', title: 'North gate', layer: 'ground' } },
      { type: 'LocationAdded', location: { id: 'south', title: 'South gate', layer: 'ground' } },
    ];
    const edited = await call(server, 'editMap', { id, edits }, admin);
    expect(edited.status).toBe(200);
    await projected(server, edited.body.position);
    return id;
  }

  /** What an editor loads: the document and the revision it reflects. */
  async function load(id: string, user: TestUser = admin): Promise<MapData> {
    const response = await fetch(`${server.url}/api/maps/${id}/data`, { headers: { cookie: user.cookie } });
    expect(response.status).toBe(200);
    return ((await response.json()) as { result: MapData }).result;
  }

  const retitled = (loaded: MapData, locationId: string, title: string) => ({
    ...loaded.data,
    locations: loaded.data.locations.map((location) => (location.id === locationId ? { ...location, title } : location)),
  });

  const titleOf = (loaded: MapData, locationId: string) => loaded.data.locations.find((location) => location.id === locationId)?.title;

  it('two people saving different locations at once: one is saved, the other told to reload; no saved change is lost', async () => {
    const id = await mapWithTwoLocations();
    for (let round = 1; round <= 10; round++) {
      // Given two copies of the map loaded at the same revision,
      const loaded = await load(id);
      const changes = [
        { locationId: 'north', title: `North gate ${round}` },
        { locationId: 'south', title: `South gate ${round}` },
      ];
      // when both save their change at once,
      const answers = await Promise.all(
        changes.map((change) => call(server, 'saveMap', { id, revision: loaded.revision, mapData: retitled(loaded, change.locationId, change.title) }, admin)),
      );
      // then every save that was acknowledged is in the map,
      const saved = answers.flatMap((answer, index) => (answer.status === 200 ? [{ ...changes[index]!, position: answer.body.position as string }] : []));
      for (const change of saved) await projected(server, change.position);
      const after = await load(id);
      for (const change of saved) expect(titleOf(after, change.locationId)).toBe(change.title);
      // and exactly one was refused, with the revision it was made on and the current one.
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      const refused = answers.find((answer) => answer.status === 409)!;
      expect(refused.body.error.status).toBe('ABORTED');
      expect(refused.body.error.message).toMatch(STALE);
      const [, was, now] = STALE.exec(refused.body.error.message)!;
      expect([was, now]).toEqual([loaded.revision, after.revision]);

      // The refused one loads again and reapplies its change: both are kept.
      const lost = changes[answers.indexOf(refused)]!;
      const again = await call(server, 'saveMap', { id, revision: after.revision, mapData: retitled(after, lost.locationId, lost.title) }, admin);
      expect(again.status).toBe(200);
      await projected(server, again.body.position);
      const final = await load(id);
      expect([titleOf(final, 'north'), titleOf(final, 'south')]).toEqual([`North gate ${round}`, `South gate ${round}`]);
    }
  });

  it('a save made on a copy loaded before an acknowledged editMap is refused, and the edit stays', async () => {
    const id = await mapWithTwoLocations();
    // Given a copy loaded now,
    const stale = await load(id);
    // and an edit acknowledged after it (another tab, another person),
    const edit = await call(server, 'editMap', { id, edits: [{ type: 'LocationAdded', location: { id: 'kiosk', title: 'Kiosk', layer: 'ground' } }] }, admin);
    expect(edit.status).toBe(200);
    await projected(server, edit.body.position);
    const events = (await server.services.store.readStream(`map-${id}`)).length;
    // when the stale copy is saved whole,
    const save = await call(server, 'saveMap', { id, revision: stale.revision, title: 'Renamed', mapData: retitled(stale, 'north', 'North entrance') }, admin);
    // then it is refused with both revisions, nothing is recorded, and the edit is still there.
    expect(save.status).toBe(409);
    expect(save.body.error).toEqual({
      status: 'ABORTED',
      message: `This map changed since you loaded it (revision ${stale.revision}; it is now at ${edit.body.result.revision}). Load it again and reapply your changes.`,
    });
    expect(await server.services.store.readStream(`map-${id}`)).toHaveLength(events);
    const after = await load(id);
    expect(after.data.locations.map((location) => location.id)).toEqual(['north', 'south', 'kiosk']);
    expect(after.title).toBe('Harbour Market');

    // The same for an admin's batch update with the map's data.
    const batch = await call(server, 'adminUpdateMap', { id, revision: stale.revision, mapData: retitled(stale, 'north', 'North entrance'), state: 1 }, admin);
    expect(batch.status).toBe(409);
    expect(batch.body.error.message).toMatch(STALE);
    expect(await server.services.store.readStream(`map-${id}`)).toHaveLength(events);
  });

  it('a save on the current revision is taken; its answer moves the map on', async () => {
    const id = await mapWithTwoLocations();
    const current = await load(id);
    const save = await call(server, 'saveMap', { id, revision: current.revision, mapData: retitled(current, 'north', 'North entrance') }, admin);
    expect(save.status).toBe(200);
    await projected(server, save.body.position);
    const after = await load(id);
    expect(after.revision).toBe(String(Number(current.revision) + 1));
    expect(titleOf(after, 'north')).toBe('North entrance');
    const batch = await call(server, 'adminUpdateMap', { id, revision: after.revision, mapData: retitled(after, 'south', 'South entrance') }, admin);
    expect(batch.status).toBe(200);
  });

  it('a document without a revision, or with one the map never had, is refused; a title alone needs none', async () => {
    const id = await mapWithTwoLocations();
    const current = await load(id);
    const events = (await server.services.store.readStream(`map-${id}`)).length;
    for (const name of ['saveMap', 'adminUpdateMap']) {
      const missing = await call(server, name, { id, mapData: current.data }, admin);
      expect(missing.status).toBe(400);
      expect(missing.body.error.message).toBe('revision: Give the revision the map data was loaded at, to save it whole.');
      const malformed = await call(server, name, { id, revision: 'latest', mapData: current.data }, admin);
      expect(malformed.body.error.message).toBe('revision: Revision must be a whole number, as text.');
      const future = await call(server, name, { id, revision: String(Number(current.revision) + 5), mapData: current.data }, admin);
      expect(future.status).toBe(400);
      expect(future.body.error.message).toBe(`revision: This map has no revision ${Number(current.revision) + 5} (it is at ${current.revision}).`);
    }
    expect(await server.services.store.readStream(`map-${id}`)).toHaveLength(events);
    // The title is one field: the last one saved wins, whoever loaded what.
    expect((await call(server, 'saveMap', { id, title: 'Harbour Market (north)' }, admin)).status).toBe(200);
    expect((await call(server, 'adminUpdateMap', { id, title: 'Harbour Market (checked)', state: 1 }, admin)).status).toBe(200);
  });

  it("the command handler's retry after a concurrent append refuses the stale save, never records it", async () => {
    const id = await mapWithTwoLocations();
    const loaded = await load(id);
    const principal: Principal = { uid: admin.uid, email: 'admin@example.com', emailVerified: true, displayName: 'Test User', admin: true, stripeRole: null };
    const meta = () => ({ principal, now: new Date(), correlationId: 'race', commandId: server.services.ids.uuid() });
    const { store, db, ids } = server.services;
    // Given a store where an edit lands between the save's read and its append (every time):
    let raced = 0;
    const racing: EventStore = Object.assign(Object.create(store) as EventStore, {
      async append(...args: Parameters<EventStore['append']>) {
        raced++;
        await editMap({ store, db, ids }, functionPayloads.editMap.parse({ id, edits: [{ type: 'LayerRenamed', id: 'ground', name: `Ground ${raced}` }] }), meta());
        return store.append(...args);
      },
    });
    // when the save, made on the copy loaded before, runs,
    const payload = functionPayloads.saveMap.parse({ id, revision: loaded.revision, mapData: retitled(loaded, 'north', 'North entrance') });
    const outcome = await saveMap({ store: racing, db, ids }, payload, meta()).then(
      () => 'saved',
      (error: unknown) => error,
    );
    // then its first append meets the edit, and deciding again on the newer map refuses it.
    expect(raced).toBe(1);
    expect(outcome).toBeInstanceOf(DomainError);
    expect((outcome as DomainError).code).toBe('aborted');
    expect((outcome as DomainError).message).toMatch(STALE);
    const recorded = (await store.readStream(`map-${id}`)).map((event) => event.type);
    expect(recorded.at(-1)).toBe('LayerRenamed');
    expect(recorded).not.toContain('MapSaved');
  });

  it("the owner's save follows the same rule", async () => {
    const made = await call(server, 'createMap', { title: 'Owned' }, owner);
    const id = made.body.result as string;
    await projected(server, made.body.position);
    const loaded = await load(id, owner);
    const renamed = await call(server, 'saveMap', { id, title: 'Owned, renamed' }, owner);
    await projected(server, renamed.body.position);
    // A rename moved the stream on: the document loaded before it is a stale copy.
    const stale = await call(server, 'saveMap', { id, revision: loaded.revision, mapData: loaded.data }, owner);
    expect(stale.status).toBe(409);
    const fresh = await load(id, owner);
    expect((await call(server, 'saveMap', { id, revision: fresh.revision, mapData: fresh.data }, owner)).status).toBe(200);
  });
});
