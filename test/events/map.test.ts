/** The map decider, given / when / then: given past events, when a command, then new events or an error. */
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../events/errors.js';
import { decideMap, evolveMap, initialMapState, type MapCommand, type MapContext, type MapEvent } from '../../events/map.js';
import { emptyMapDocument, Location } from '../../events/map-document.js';
import type { Principal } from '../../events/principal.js';

const NOW = new Date('2026-11-22T10:00:00.000Z');
const ana: Principal = { uid: 'ana', email: 'ana@example.com', emailVerified: true, displayName: 'Ana', admin: false, stripeRole: null };
const ben: Principal = { ...ana, uid: 'ben', email: 'ben@example.com', displayName: 'Ben' };
const admin: Principal = { ...ana, uid: 'root', admin: true };

function given(events: MapEvent[]) {
  const state = events.reduce(evolveMap, initialMapState);
  return {
    when(command: MapCommand, context: Partial<MapContext> = {}) {
      const run = () => decideMap(command, state, { principal: ana, now: NOW, testMapsInUse: 0, ...context });
      return {
        then: (expected: MapEvent[]) => expect(run()).toEqual(expected),
        thenError: (code: DomainError['code'], message?: string) => {
          let error: unknown;
          try {
            run();
          } catch (caught) {
            error = caught;
          }
          expect(error).toBeInstanceOf(DomainError);
          expect((error as DomainError).code).toBe(code);
          if (message) expect((error as DomainError).message).toBe(message);
        },
      };
    },
  };
}

const created: MapEvent = {
  type: 'MapCreated',
  data: { mapId: 'm1', uid: 'ana', author: 'ana', title: 'Mall', state: 0, document: emptyMapDocument(), created: '2026-11-20T09:00:00.000Z' },
};
const create = (title = 'Mall'): MapCommand => ({ type: 'CreateMap', data: { mapId: 'm1', title, document: emptyMapDocument() } });

describe('createMap', () => {
  it('creates a test map (state 0) owned and authored by the caller, with created and edited times, publishing its edits when published (issue 27)', () => {
    given([]).when(create('  Mall  ')).then([
      { type: 'MapCreated', data: { mapId: 'm1', uid: 'ana', author: 'ana', title: 'Mall', state: 0, document: emptyMapDocument(), created: NOW.toISOString(), publishMode: 'manual' } },
    ]);
    const state = evolveMap(initialMapState, created);
    expect(state).toMatchObject({ status: 'active', created: created.data.created, edited: created.data.created });
  });

  it("refuses without a user with 'Unauthenticated'", () => {
    given([]).when(create(), { principal: null }).thenError('unauthenticated', 'Unauthenticated');
  });

  it('needs a free test slot: refused with 2 test maps, allowed with 1, always for an admin', () => {
    given([]).when(create(), { testMapsInUse: 2 }).thenError('resource-exhausted');
    expect(decideMap(create(), initialMapState, { principal: ana, now: NOW, testMapsInUse: 1 })).toHaveLength(1);
    expect(decideMap(create(), initialMapState, { principal: admin, now: NOW, testMapsInUse: 50 })).toHaveLength(1);
  });

  it('refuses an empty or overlong title', () => {
    given([]).when(create('   ')).thenError('invalid-argument');
    given([]).when(create('x'.repeat(121))).thenError('invalid-argument');
  });

  it('refuses to create a map twice', () => {
    given([created]).when(create()).thenError('aborted');
  });
});

const renamed = (title: string): MapEvent => ({ type: 'MapSaved', data: { mapId: 'm1', title, edited: NOW.toISOString() } });
const locationAdded = (id: string): MapEvent => ({
  type: 'LocationAdded',
  data: { mapId: 'm1', edited: NOW.toISOString(), location: Location.parse({ id, title: id, layer: 'ground' }) },
});
const staleMessage = (loaded: number, now: number) =>
  `This map changed since you loaded it (revision ${loaded}; it is now at ${now}). Load it again and reapply your changes.`;

