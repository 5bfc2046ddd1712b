/** History in the map decider, given / when / then: automatic versions, restore, who may. */
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../events/errors.js';
import { decideMap, evolveMap, initialMapState, type MapCommand, type MapEvent } from '../../events/map.js';
import { emptyMapDocument, Location } from '../../events/map-document.js';
import { describeEvent } from '../../events/map-timeline.js';
import type { Principal } from '../../events/principal.js';

const ana: Principal = { uid: 'ana', email: 'ana@example.com', emailVerified: true, displayName: 'Ana', admin: false, stripeRole: null };
const ben: Principal = { ...ana, uid: 'ben', displayName: 'Ben' };
const created: MapEvent = {
  type: 'MapCreated',
  data: { mapId: 'm1', uid: 'ana', author: 'ana', title: 'Mall', state: 0, document: emptyMapDocument(), created: '2026-11-20T09:00:00.000Z' },
};
const cafe = Location.parse({ id: 'cafe', title: 'Cafe', layer: 'ground', position: { x: 1, y: 1 } });
const addCafe: MapCommand = { type: 'EditMap', data: { mapId: 'm1', edits: [{ type: 'LocationAdded', location: cafe }] } };
const at = (iso: string) => new Date(iso);
let ids = 0;
const decide = (events: MapEvent[], command: MapCommand, now = at('2026-11-20T10:00:00.000Z'), principal = ana) =>
  decideMap(command, events.reduce(evolveMap, initialMapState), { principal, now, testMapsInUse: 0, newHistoryId: () => `h${++ids}` });

describe('automatic versions', () => {
  it('keeps the map as it was when a stretch of editing begins', () => {
    const events = decide([created], addCafe);
    expect(events.map((event) => event.type)).toEqual(['VersionSaved', 'LocationAdded']);
    expect(events[0]).toMatchObject({ data: { revision: '0', auto: true, author: 'ana' } });
  });

  it('makes no other one within 30 minutes, nor when nothing changed since the last one', () => {
    const first = decide([created], addCafe, at('2026-11-20T10:00:00.000Z'));
    const history = [created, ...first];
    const moveCafe: MapCommand = { type: 'EditMap', data: { mapId: 'm1', edits: [{ type: 'LocationMoved', id: 'cafe', position: { x: 5, y: 5 } }] } };
    expect(decide(history, moveCafe, at('2026-11-20T10:29:00.000Z')).map((event) => event.type)).toEqual(['LocationMoved']);
    // Half an hour later, with edits since the last version: a new one, at the current revision.
    const later = decide(history, moveCafe, at('2026-11-20T10:31:00.000Z'));
    expect(later.map((event) => event.type)).toEqual(['VersionSaved', 'LocationMoved']);
    expect(later[0]).toMatchObject({ data: { revision: '2', auto: true } });
    // A named version saved after the last edit: nothing new to keep.
    const saved = decide(history, { type: 'SaveVersion', data: { mapId: 'm1', historyId: 'v1', name: 'Launch' } });
    expect(decide([...history, ...saved], moveCafe, at('2026-11-20T12:00:00.000Z')).map((event) => event.type)).toEqual(['LocationMoved']);
  });
});

describe('restore', () => {
  const saved = decide([created], { type: 'SaveVersion', data: { mapId: 'm1', historyId: 'empty', name: 'Empty' } });
  const edited = [created, ...saved, ...decide([created, ...saved], addCafe)];

  it('keeps the map as it is, then restores the document as one event', () => {
    const events = decide(edited, { type: 'RestoreVersion', data: { mapId: 'm1', historyId: 'empty', document: emptyMapDocument(), autoHistoryId: 'before' } });
    expect(events.map((event) => event.type)).toEqual(['VersionSaved', 'MapRestored']);
    expect(events[0]).toMatchObject({ data: { historyId: 'before', name: 'Before restoring “Empty”', auto: true, revision: String(edited.length - 1) } });
    const after = [...edited, ...events].reduce(evolveMap, initialMapState);
    expect(after.status === 'active' && after.document.locations).toEqual([]);
    // In words, told against the map just before it.
    const before = [...edited, events[0]!].reduce(evolveMap, initialMapState);
    expect(describeEvent(before, events[1]!, 'Ben').summary).toBe('Ben restored “Empty”');
  });

  it('refuses another user, and a version that does not exist', () => {
    const run = (command: MapCommand, principal: Principal) => {
      try {
        decide(edited, command, undefined, principal);
      } catch (error) {
        return error as DomainError;
      }
      return null;
    };
    expect(run({ type: 'RestoreVersion', data: { mapId: 'm1', historyId: 'empty', document: emptyMapDocument(), autoHistoryId: 'x' } }, ben)?.code).toBe('permission-denied');
    expect(run({ type: 'RenameVersion', data: { mapId: 'm1', historyId: 'nope', name: 'X' } }, ana)?.code).toBe('not-found');
    expect(run({ type: 'DeleteVersion', data: { mapId: 'm1', historyId: 'empty' } }, ben)?.code).toBe('permission-denied');
  });
});
