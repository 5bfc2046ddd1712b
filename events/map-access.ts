/**
 * Who may do what with a map: one policy, read by the deciders, by the server's route hooks
 * and by the live hub, so the three can never disagree.
 *
 * Roles: the map's `owner`, and members invited as `editor` or `viewer`. Admins (spec §6) keep
 * their powers over every map; the public rules of published maps (the viewer at `/m/{id}`)
 * and an "anyone with the link can view" link add read access without a role.
 *
 * Pure: the caller brings the facts (from the aggregate in a decider, from the read models on
 * the server); nothing here reads a database.
 */
import { z } from 'zod';
import { DomainError } from './errors.js';
import type { Principal } from './principal.js';

/** A member's role; the owner is not a member but the map's `uid`. */
export const MemberRole = z.enum(['editor', 'viewer']);
export type MemberRole = z.infer<typeof MemberRole>;

export type MapRole = 'owner' | MemberRole;

/**
 * What a person may do with a map.
 * - `view`: open the map as it is (unpublished too) in the editor read-only, follow it live,
 *   see its members, its history and timeline.
 * - `comment`: pin comments, reply, resolve (viewers and editors both).
 * - `edit`: change its content and floors, name it, save, name and restore versions.
 * - `manage`: publish and unpublish, billing and slots, delete, share (invite, change roles,
 *   remove members, the view link), delete anyone's comment.
 * - `leave`: give up one's own membership (members only: an owner cannot leave their map).
 */
export const MAP_ACTIONS = ['view', 'comment', 'edit', 'manage', 'leave'] as const;
export type MapAction = (typeof MAP_ACTIONS)[number];

/** What the policy needs to know of a map. */
export interface MapAccessFacts {
  /** The owner's uid. */
  ownerUid: string;
  /** Members by uid. */
  members: Readonly<Record<string, MemberRole>>;
}

/** How the principal comes to the map beyond a role: an unguessable view link they hold. */
export interface AccessExtras {
  /** The caller presented the map's current view link ("anyone with the link can view"). */
  viaViewLink?: boolean;
}

const ROLE_ACTIONS: Record<MapRole, ReadonlySet<MapAction>> = {
  owner: new Set(['view', 'comment', 'edit', 'manage']),
  editor: new Set(['view', 'comment', 'edit', 'leave']),
  viewer: new Set(['view', 'comment', 'leave']),
};

/** Admins keep what spec §6 gives them over every map; they are not members, so never `leave`. */
const ADMIN_ACTIONS: ReadonlySet<MapAction> = new Set(['view', 'comment', 'edit', 'manage']);

/** The principal's role in the map, or null for none (admins have none unless they hold one). */
export function roleOf(principal: Principal | null, facts: MapAccessFacts): MapRole | null {
  if (!principal) return null;
  if (principal.uid === facts.ownerUid) return 'owner';
  return Object.hasOwn(facts.members, principal.uid) ? facts.members[principal.uid]! : null;
}

export function can(principal: Principal | null, facts: MapAccessFacts, action: MapAction, extras: AccessExtras = {}): boolean {
  const role = roleOf(principal, facts);
  if (role && ROLE_ACTIONS[role].has(action)) return true;
  if (principal?.admin && ADMIN_ACTIONS.has(action)) return true;
  return action === 'view' && extras.viaViewLink === true;
}

/**
 * Throws the catalogue's error when the principal may not: `unauthenticated` for nobody,
 * `permission-denied` otherwise, naming what their role lacks when they have one.
 */
export function requireCan(principal: Principal | null, facts: MapAccessFacts, action: MapAction, extras: AccessExtras = {}): void {
  if (can(principal, facts, action, extras)) return;
  if (!principal) throw new DomainError('unauthenticated', 'Unauthenticated');
  const role = roleOf(principal, facts);
  if (!role && !principal.admin && !extras.viaViewLink) throw new DomainError('permission-denied', 'You do not have access to this map.');
  throw new DomainError('permission-denied', deniedMessage(role, action));
}

/** Why a role cannot: said to the person in the editor too, so it names what they can do. */
export function deniedMessage(role: MapRole | null, action: MapAction): string {
  if (action === 'leave') return role === 'owner' ? 'The owner cannot leave their own map.' : 'You are not a member of this map.';
  if (role === 'viewer' && action === 'edit') return 'You can view this map but not change it: ask its owner to make you an editor.';
  if (action === 'manage') return 'Only the map’s owner can do this.';
  return 'You do not have permission to change this map.';
}