describe('saveMap', () => {
  const save = (data: Partial<{ title: string; document: ReturnType<typeof emptyMapDocument>; expectedRevision: bigint }>): MapCommand => ({
    type: 'SaveMap',
    data: { mapId: 'm1', ...data },
  });
  const document = { ...emptyMapDocument(), layers: [{ id: 'l1', name: 'Ground', file: null }] };

  it("saves the owner's title and document, loaded at the map's revision, with the edit time", () => {
    given([created]).when(save({ title: 'Mall 2', document, expectedRevision: 0n })).then([
      { type: 'MapSaved', data: { mapId: 'm1', title: 'Mall 2', document, edited: NOW.toISOString() } },
    ]);
    given([created, renamed('Mall 2'), locationAdded('cafe')]).when(save({ document, expectedRevision: 2n })).then([
      { type: 'MapSaved', data: { mapId: 'm1', document, edited: NOW.toISOString() } },
    ]);
  });

  it('refuses a document loaded before the map changed (aborted, with both revisions): it would erase those changes', () => {
    given([created, locationAdded('cafe')]).when(save({ document, expectedRevision: 0n })).thenError('aborted', staleMessage(0, 1));
    given([created, renamed('Mall 2'), locationAdded('cafe'), locationAdded('bank')])
      .when(save({ title: 'Mall 3', document, expectedRevision: 1n }))
      .thenError('aborted', staleMessage(1, 3));
  });

  it('refuses a document without the revision it was loaded at, or with one the map never had', () => {
    given([created]).when(save({ document })).thenError('invalid-argument', 'revision: Give the revision the map data was loaded at, to save it whole.');
    given([created]).when(save({ document, expectedRevision: 4n })).thenError('invalid-argument', 'revision: This map has no revision 4 (it is at 0).');
  });

  it('saves a title alone without a revision (last write wins), and checks one when given', () => {
    given([created, locationAdded('cafe')]).when(save({ title: 'Mall 2' })).then([renamed('Mall 2')]);
    given([created, locationAdded('cafe')]).when(save({ title: 'Mall 2', expectedRevision: 0n })).thenError('aborted', staleMessage(0, 1));
  });

  it('changes nothing when nothing is given', () => {
    given([created]).when(save({})).then([]);
  });

  it("refuses another user's map, an unknown map, and a deleted map", () => {
    given([created]).when(save({ title: 'Mine now' }), { principal: ben }).thenError('permission-denied');
    given([created, locationAdded('cafe')]).when(save({ document, expectedRevision: 0n }), { principal: ben }).thenError('permission-denied');
    given([]).when(save({ title: 'x' })).thenError('not-found');
    given([created, { type: 'MapDeleted', data: { mapId: 'm1', deletedAt: NOW.toISOString() } }])
      .when(save({ title: 'x' }))
      .thenError('not-found');
  });
});

describe('adminUpdateMap', () => {
  const update = (data: Partial<Extract<MapCommand, { type: 'AdminUpdateMap' }>['data']>): MapCommand => ({ type: 'AdminUpdateMap', data: { mapId: 'm1', ...data } });
  const document = { ...emptyMapDocument(), layers: [{ id: 'l1', name: 'Ground', file: null }] };

  it("replaces an owner's document only from a copy at the map's revision, like saveMap", () => {
    given([created, locationAdded('cafe')]).when(update({ document, expectedRevision: 1n, state: 1 }), { principal: admin }).then([
      { type: 'MapSaved', data: { mapId: 'm1', document, edited: NOW.toISOString() } },
      { type: 'MapStateChanged', data: { mapId: 'm1', state: 1, subscribed: false, changed: NOW.toISOString() } },
    ]);
    given([created, locationAdded('cafe')]).when(update({ document, expectedRevision: 0n, state: 1 }), { principal: admin }).thenError('aborted', staleMessage(0, 1));
    given([created]).when(update({ document }), { principal: admin }).thenError('invalid-argument');
  });

  it("changes the title and state without a revision (billing's state changes give none)", () => {
    given([created, locationAdded('cafe')]).when(update({ title: 'Checked', state: 1 }), { principal: admin }).then([
      { type: 'MapSaved', data: { mapId: 'm1', title: 'Checked', edited: NOW.toISOString() } },
      { type: 'MapStateChanged', data: { mapId: 'm1', state: 1, subscribed: false, changed: NOW.toISOString() } },
    ]);
  });

  it('is for admins only', () => {
    given([created]).when(update({ state: 1 })).thenError('permission-denied');
  });
});

describe('deleteMap', () => {
  const remove: MapCommand = { type: 'DeleteMap', data: { mapId: 'm1' } };

  it('marks the map deleted (the stream stays for audit)', () => {
    given([created]).when(remove).then([{ type: 'MapDeleted', data: { mapId: 'm1', deletedAt: NOW.toISOString() } }]);
    const state = [created, { type: 'MapDeleted', data: { mapId: 'm1', deletedAt: NOW.toISOString() } } as MapEvent].reduce(
      evolveMap,
      initialMapState,
    );
    expect(state).toEqual({ status: 'deleted', mapId: 'm1', uid: 'ana' });
  });

  it("refuses another user's map and a map already deleted", () => {
    given([created]).when(remove, { principal: ben }).thenError('permission-denied');
    given([created, { type: 'MapDeleted', data: { mapId: 'm1', deletedAt: NOW.toISOString() } }]).when(remove).thenError('not-found');
  });
});
