/**
 * Sharing a map (issue 16): the callable functions' payloads and results, and what
 * `GET /api/maps/{id}/members` and `GET /api/maps/shared` answer. The single source of truth
 * for the server's validation and the client's types.
 */
import { z } from 'zod';
import { MemberRole } from './map-access.js';

/** An invitation is good for this long after it was sent. */
export const INVITATION_TTL_DAYS = 14;

const MapId = z.string({ error: 'Map id must be text.' }).regex(/^[A-Za-z0-9_-]{1,64}$/, 'Map id is not valid.');
const Uid = z.string({ error: 'User id must be text.' }).min(1, 'User id is required.').max(128, 'User id is not valid.');
const InvitationId = z.string({ error: 'Invitation id must be text.' }).regex(/^[A-Za-z0-9_-]{1,64}$/, 'Invitation id is not valid.');
/** The secret of an invitation link: 32 random bytes, base64url (43 characters). */
export const InvitationToken = z.string({ error: 'Invitation token must be text.' }).regex(/^[A-Za-z0-9_-]{20,128}$/, 'This invitation link is not valid.');
const Email = z
  .string({ error: 'Email must be text.' })
  .trim()
  .toLowerCase()
  .max(254, 'Email must be at most 254 characters.')
  .pipe(z.email({ error: 'Enter a valid email address.' }));
const Role = z.enum(MemberRole.options, { error: 'Role must be editor or viewer.' });

export const sharingFunctionPayloads = {
  /** The owner invites someone by e-mail; a mail with the invitation link goes out. */
  inviteToMap: z.object({ mapId: MapId, email: Email, role: Role }),
  /** The invitee (signed in, any address) accepts: they become a member with the invited role. */
  acceptMapInvitation: z.object({ token: InvitationToken }),
  revokeMapInvitation: z.object({ mapId: MapId, invitationId: InvitationId }),
  setMapMemberRole: z.object({ mapId: MapId, uid: Uid, role: Role }),
  removeMapMember: z.object({ mapId: MapId, uid: Uid }),
  /** A member gives up their own membership. */
  leaveMap: z.object({ mapId: MapId }),
  /**
   * "Anyone with the link can view": `enabled` true makes a new unguessable link (the old one
   * stops working), false revokes it.
   */
  setMapViewLink: z.object({ mapId: MapId, enabled: z.boolean({ error: 'Enabled must be true or false.' }) }),
} as const;

export interface SharingFunctionResults {
  inviteToMap: { invitationId: string };
  acceptMapInvitation: { mapId: string };
  revokeMapInvitation: null;
  setMapMemberRole: null;
  removeMapMember: null;
  leaveMap: null;
  /** The view link's address (absolute), or null once revoked. */
  setMapViewLink: { url: string | null };
}

export const sharingFunctionResults = {
  inviteToMap: z.object({ invitationId: z.string() }),
  acceptMapInvitation: z.object({ mapId: z.string() }),
  revokeMapInvitation: z.null(),
  setMapMemberRole: z.null(),
  removeMapMember: z.null(),
  leaveMap: z.null(),
  setMapViewLink: z.object({ url: z.string().nullable() }),
} satisfies { [N in keyof SharingFunctionResults]: z.ZodType<SharingFunctionResults[N]> };

const Person = z.object({ uid: z.string(), displayName: z.string(), email: z.string() });

/** `GET /api/maps/{id}/members`: for the owner, members and admins. */
export const MapMembers = z.object({
  mapId: z.string(),
  owner: Person,
  members: z.array(Person.extend({ role: MemberRole, since: z.string() })),
  /** Pending (not accepted, not revoked, not expired) invitations. */
  invitations: z.array(
    z.object({ invitationId: z.string(), email: z.string(), role: MemberRole, invitedBy: z.string(), invited: z.string(), expires: z.string() }),
  ),
  /** The view link's address; null when off, and always null for anyone but the owner and admins. */
  viewLink: z.string().nullable(),
  /** The caller's own role (null for an admin who is not a member). */
  yourRole: z.enum(['owner', 'editor', 'viewer']).nullable(),
});
export type MapMembers = z.infer<typeof MapMembers>;

/** One map in "Shared with me" (`GET /api/maps/shared`, newest edit first). */
export const SharedMapItem = z.object({
  id: z.string(),
  title: z.string(),
  owner: z.object({ uid: z.string(), displayName: z.string() }),
  role: MemberRole,
  state: z.number().int(),
  edited: z.string(),
  metrics: z.object({ layerCount: z.number().int(), locationCount: z.number().int() }),
});
export type SharedMapItem = z.infer<typeof SharedMapItem>;
