/**
 * Sharing a map on its stream (events/map-sharing.ts through decideMap), given / when / then:
 * invitations (expiry, wrong token, revoked), members' roles, leaving, the view link, and the
 * content commands deciding by the policy (editors edit, viewers and removed members do not).
 */
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../events/errors.js';
import { decideMap, evolveMap, initialMapState, type MapAggregate, type MapCommand, type MapContext, type MapEvent } from '../../events/map.js';
import { emptyMapDocument, Location } from '../../events/map-document.js';
import { describeEvent } from '../../events/map-timeline.js';
import type { Principal } from '../../events/principal.js';

const NOW = new Date('2026-11-22T10:00:00.000Z');
const DAY = 24 * 60 * 60 * 1000;
const ada: Principal = { uid: 'ada', email: 'ada@example.com', emailVerified: true, displayName: 'Ada', admin: false, stripeRole: null };
const ben: Principal = { ...ada, uid: 'ben', email: 'ben@example.com', displayName: 'Ben' };
const cy: Principal = { ...ada, uid: 'cy', email: 'cy@example.com', displayName: 'Cy' };
const admin: Principal = { ...ada, uid: 'root', email: 'root@example.com', displayName: 'Root', admin: true };
const HASH_A = 'a'.repeat(64);
const HASH_B = 'b'.repeat(64);

function fold(events: MapEvent[]): MapAggregate {
  return events.reduce(evolveMap, initialMapState);
}

