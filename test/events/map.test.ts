/** The map decider, given / when / then: given past events, when a command, then new events or an error. */
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../events/errors.js';
import { decideMap, evolveMap, initialMapState, type MapCommand, type MapContext, type MapEvent } from '../../events/map.js';
import { emptyMapDocument } from '../../events/map-document.js';
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
  it('creates a test map (state 0) owned and authored by the caller, with created and edited times', () => {
    given([]).when(create('  Mall  ')).then([
      { type: 'MapCreated', data: { mapId: 'm1', uid: 'ana', author: 'ana', title: 'Mall', state: 0, document: emptyMapDocument(), created: NOW.toISOString() } },
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

describe('saveMap', () => {
  const save = (data: Partial<{ title: string; document: ReturnType<typeof emptyMapDocument> }>): MapCommand => ({
    type: 'SaveMap',
    data: { mapId: 'm1', ...data },
  });

  it("saves the owner's title and document with the edit time", () => {
    const document = { ...emptyMapDocument(), layers: [{ id: 'l1', name: 'Ground', file: null }] };
    given([created]).when(save({ title: 'Mall 2', document })).then([
      { type: 'MapSaved', data: { mapId: 'm1', title: 'Mall 2', document, edited: NOW.toISOString() } },
    ]);
  });

  it('changes nothing when nothing is given', () => {
    given([created]).when(save({})).then([]);
  });

  it("refuses another user's map, an unknown map, and a deleted map", () => {
    given([created]).when(save({ title: 'Mine now' }), { principal: ben }).thenError('permission-denied');
    given([]).when(save({ title: 'x' })).thenError('not-found');
    given([created, { type: 'MapDeleted', data: { mapId: 'm1', deletedAt: NOW.toISOString() } }])
      .when(save({ title: 'x' }))
      .thenError('not-found');
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
