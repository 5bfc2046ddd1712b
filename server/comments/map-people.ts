/**
 * A map's people as comments need them: the access facts the policy reads (owner, members),
 * and each person's name (for `@` mentions) and address (for the notice).
 *
 * For now the owner alone, from the map data read model; the members projection (sharing)
 * adds the members. Names and addresses come from the local accounts when there are any (in
 * Clerk mode a person without a local account has neither, and is not mailed).
 */
import type { MapAccessFacts } from '../../events/map-access.js';
import type { MapPerson } from '../../events/map-comments.js';
import { getMapData } from '../../projections/map-data.js';
import { loadMapAccess } from '../access/map-access-facts.js';
import type { Queryable } from '../db/database.js';

export interface MapPersonContact extends MapPerson {
  /** Where their notices go; null when the product does not know it. */
  email: string | null;
}

export interface MapPeople {
  /** The map's title, for notices. */
  title: string;
  access: MapAccessFacts;
  people: MapPersonContact[];
}

/** The map's access facts and people; null when there is no such map (never made, or deleted). */
export async function loadMapPeople(db: Queryable, mapId: string): Promise<MapPeople | null> {
  const map = await getMapData(db, mapId);
  if (!map) return null;
  // Members from the sharing read model (server/access/map-access-facts.ts).
  const access: MapAccessFacts = (await loadMapAccess(db, mapId))?.facts ?? { ownerUid: map.uid, members: {} };
  const uids = [access.ownerUid, ...Object.keys(access.members)];
  const known = new Map<string, { display_name: string; email: string }>();
  const accounts = await db.query<{ uid: string; display_name: string; email: string }>(
    `SELECT uid, display_name, email FROM auth_accounts WHERE uid = ANY($1::text[])`,
    [uids],
  ).catch(() => ({ rows: [] }));
  for (const row of accounts.rows) known.set(row.uid, row);
  const people = uids.map((uid) => ({ uid, displayName: known.get(uid)?.display_name ?? '', email: known.get(uid)?.email ?? null }));
  return { title: map.title, access, people };
}
