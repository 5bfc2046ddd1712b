/**
 * Drafts, review and scheduled publishing (events/map-publishing.ts through decideMap): new maps
 * start manual, maps recorded before stay live, the owner publishes (now, an earlier revision,
 * or later), editors only propose, the scheduler publishes once its time has come.
 */
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../events/errors.js';
import { decideMap, evolveMap, initialMapState, MapEvent, publishingOf, type MapAggregate, type MapCommand } from '../../events/map.js';
import { emptyMapDocument } from '../../events/map-document.js';
import { publicRevision } from '../../events/map-publishing.js';
import { describeEvent } from '../../events/map-timeline.js';
import type { Principal } from '../../events/principal.js';

const NOW = new Date('2026-11-29T10:00:00.000Z');
const ada: Principal = { uid: 'ada', email: 'ada@example.com', emailVerified: true, displayName: 'Ada', admin: false, stripeRole: null };
const ben: Principal = { ...ada, uid: 'ben', email: 'ben@example.com', displayName: 'Ben' };
const scheduler: Principal = { ...ada, uid: 'mapfold-scheduler', displayName: 'Mapfold', admin: true };

type Active = Extract<MapAggregate, { status: 'active' }>;

function decide(state: MapAggregate, command: MapCommand, principal: Principal = ada, now = NOW): MapEvent[] {
  const events = decideMap(command, state, { principal, now, testMapsInUse: 0 });
  // Every event decided here is one the readers take (the command handler checks the same).
  for (const event of events) expect(MapEvent.safeParse(event).success, event.type).toBe(true);
  return events;
}

function apply(state: MapAggregate, events: MapEvent[]): Active {
  const next = events.reduce(evolveMap, state);
  if (next.status !== 'active') throw new Error('not active');
  return next;
}

/** A new map of Ada's, with Ben as its editor. */
function newMap(): Active {
  let state = apply(initialMapState, decide(initialMapState, { type: 'CreateMap', data: { mapId: 'm1', title: 'Mall', document: emptyMapDocument() } }));
  state = apply(state, [{ type: 'MapInvitationAccepted', data: { mapId: 'm1', invitationId: 'i1', uid: 'ben', displayName: 'Ben', email: 'ben@example.com', role: 'editor', accepted: NOW.toISOString() } }]);
  return state;
}

function edit(state: Active, name: string, principal: Principal = ada): Active {
  return apply(state, decide(state, { type: 'EditMap', data: { mapId: 'm1', edits: [{ type: 'LayerAdded', layer: { id: name, name, file: null } }] } }, principal));
}

