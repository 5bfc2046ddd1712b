/**
 * A map's people as comments need them: the access facts the policy reads (owner, members:
 * server/access/map-access-facts.ts), and each person's name (for `@` mentions) and address
 * (for the notice). Names and addresses are the local accounts' (current) when the
 * installation has them; otherwise what the events recorded: a member's name and address
 * when they accepted, the owner's name when they made the map (no address: not mailed).
 */
import type { MapAccessFacts } from '../../events/map-access.js';
import type { MapPerson } from '../../events/map-comments.js';
import { getMapData } from '../../projections/map-data.js';
import { membersOf, ownerNameOf } from '../../projections/map-members.js';
import { loadMapAccess } from '../access/map-access-facts.js';
import type { Queryable } from '../../ports/database.js';

export interface MapPersonContact extends MapPerson {
  /** Where their notices go; null when the product does not know it. */
  email: string | null;
}

export interface MapPeople {
  /** The map's title, for notices. */
  title: string;
  /** The floors and locations a thread may be pinned to now. */
  places: { layers: ReadonlySet<string>; locations: ReadonlySet<string> };
  access: MapAccessFacts;
  people: MapPersonContact[];
}

/** The map's access facts, without names (who may read or write its comments). */
export async function loadCommentAccess(db: Queryable, mapId: string): Promise<MapAccessFacts | null> {
  return (await loadMapAccess(db, mapId))?.facts ?? null;
}

/** The map's access facts and people; null when there is no such map (never made, or deleted). */
export async function loadMapPeople(db: Queryable, mapId: string): Promise<MapPeople | null> {
  const [map, access] = await Promise.all([getMapData(db, mapId), loadCommentAccess(db, mapId)]);
  if (!map || !access) return null;
  const [members, ownerName] = await Promise.all([membersOf(db, mapId), ownerNameOf(db, mapId)]);
  const uids = [access.ownerUid, ...members.map((member) => member.uid)];
  // Without local accounts (Clerk) there is no such table: the recorded names stand.
  const accounts = await db
    .query<{ uid: string; display_name: string; email: string }>('SELECT uid, display_name, email FROM auth_accounts WHERE uid = ANY($1::text[])', [uids])
    .catch(() => ({ rows: [] as Array<{ uid: string; display_name: string; email: string }> }));
  const current = new Map(accounts.rows.map((row) => [row.uid, row]));
  const people: MapPersonContact[] = [
    { uid: access.ownerUid, displayName: current.get(access.ownerUid)?.display_name ?? ownerName ?? '', email: current.get(access.ownerUid)?.email ?? null },
    ...members.map((member) => ({
      uid: member.uid,
      displayName: current.get(member.uid)?.display_name ?? member.displayName,
      email: current.get(member.uid)?.email ?? member.email,
    })),
  ];
  return { title: map.title, places: placesOf(map.data), access, people };
}

/** The ids of a document's floors and locations (read as stored: the read model keeps valid documents). */
function placesOf(data: unknown): MapPeople['places'] {
  const document = (data ?? {}) as { layers?: Array<{ id?: unknown }>; locations?: Array<{ id?: unknown }> };
  const ids = (items: Array<{ id?: unknown }> | undefined) => new Set((items ?? []).map((item) => item.id).filter((id): id is string => typeof id === 'string'));
  return { layers: ids(document.layers), locations: ids(document.locations) };
}
