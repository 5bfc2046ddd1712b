/**
 * Sharing a map (issue 16), on the map's own stream: invitations, members and their roles,
 * and the "anyone with the link can view" link. Its events, the part of the map's state they
 * fold into, and the decisions on the sharing commands, all by events/map-access.ts's policy.
 *
 * Secrets never go in an event: an invitation records the SHA-256 of its link's token, the
 * view link the SHA-256 of its key. The server keeps the view link's key itself beside the
 * log (so the owner can see the link again), and compares hashes.
 */
import { z } from 'zod';
import { DomainError } from './errors.js';
import { MemberRole, requireCan, roleOf, type MapAccessFacts } from './map-access.js';
import type { Principal } from './principal.js';
import { INVITATION_TTL_DAYS } from './sharing-api.js';

const at = z.iso.datetime({ offset: true });
/** A SHA-256, lowercase hex: of an invitation's token or of a view link's key. */
export const SecretHash = z.string().regex(/^[0-9a-f]{64}$/);

// ---- events -------------------------------------------------------------------------------

export const MapMemberInvited = z.object({
  type: z.literal('MapMemberInvited'),
  data: z.object({ mapId: z.string(), invitationId: z.string(), email: z.string(), role: MemberRole, tokenHash: SecretHash, invitedBy: z.string(), invited: at, expires: at }),
});

/** The invitee's name and address as their account had them, for the members list and the timeline's words. */
export const MapInvitationAccepted = z.object({
  type: z.literal('MapInvitationAccepted'),
  data: z.object({ mapId: z.string(), invitationId: z.string(), uid: z.string(), displayName: z.string(), email: z.string(), role: MemberRole, accepted: at }),
});

export const MapInvitationRevoked = z.object({
  type: z.literal('MapInvitationRevoked'),
  data: z.object({ mapId: z.string(), invitationId: z.string(), revokedBy: z.string(), revoked: at }),
});

export const MapMemberRoleChanged = z.object({
  type: z.literal('MapMemberRoleChanged'),
  data: z.object({ mapId: z.string(), uid: z.string(), role: MemberRole, changedBy: z.string(), changed: at }),
});

export const MapMemberRemoved = z.object({
  type: z.literal('MapMemberRemoved'),
  data: z.object({ mapId: z.string(), uid: z.string(), removedBy: z.string(), removed: at }),
});

export const MapMemberLeft = z.object({
  type: z.literal('MapMemberLeft'),
  data: z.object({ mapId: z.string(), uid: z.string(), left: at }),
});

/** A new view link: the one before it (if any) stops working. */
export const MapViewLinkSet = z.object({
  type: z.literal('MapViewLinkSet'),
  data: z.object({ mapId: z.string(), keyHash: SecretHash, setBy: z.string(), set: at }),
});

export const MapViewLinkRevoked = z.object({
  type: z.literal('MapViewLinkRevoked'),
  data: z.object({ mapId: z.string(), revokedBy: z.string(), revoked: at }),
});

export const MapSharingEvent = z.discriminatedUnion('type', [
  MapMemberInvited,
  MapInvitationAccepted,
  MapInvitationRevoked,
  MapMemberRoleChanged,
  MapMemberRemoved,
  MapMemberLeft,
  MapViewLinkSet,
  MapViewLinkRevoked,
]);
export type MapSharingEvent = z.infer<typeof MapSharingEvent>;

export const SHARING_EVENT_TYPES: ReadonlySet<string> = new Set(MapSharingEvent.options.map((option) => option.shape.type.value));

export function isSharingEvent(event: { type: string }): event is MapSharingEvent {
  return SHARING_EVENT_TYPES.has(event.type);
}

// ---- state --------------------------------------------------------------------------------

export interface MemberState {
  role: MemberRole;
  displayName: string;
  email: string;
  since: string;
}