function refused(run: () => unknown, code: DomainError['code'], message?: RegExp): void {
  let error: unknown;
  try {
    run();
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(DomainError);
  expect((error as DomainError).code).toBe(code);
  if (message) expect((error as DomainError).message).toMatch(message);
}

describe('publishing a map', () => {
  it('starts a new map manual and never published: not public yet', () => {
    const created = decide(initialMapState, { type: 'CreateMap', data: { mapId: 'm1', title: 'Mall', document: emptyMapDocument() } });
    expect(created.map((e) => e.type)).toEqual(['MapCreated']);
    expect(created[0]!.data).toMatchObject({ publishMode: 'manual' });
    const map = newMap();
    expect(publishingOf(map)).toMatchObject({ mode: 'manual', publishedRevision: null });
    expect(publicRevision(publishingOf(map), map.revision)).toBeNull();
  });

  it('keeps a map recorded before publishing existed live: the public sees every revision', () => {
    const old = apply(initialMapState, [
      { type: 'MapCreated', data: { mapId: 'm1', uid: 'ada', author: 'ada', title: 'Old', state: 1, document: emptyMapDocument(), created: NOW.toISOString() } },
    ]);
    const edited = edit(old, 'f1');
    expect(publishingOf(edited).mode).toBe('live');
    expect(publicRevision(publishingOf(edited), edited.revision)).toBe(edited.revision);
    refused(() => decide(edited, { type: 'PublishMapChanges', data: { mapId: 'm1' } }), 'invalid-argument', /publishes every edit at once/);
  });

  it('publishes the current revision, then an earlier one as a rollback; the same revision twice records nothing', () => {
    let map = edit(newMap(), 'f1');
    const first = map.revision;
    map = apply(map, decide(map, { type: 'PublishMapChanges', data: { mapId: 'm1' } }));
    expect(publishingOf(map)).toMatchObject({ publishedRevision: first, publishedBy: 'ada' });
    map = edit(map, 'f2', ben);
    // An editor's edit is a proposal: the public still sees the published revision.
    expect(publicRevision(publishingOf(map), map.revision)).toBe(first);
    const current = map.revision;
    const now = decide(map, { type: 'PublishMapChanges', data: { mapId: 'm1' } });
    expect(now).toEqual([{ type: 'MapPublished', data: { mapId: 'm1', revision: String(current), at: NOW.toISOString(), by: 'ada' } }]);
    map = apply(map, now);
    const back = decide(map, { type: 'PublishMapChanges', data: { mapId: 'm1', revision: first } });
    expect(back).toEqual([{ type: 'MapPublished', data: { mapId: 'm1', revision: String(first), at: NOW.toISOString(), by: 'ada', rollback: true } }]);
    map = apply(map, back);
    expect(decide(map, { type: 'PublishMapChanges', data: { mapId: 'm1', revision: first } })).toEqual([]);
    expect(describeEvent(map, back[0]!, 'Ada').summary).toBe(`Ada rolled the public map back to revision ${first}`);
    expect(describeEvent(map, now[0]!, 'Ada').summary).toBe(`Ada published revision ${current}`);
  });

  it('refuses a revision the map does not have', () => {
    const map = newMap();
    refused(() => decide(map, { type: 'PublishMapChanges', data: { mapId: 'm1', revision: map.revision + 1 } }), 'invalid-argument', /has no revision/);
    refused(() => decide(map, { type: 'PublishMapChanges', data: { mapId: 'm1', revision: -1 } }), 'invalid-argument', /has no revision/);
  });

  it('lets only the owner (and admins) publish, schedule and set the mode; editors propose', () => {
    const map = edit(newMap(), 'f1', ben);
    refused(() => decide(map, { type: 'PublishMapChanges', data: { mapId: 'm1' } }, ben), 'permission-denied', /Only the map’s owner/);
    refused(() => decide(map, { type: 'SetMapPublishMode', data: { mapId: 'm1', mode: 'live' } }, ben), 'permission-denied');
    refused(() => decide(map, { type: 'CancelScheduledPublish', data: { mapId: 'm1' } }, ben), 'permission-denied');
    refused(() => decide(map, { type: 'RunScheduledPublish', data: { mapId: 'm1' } }, ben), 'permission-denied');
    refused(() => decide(initialMapState, { type: 'PublishMapChanges', data: { mapId: 'm1' } }), 'not-found');
  });

  it('schedules a later publish, which the scheduler makes once its time has come, and only then', () => {
    let map = edit(newMap(), 'f1');
    const reviewed = map.revision;
    const at = '2026-12-01T09:00:00.000Z';
    const scheduled = decide(map, { type: 'PublishMapChanges', data: { mapId: 'm1', at } });
    expect(scheduled).toEqual([{ type: 'MapPublishScheduled', data: { mapId: 'm1', revision: String(map.revision), publishAt: at, by: 'ada' } }]);
    map = apply(map, scheduled);
    map = edit(map, 'f2');
    expect(decide(map, { type: 'RunScheduledPublish', data: { mapId: 'm1' } }, scheduler, new Date('2026-12-01T08:59:59.999Z'))).toEqual([]);
    const due = decide(map, { type: 'RunScheduledPublish', data: { mapId: 'm1' } }, scheduler, new Date(at));
    // The revision reviewed when it was scheduled, in the name of whoever scheduled it.
    expect(due).toEqual([{ type: 'MapPublished', data: { mapId: 'm1', revision: String(reviewed), at, by: 'ada', rollback: true } }]);
    map = apply(map, due);
    expect(publishingOf(map).scheduled).toBeNull();
    // A second run (another process deciding again after the first one's append) records nothing.
    expect(decide(map, { type: 'RunScheduledPublish', data: { mapId: 'm1' } }, scheduler, new Date(at))).toEqual([]);
  });

  it('cancels a schedule; publishing now or going live replaces it', () => {
    let map = edit(newMap(), 'f1');
    const later = { type: 'PublishMapChanges', data: { mapId: 'm1', at: '2026-12-01T09:00:00.000Z' } } as const;
    map = apply(map, decide(map, later));
    expect(decide(map, { type: 'CancelScheduledPublish', data: { mapId: 'm1' } })).toEqual([{ type: 'MapPublishScheduleCancelled', data: { mapId: 'm1', by: 'ada' } }]);
    map = apply(map, decide(map, { type: 'PublishMapChanges', data: { mapId: 'm1' } }));
    expect(publishingOf(map).scheduled).toBeNull();
    map = apply(map, decide(map, later));
    const live = decide(map, { type: 'SetMapPublishMode', data: { mapId: 'm1', mode: 'live' } });
    expect(live.map((e) => e.type)).toEqual(['MapPublishScheduleCancelled', 'MapPublishModeSet']);
    map = apply(map, live);
    expect(publishingOf(map)).toMatchObject({ mode: 'live', scheduled: null });
    expect(decide(map, { type: 'SetMapPublishMode', data: { mapId: 'm1', mode: 'live' } })).toEqual([]);
  });

  it('going from live to manual publishes what the public sees now, so nothing changes for it', () => {
    let map = apply(initialMapState, [
      { type: 'MapCreated', data: { mapId: 'm1', uid: 'ada', author: 'ada', title: 'Old', state: 1, document: emptyMapDocument(), created: NOW.toISOString() } },
    ]);
    map = edit(map, 'f1');
    const before = map.revision;
    map = apply(map, decide(map, { type: 'SetMapPublishMode', data: { mapId: 'm1', mode: 'manual' } }));
    expect(publishingOf(map)).toMatchObject({ mode: 'manual', publishedRevision: before });
    map = edit(map, 'f2');
    expect(publicRevision(publishingOf(map), map.revision)).toBe(before);
  });

  it('publishes a draft map never published when it first takes a slot (the Publish button)', () => {
    const map = edit(newMap(), 'f1');
    const events = decide(map, { type: 'AdminUpdateMap', data: { mapId: 'm1', state: 1, subscribed: true } }, { ...ada, admin: true });
    expect(events.map((e) => e.type)).toEqual(['MapStateChanged', 'MapPublished']);
    const after = apply(map, events);
    expect(publishingOf(after).publishedRevision).toBe(map.revision + 1);
    // Once published, a later slot change publishes nothing by itself.
    const again = decide(after, { type: 'AdminUpdateMap', data: { mapId: 'm1', state: 3 } }, { ...ada, admin: true });
    expect(again.map((e) => e.type)).toEqual(['MapStateChanged']);
  });
});
