/**
 * Reading a map's comments, for `GET /api/maps/{id}/comments` and the `comments:{mapId}` topic:
 * one rule for both. Whoever may comment may read them (the owner, members, admins); a holder
 * of the view link or the published viewer's visitor never sees them.
 */
import type { MapComments } from '../../events/comments-api.js';
import { requireCan } from '../../events/map-access.js';
import { DomainError } from '../../events/errors.js';
import type { Principal } from '../../events/principal.js';
import { getMapComments } from '../../projections/map-comments.js';
import type { Queryable } from '../../ports/database.js';
import { loadCommentAccess, loadMapPeople } from './map-people.js';

/** Throws not-found for no such map, the policy's refusal for someone who may not read its comments. */
export async function requireCommentReader(db: Queryable, principal: Principal | null, mapId: string): Promise<void> {
  const access = await loadCommentAccess(db, mapId);
  if (!access) throw new DomainError('not-found', 'Map not found.');
  requireCan(principal, access, 'comment');
}

/** The map's threads, people named as the map knows them now. */
export async function readMapComments(db: Queryable, mapId: string): Promise<MapComments> {
  const people = await loadMapPeople(db, mapId);
  const names = new Map((people?.people ?? []).filter((person) => person.displayName).map((person) => [person.uid, person.displayName]));
  return getMapComments(db, mapId, names);
}
