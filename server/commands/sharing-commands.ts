/**
 * The sharing functions (events/sharing-api.ts): invitations by mail, accepting a link,
 * members' roles, leaving, and the view link. The decisions are the map decider's
 * (events/map-sharing.ts); here the secrets are made and hashed, the invitation mailed, and an
 * accepted link's token found in the members read model.
 */
import type { z } from 'zod';
import { DomainError } from '../../events/errors.js';
import type { sharingFunctionPayloads } from '../../events/sharing-api.js';
import { getMapSummary } from '../../projections/map-data.js';
import { invitationByTokenHash } from '../../projections/map-members.js';
import { hashSecret, newLinkSecret, requireMapAccess } from '../access/map-access-facts.js';
import { viewLinkUrl, type ViewLinkKeys } from '../access/view-link-keys.js';
import { invitationMail } from '../mail/invitation-mail.js';
import type { Mailer } from '../mail/mailer.js';
import type { Limit, RateLimiter } from '../security/rate-limiter.js';
import type { CommandMetadata } from './command-handler.js';
import { runMapCommand, type MapCommandDeps } from './map-commands.js';

export interface SharingDeps extends MapCommandDeps {
  mailer: Mailer;
  publicUrl: string;
  viewLinkKeys: ViewLinkKeys;
  /** Invitations are mail to any address: how many one person may send (none when absent). */
  rateLimiter?: RateLimiter;
}

/** Generous for people sharing maps, tight for a script mailing strangers through us: per map, and per inviter over all their maps. */
export const INVITATIONS_PER_HOUR: Limit = { max: 50, windowMs: 60 * 60 * 1000 };
export const INVITATIONS_PER_INVITER_PER_HOUR: Limit = { max: 200, windowMs: 60 * 60 * 1000 };

type Payload<N extends keyof typeof sharingFunctionPayloads> = z.output<(typeof sharingFunctionPayloads)[N]>;

function requireUser(meta: CommandMetadata) {
  if (!meta.principal) throw new DomainError('unauthenticated', 'Unauthenticated');
  return meta.principal;
}

/** The invitation link's address: the client's `/invitations/{token}` page. */
export function invitationUrl(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/invitations/${token}`;
}

export async function inviteToMap(deps: SharingDeps, payload: Payload<'inviteToMap'>, meta: CommandMetadata) {
  const principal = requireUser(meta);
  if (deps.rateLimiter) {
    // Only those who may share count against a map (a stranger cannot use its invitations up).
    await requireMapAccess(deps.db, principal, payload.mapId, 'manage');
    await deps.rateLimiter.hit('invite-map', INVITATIONS_PER_HOUR, [payload.mapId]);
    await deps.rateLimiter.hit('invite', INVITATIONS_PER_INVITER_PER_HOUR, [principal.uid]);
  }
  const token = newLinkSecret();
  const invitationId = deps.ids.uuid();
  const outcome = await runMapCommand(
    deps,
    { type: 'InviteToMap', data: { mapId: payload.mapId, invitationId, email: payload.email, role: payload.role, tokenHash: hashSecret(token) } },
    meta,
  );
  const map = await getMapSummary(deps.db, payload.mapId);
  const mail = invitationMail(payload.email, { inviter: principal.displayName || principal.email, mapTitle: map?.title ?? 'a map', role: payload.role, url: invitationUrl(deps.publicUrl, token) });
  try {
    await deps.mailer.send(mail);
  } catch {
    // The invitation is recorded: the owner sees it pending and can withdraw it and invite again.
    throw new DomainError('unavailable', `The invitation to ${payload.email} could not be mailed: withdraw it and invite again later.`);
  }
  return { result: { invitationId }, position: outcome.position };
}

export async function acceptMapInvitation(deps: SharingDeps, payload: Payload<'acceptMapInvitation'>, meta: CommandMetadata) {
  requireUser(meta);
  const tokenHash = hashSecret(payload.token);
  const invitation = await invitationByTokenHash(deps.db, tokenHash);
  if (!invitation) throw new DomainError('not-found', 'This invitation link is not valid.');
  // The read model only says which map; the decider checks the invitation against the stream.
  const outcome = await runMapCommand(deps, { type: 'AcceptInvitation', data: { mapId: invitation.mapId, tokenHash } }, meta);
  return { result: { mapId: invitation.mapId }, position: outcome.position };
}

export async function revokeMapInvitation(deps: SharingDeps, payload: Payload<'revokeMapInvitation'>, meta: CommandMetadata) {
  const outcome = await runMapCommand(deps, { type: 'RevokeInvitation', data: payload }, meta);
  return { result: null, position: outcome.position };
}

export async function setMapMemberRole(deps: SharingDeps, payload: Payload<'setMapMemberRole'>, meta: CommandMetadata) {
  const outcome = await runMapCommand(deps, { type: 'SetMemberRole', data: payload }, meta);
  return { result: null, position: outcome.position };
}

export async function removeMapMember(deps: SharingDeps, payload: Payload<'removeMapMember'>, meta: CommandMetadata) {
  const outcome = await runMapCommand(deps, { type: 'RemoveMember', data: payload }, meta);
  return { result: null, position: outcome.position };
}

export async function leaveMap(deps: SharingDeps, payload: Payload<'leaveMap'>, meta: CommandMetadata) {
  const outcome = await runMapCommand(deps, { type: 'LeaveMap', data: payload }, meta);
  return { result: null, position: outcome.position };
}

/**
 * A new view link (the previous one stops working) or none. The key is kept before the event
 * naming its hash is appended, so the link works as soon as the read model has the event.
 */
export async function setMapViewLink(deps: SharingDeps, payload: Payload<'setMapViewLink'>, meta: CommandMetadata) {
  const principal = requireUser(meta);
  if (!payload.enabled) {
    const outcome = await runMapCommand(deps, { type: 'SetViewLink', data: { mapId: payload.mapId, keyHash: null } }, meta);
    return { result: { url: null }, position: outcome.position };
  }
  const key = newLinkSecret();
  const keyHash = hashSecret(key);
  // An outsider's attempt keeps nothing (the read model's check; the decider checks again).
  await requireMapAccess(deps.db, principal, payload.mapId, 'manage');
  await deps.viewLinkKeys.keep(payload.mapId, keyHash, key);
  const outcome = await runMapCommand(deps, { type: 'SetViewLink', data: { mapId: payload.mapId, keyHash } }, meta);
  return { result: { url: viewLinkUrl(deps.publicUrl, payload.mapId, key) }, position: outcome.position };
}