function given(events: MapEvent[]) {
  const state = fold(events);
  return {
    when(command: MapCommand, context: Partial<MapContext> = {}) {
      const run = () => decideMap(command, state, { principal: ada, now: NOW, testMapsInUse: 0, ...context });
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
  data: { mapId: 'm1', uid: 'ada', author: 'ada', title: 'Mall', state: 0, document: emptyMapDocument(), created: '2026-11-20T09:00:00.000Z' },
};
const invited = (email: string, role: 'editor' | 'viewer', tokenHash = HASH_A, invitationId = 'i1', at = '2026-11-21T10:00:00.000Z'): MapEvent => ({
  type: 'MapMemberInvited',
  data: { mapId: 'm1', invitationId, email, role, tokenHash, invitedBy: 'ada', invited: at, expires: new Date(Date.parse(at) + 14 * DAY).toISOString() },
});
const accepted = (who: Principal, role: 'editor' | 'viewer', invitationId = 'i1'): MapEvent => ({
  type: 'MapInvitationAccepted',
  data: { mapId: 'm1', invitationId, uid: who.uid, displayName: who.displayName, email: who.email, role, accepted: '2026-11-21T11:00:00.000Z' },
});
const benEditor = [created, invited('ben@example.com', 'editor'), accepted(ben, 'editor')];
const cyViewer = [invited('cy@example.com', 'viewer', HASH_B, 'i2'), accepted(cy, 'viewer', 'i2')];
const accept = (tokenHash = HASH_A): MapCommand => ({ type: 'AcceptInvitation', data: { mapId: 'm1', tokenHash } });
const addLocation: MapCommand = { type: 'EditMap', data: { mapId: 'm1', edits: [{ type: 'LocationAdded', location: Location.parse({ id: 'l1', title: 'Cafe', layer: 'ground' }) }] } };

describe('inviting', () => {
  it('records the invitation with the token hash, never the token, expiring in 14 days', () => {
    given([created])
      .when({ type: 'InviteToMap', data: { mapId: 'm1', invitationId: 'i1', email: 'ben@example.com', role: 'editor', tokenHash: HASH_A } })
      .then([
        {
          type: 'MapMemberInvited',
          data: {
            mapId: 'm1', invitationId: 'i1', email: 'ben@example.com', role: 'editor', tokenHash: HASH_A, invitedBy: 'ada',
            invited: NOW.toISOString(), expires: '2026-12-06T10:00:00.000Z',
          },
        },
      ]);
  });

  it('is the owner’s (and admins’): editors, viewers and strangers are refused', () => {
    const invite: MapCommand = { type: 'InviteToMap', data: { mapId: 'm1', invitationId: 'i9', email: 'dee@example.com', role: 'viewer', tokenHash: HASH_B } };
    given(benEditor).when(invite, { principal: ben }).thenError('permission-denied', 'Only the map’s owner can do this.');
    given([...benEditor, ...cyViewer]).when(invite, { principal: cy }).thenError('permission-denied');
    given([created]).when(invite, { principal: ben }).thenError('permission-denied', 'You do not have access to this map.');
    given([created]).when(invite, { principal: null }).thenError('unauthenticated');
    expect(decideMap(invite, fold([created]), { principal: admin, now: NOW, testMapsInUse: 0 })).toHaveLength(1);
  });

  it('refuses an existing member, a pending invitation to the same address and the owner’s own address', () => {
    const invite = (email: string): MapCommand => ({ type: 'InviteToMap', data: { mapId: 'm1', invitationId: 'i9', email, role: 'viewer', tokenHash: HASH_B } });
    given(benEditor).when(invite('ben@example.com')).thenError('aborted', 'ben@example.com is already a member of this map: change their role instead.');
    given([created, invited('ben@example.com', 'editor')]).when(invite('ben@example.com')).thenError('aborted');
    given([created]).when(invite('ada@example.com')).thenError('invalid-argument');
    // An expired invitation does not stand in the way of a new one.
    given([created, invited('ben@example.com', 'editor')]).when(invite('ben@example.com'), { now: new Date(NOW.getTime() + 20 * DAY) }).then([
      expect.objectContaining({ type: 'MapMemberInvited' }) as MapEvent,
    ]);
  });

  it('refuses a map that does not exist or was deleted', () => {
    const invite: MapCommand = { type: 'InviteToMap', data: { mapId: 'm1', invitationId: 'i1', email: 'ben@example.com', role: 'viewer', tokenHash: HASH_A } };
    given([]).when(invite).thenError('not-found');
    given([created, { type: 'MapDeleted', data: { mapId: 'm1', deletedAt: NOW.toISOString() } }]).when(invite).thenError('not-found');
  });
});

describe('accepting', () => {
  it('makes the caller a member with the invited role, whatever their address', () => {
    given([created, invited('ben@example.com', 'viewer')]).when(accept(), { principal: cy }).then([
      { type: 'MapInvitationAccepted', data: { mapId: 'm1', invitationId: 'i1', uid: 'cy', displayName: 'Cy', email: 'cy@example.com', role: 'viewer', accepted: NOW.toISOString() } },
    ]);
    const state = fold([created, invited('ben@example.com', 'viewer'), accepted(cy, 'viewer')]);
    expect(state.status === 'active' && state.sharing.members).toEqual({ cy: { role: 'viewer', displayName: 'Cy', email: 'cy@example.com', since: '2026-11-21T11:00:00.000Z' } });
  });

  it('refuses a wrong token, an expired invitation and a revoked one', () => {
    given([created, invited('ben@example.com', 'editor')]).when(accept(HASH_B), { principal: ben }).thenError('not-found', 'This invitation link is not valid.');
    given([created, invited('ben@example.com', 'editor')])
      .when(accept(), { principal: ben, now: new Date(Date.parse('2026-11-21T10:00:00.000Z') + 14 * DAY) })
      .thenError('permission-denied', 'This invitation has expired: ask the map’s owner for a new one.');
    given([created, invited('ben@example.com', 'editor'), { type: 'MapInvitationRevoked', data: { mapId: 'm1', invitationId: 'i1', revokedBy: 'ada', revoked: NOW.toISOString() } }])
      .when(accept(), { principal: ben })
      .thenError('permission-denied', 'This invitation was withdrawn by the map’s owner.');
  });

  it('is used once: its invitee opening it again lands in the map, anyone else is refused', () => {
    given(benEditor).when(accept(), { principal: ben }).then([]);
    given(benEditor).when(accept(), { principal: cy }).thenError('permission-denied', 'This invitation has already been used.');
  });

  it('needs a signed-in caller', () => {
    given([created, invited('ben@example.com', 'editor')]).when(accept(), { principal: null }).thenError('unauthenticated');
  });
});

describe('members', () => {
  it('the owner revokes a pending invitation; an accepted one is a member to remove', () => {
    given([created, invited('ben@example.com', 'editor')]).when({ type: 'RevokeInvitation', data: { mapId: 'm1', invitationId: 'i1' } }).then([
      { type: 'MapInvitationRevoked', data: { mapId: 'm1', invitationId: 'i1', revokedBy: 'ada', revoked: NOW.toISOString() } },
    ]);
    given(benEditor).when({ type: 'RevokeInvitation', data: { mapId: 'm1', invitationId: 'i1' } }).thenError('aborted');
    given(benEditor).when({ type: 'RevokeInvitation', data: { mapId: 'm1', invitationId: 'nope' } }).thenError('not-found');
  });

  it('the owner changes a member’s role; the same role changes nothing; not the owner’s own', () => {
    given(benEditor).when({ type: 'SetMemberRole', data: { mapId: 'm1', uid: 'ben', role: 'viewer' } }).then([
      { type: 'MapMemberRoleChanged', data: { mapId: 'm1', uid: 'ben', role: 'viewer', changedBy: 'ada', changed: NOW.toISOString() } },
    ]);
    given(benEditor).when({ type: 'SetMemberRole', data: { mapId: 'm1', uid: 'ben', role: 'editor' } }).then([]);
    given(benEditor).when({ type: 'SetMemberRole', data: { mapId: 'm1', uid: 'ada', role: 'viewer' } }).thenError('invalid-argument');
    given(benEditor).when({ type: 'SetMemberRole', data: { mapId: 'm1', uid: 'cy', role: 'viewer' } }).thenError('not-found');
    given(benEditor).when({ type: 'SetMemberRole', data: { mapId: 'm1', uid: 'ben', role: 'viewer' } }, { principal: ben }).thenError('permission-denied');
  });

  it('a member leaves; the owner cannot; a stranger is not a member', () => {
    given(benEditor).when({ type: 'LeaveMap', data: { mapId: 'm1' } }, { principal: ben }).then([
      { type: 'MapMemberLeft', data: { mapId: 'm1', uid: 'ben', left: NOW.toISOString() } },
    ]);
    given(benEditor).when({ type: 'LeaveMap', data: { mapId: 'm1' } }).thenError('permission-denied', 'The owner cannot leave their own map.');
    given(benEditor).when({ type: 'LeaveMap', data: { mapId: 'm1' } }, { principal: cy }).thenError('permission-denied');
  });

  it('a removed member can no longer edit, see or leave', () => {
    const removed: MapEvent = { type: 'MapMemberRemoved', data: { mapId: 'm1', uid: 'ben', removedBy: 'ada', removed: NOW.toISOString() } };
    given(benEditor).when({ type: 'RemoveMember', data: { mapId: 'm1', uid: 'ben' } }).then([removed]);
    given([...benEditor, removed]).when(addLocation, { principal: ben }).thenError('permission-denied', 'You do not have access to this map.');
    given([...benEditor, removed]).when({ type: 'LeaveMap', data: { mapId: 'm1' } }, { principal: ben }).thenError('permission-denied');
    given([...benEditor, removed]).when({ type: 'RemoveMember', data: { mapId: 'm1', uid: 'ben' } }).thenError('not-found');
  });
});

describe('content and history by role', () => {
  it('an editor edits, saves, names and restores versions; a viewer is told why not', () => {
    const state = fold([...benEditor, ...cyViewer]);
    const context = (principal: Principal): MapContext => ({ principal, now: NOW, testMapsInUse: 0 });
    expect(decideMap(addLocation, state, context(ben))).toHaveLength(1);
    expect(decideMap({ type: 'SaveMap', data: { mapId: 'm1', title: 'Mall 2' } }, state, context(ben))).toHaveLength(1);
    expect(decideMap({ type: 'SaveVersion', data: { mapId: 'm1', historyId: 'h1', name: 'Launch' } }, state, context(ben))).toHaveLength(1);
    given([...benEditor, ...cyViewer])
      .when(addLocation, { principal: cy })
      .thenError('permission-denied', 'You can view this map but not change it: ask its owner to make you an editor.');
    given([...benEditor, ...cyViewer]).when({ type: 'SaveVersion', data: { mapId: 'm1', historyId: 'h1' } }, { principal: cy }).thenError('permission-denied');
  });

  it('deleting is the owner’s (and admins’), not an editor’s', () => {
    const remove: MapCommand = { type: 'DeleteMap', data: { mapId: 'm1' } };
    given(benEditor).when(remove, { principal: ben }).thenError('permission-denied', 'Only the map’s owner can do this.');
    expect(decideMap(remove, fold(benEditor), { principal: admin, now: NOW, testMapsInUse: 0 })).toHaveLength(1);
  });
});

describe('the view link', () => {
  it('is set anew each time, revoked once, and is the owner’s to manage', () => {
    const set = (keyHash: string | null): MapCommand => ({ type: 'SetViewLink', data: { mapId: 'm1', keyHash } });
    given([created]).when(set(HASH_A)).then([{ type: 'MapViewLinkSet', data: { mapId: 'm1', keyHash: HASH_A, setBy: 'ada', set: NOW.toISOString() } }]);
    given([created]).when(set(null)).then([]);
    const linked: MapEvent = { type: 'MapViewLinkSet', data: { mapId: 'm1', keyHash: HASH_A, setBy: 'ada', set: NOW.toISOString() } };
    given([created, linked]).when(set(null)).then([{ type: 'MapViewLinkRevoked', data: { mapId: 'm1', revokedBy: 'ada', revoked: NOW.toISOString() } }]);
    given([...benEditor, linked]).when(set(HASH_B), { principal: ben }).thenError('permission-denied');
    const state = fold([created, linked]);
    expect(state.status === 'active' && state.sharing.viewLink).toEqual({ keyHash: HASH_A, set: NOW.toISOString() });
  });
});

describe('in the timeline', () => {
  it('says who shared what, never a token or a key', () => {
    const events: MapEvent[] = [
      ...benEditor,
      { type: 'MapMemberRoleChanged', data: { mapId: 'm1', uid: 'ben', role: 'viewer', changedBy: 'ada', changed: NOW.toISOString() } },
      { type: 'MapViewLinkSet', data: { mapId: 'm1', keyHash: HASH_B, setBy: 'ada', set: NOW.toISOString() } },
      { type: 'MapMemberRemoved', data: { mapId: 'm1', uid: 'ben', removedBy: 'ada', removed: NOW.toISOString() } },
    ];
    const words: string[] = [];
    let state = initialMapState;
    for (const event of events) {
      words.push(describeEvent(state, event, event.type === 'MapInvitationAccepted' ? 'Ben' : 'Ada').summary);
      state = evolveMap(state, event);
    }
    expect(words.slice(1)).toEqual([
      'Ada invited ben@example.com as editor',
      'Ben joined as editor',
      'Ada made Ben a viewer',
      'Ada turned on the view link: anyone with it can view the map',
      'Ada removed Ben from the map',
    ]);
    expect(words.join(' ')).not.toMatch(/a{64}|b{64}/);
  });
});