export interface InvitationState {
  invitationId: string;
  email: string;
  role: MemberRole;
  tokenHash: string;
  invitedBy: string;
  invited: string;
  expires: string;
  status: 'pending' | 'accepted' | 'revoked';
  /** Who accepted it (an accepted link opened again by them just lands in the map). */
  acceptedBy?: string;
}

export interface SharingState {
  /** Members by uid (the owner is not one). */
  members: Record<string, MemberState>;
  /** Every invitation ever sent, oldest first. */
  invitations: InvitationState[];
  /** The view link's key hash, or null when there is none. */
  viewLink: { keyHash: string; set: string } | null;
}

export function emptySharing(): SharingState {
  return { members: {}, invitations: [], viewLink: null };
}

function withoutMember(members: Record<string, MemberState>, uid: string): Record<string, MemberState> {
  return Object.fromEntries(Object.entries(members).filter(([key]) => key !== uid));
}

function withMember(members: Record<string, MemberState>, uid: string, member: MemberState): Record<string, MemberState> {
  // defineProperty-like: entries never go through a `__proto__` setter, whatever the uid.
  return Object.fromEntries([...Object.entries(members).filter(([key]) => key !== uid), [uid, member]]);
}

export function evolveSharing(sharing: SharingState, event: MapSharingEvent): SharingState {
  switch (event.type) {
    case 'MapMemberInvited': {
      const { invitationId, email, role, tokenHash, invitedBy, invited, expires } = event.data;
      return { ...sharing, invitations: [...sharing.invitations, { invitationId, email, role, tokenHash, invitedBy, invited, expires, status: 'pending' }] };
    }
    case 'MapInvitationAccepted': {
      const { invitationId, uid, displayName, email, role, accepted } = event.data;
      const since = Object.hasOwn(sharing.members, uid) ? sharing.members[uid]!.since : accepted;
      return {
        ...sharing,
        members: withMember(sharing.members, uid, { role, displayName, email, since }),
        invitations: sharing.invitations.map((item) => (item.invitationId === invitationId ? { ...item, status: 'accepted', acceptedBy: uid } : item)),
      };
    }
    case 'MapInvitationRevoked':
      return {
        ...sharing,
        invitations: sharing.invitations.map((item) => (item.invitationId === event.data.invitationId ? { ...item, status: 'revoked' } : item)),
      };
    case 'MapMemberRoleChanged': {
      const member = Object.hasOwn(sharing.members, event.data.uid) ? sharing.members[event.data.uid] : undefined;
      if (!member) return sharing;
      return { ...sharing, members: withMember(sharing.members, event.data.uid, { ...member, role: event.data.role }) };
    }
    case 'MapMemberRemoved':
    case 'MapMemberLeft':
      return { ...sharing, members: withoutMember(sharing.members, event.data.uid) };
    case 'MapViewLinkSet':
      return { ...sharing, viewLink: { keyHash: event.data.keyHash, set: event.data.set } };
    case 'MapViewLinkRevoked':
      return { ...sharing, viewLink: null };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

/** What the access policy needs of a map, from its owner and its sharing state. */
export function sharingFacts(ownerUid: string, sharing: SharingState): MapAccessFacts {
  return { ownerUid, members: Object.fromEntries(Object.entries(sharing.members).map(([uid, member]) => [uid, member.role])) };
}

/** An invitation that can still be accepted at `now`. */
export function isPending(invitation: InvitationState, now: Date): boolean {
  return invitation.status === 'pending' && Date.parse(invitation.expires) > now.getTime();
}

// ---- commands -----------------------------------------------------------------------------

export type MapSharingCommand =
  /** `tokenHash`: the SHA-256 of the link's token, which the server made and mails. */
  | { type: 'InviteToMap'; data: { mapId: string; invitationId: string; email: string; role: MemberRole; tokenHash: string } }
  /** The server found the map by the token's hash (members projection); the decider checks it again. */
  | { type: 'AcceptInvitation'; data: { mapId: string; tokenHash: string } }
  | { type: 'RevokeInvitation'; data: { mapId: string; invitationId: string } }
  | { type: 'SetMemberRole'; data: { mapId: string; uid: string; role: MemberRole } }
  | { type: 'RemoveMember'; data: { mapId: string; uid: string } }
  | { type: 'LeaveMap'; data: { mapId: string } }
  /** `keyHash`: the SHA-256 of a new view link's key; null turns the link off. */
  | { type: 'SetViewLink'; data: { mapId: string; keyHash: string | null } };

export const SHARING_COMMAND_TYPES: ReadonlySet<string> = new Set([
  'InviteToMap', 'AcceptInvitation', 'RevokeInvitation', 'SetMemberRole', 'RemoveMember', 'LeaveMap', 'SetViewLink',
]);

export function isSharingCommand(command: { type: string }): command is MapSharingCommand {
  return SHARING_COMMAND_TYPES.has(command.type);
}

/** The part of an active map the sharing decisions read. */
export interface SharedMap {
  mapId: string;
  uid: string;
  sharing: SharingState;
}

function requireMember(map: SharedMap, uid: string): MemberState {
  if (!Object.hasOwn(map.sharing.members, uid)) throw new DomainError('not-found', 'This person is not a member of this map.');
  return map.sharing.members[uid]!;
}

export function decideSharing(command: MapSharingCommand, map: SharedMap, principal: Principal, now: Date): MapSharingEvent[] {
  const facts = sharingFacts(map.uid, map.sharing);
  const time = now.toISOString();
  const mapId = map.mapId;
  switch (command.type) {
    case 'InviteToMap': {
      requireCan(principal, facts, 'manage');
      const { invitationId, email, role, tokenHash } = command.data;
      if (roleOf(principal, facts) === 'owner' && principal.email.toLowerCase() === email) throw new DomainError('invalid-argument', 'email: This is your own address: you own this map already.');
      if (Object.values(map.sharing.members).some((member) => member.email.toLowerCase() === email)) {
        throw new DomainError('aborted', `${email} is already a member of this map: change their role instead.`);
      }
      if (map.sharing.invitations.some((item) => item.email === email && isPending(item, now))) {
        throw new DomainError('aborted', `${email} is already invited: revoke that invitation to send a new one.`);
      }
      if (map.sharing.invitations.some((item) => item.invitationId === invitationId)) throw new DomainError('aborted', 'This invitation exists already.');
      const expires = new Date(now.getTime() + INVITATION_TTL_DAYS * 24 * 60 * 60 * 1000).toISOString();
      return [{ type: 'MapMemberInvited', data: { mapId, invitationId, email, role, tokenHash, invitedBy: principal.uid, invited: time, expires } }];
    }
    case 'AcceptInvitation': {
      const invitation = map.sharing.invitations.find((item) => item.tokenHash === command.data.tokenHash);
      if (!invitation) throw new DomainError('not-found', 'This invitation link is not valid.');
      if (invitation.status === 'accepted') {
        // The same person opening their link again lands in the map; anyone else is told.
        if (invitation.acceptedBy === principal.uid && roleOf(principal, facts) !== null) return [];
        throw new DomainError('permission-denied', 'This invitation has already been used.');
      }
      if (invitation.status === 'revoked') throw new DomainError('permission-denied', 'This invitation was withdrawn by the map’s owner.');
      if (Date.parse(invitation.expires) <= now.getTime()) throw new DomainError('permission-denied', 'This invitation has expired: ask the map’s owner for a new one.');
      // The owner opening a link they sent stays the owner; the invitation stays open for its invitee.
      if (roleOf(principal, facts) === 'owner') return [];
      return [
        {
          type: 'MapInvitationAccepted',
          data: { mapId, invitationId: invitation.invitationId, uid: principal.uid, displayName: principal.displayName, email: principal.email, role: invitation.role, accepted: time },
        },
      ];
    }
    case 'RevokeInvitation': {
      requireCan(principal, facts, 'manage');
      const invitation = map.sharing.invitations.find((item) => item.invitationId === command.data.invitationId);
      if (!invitation) throw new DomainError('not-found', 'Invitation not found.');
      if (invitation.status === 'accepted') throw new DomainError('aborted', 'This invitation has already been accepted: remove the member instead.');
      if (invitation.status === 'revoked') return [];
      return [{ type: 'MapInvitationRevoked', data: { mapId, invitationId: invitation.invitationId, revokedBy: principal.uid, revoked: time } }];
    }
    case 'SetMemberRole': {
      requireCan(principal, facts, 'manage');
      if (command.data.uid === map.uid) throw new DomainError('invalid-argument', 'uid: The owner’s role cannot change.');
      const member = requireMember(map, command.data.uid);
      if (member.role === command.data.role) return [];
      return [{ type: 'MapMemberRoleChanged', data: { mapId, uid: command.data.uid, role: command.data.role, changedBy: principal.uid, changed: time } }];
    }
    case 'RemoveMember': {
      requireCan(principal, facts, 'manage');
      if (command.data.uid === map.uid) throw new DomainError('invalid-argument', 'uid: The owner cannot be removed from their map.');
      requireMember(map, command.data.uid);
      return [{ type: 'MapMemberRemoved', data: { mapId, uid: command.data.uid, removedBy: principal.uid, removed: time } }];
    }
    case 'LeaveMap': {
      requireCan(principal, facts, 'leave');
      return [{ type: 'MapMemberLeft', data: { mapId, uid: principal.uid, left: time } }];
    }
    case 'SetViewLink': {
      requireCan(principal, facts, 'manage');
      if (command.data.keyHash !== null) return [{ type: 'MapViewLinkSet', data: { mapId, keyHash: command.data.keyHash, setBy: principal.uid, set: time } }];
      if (!map.sharing.viewLink) return [];
      return [{ type: 'MapViewLinkRevoked', data: { mapId, revokedBy: principal.uid, revoked: time } }];
    }
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

// ---- in words -----------------------------------------------------------------------------

/**
 * A sharing event in words, for the timeline ("Ada invited ben@example.com as editor", "Ben
 * joined as editor"). `sharing` is the map's sharing state just before the event (members'
 * names come from there). Never names a token or a key.
 */
export function describeSharingEvent(event: MapSharingEvent, sharing: SharingState, actor: string): string {
  const nameOf = (uid: string) => (Object.hasOwn(sharing.members, uid) ? sharing.members[uid]!.displayName || sharing.members[uid]!.email : 'a member');
  const article = (role: MemberRole) => (role === 'editor' ? 'an editor' : 'a viewer');
  switch (event.type) {
    case 'MapMemberInvited':
      return `${actor} invited ${event.data.email} as ${event.data.role}`;
    case 'MapInvitationAccepted':
      return `${event.data.displayName || event.data.email} joined as ${event.data.role}`;
    case 'MapInvitationRevoked': {
      const invitation = sharing.invitations.find((item) => item.invitationId === event.data.invitationId);
      return `${actor} withdrew the invitation ${invitation ? `of ${invitation.email}` : 'sent before'}`;
    }
    case 'MapMemberRoleChanged':
      return `${actor} made ${nameOf(event.data.uid)} ${article(event.data.role)}`;
    case 'MapMemberRemoved':
      return `${actor} removed ${nameOf(event.data.uid)} from the map`;
    case 'MapMemberLeft':
      return `${nameOf(event.data.uid)} left the map`;
    case 'MapViewLinkSet':
      return sharing.viewLink ? `${actor} made a new view link (the previous one stopped working)` : `${actor} turned on the view link: anyone with it can view the map`;
    case 'MapViewLinkRevoked':
      return `${actor} turned off the view link`;
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}
