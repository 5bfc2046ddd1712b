/**
 * The access policy's facts on the server (events/map-access.ts): a map's owner from the map
 * data read model, its members and view link from the members read model
 * (projections/map-members.ts). Every map route, function and live topic asks here, so they
 * all answer alike. Also the secrets' hashing: links carry a secret, the log and the read
 * models only its SHA-256.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { DomainError } from '../../events/errors.js';
import { can, requireCan, roleOf, type MapAccessFacts, type MapAction, type MapRole } from '../../events/map-access.js';
import type { Principal } from '../../events/principal.js';
import { streams } from '../../events/streams.js';
import type { Queryable } from '../../ports/database.js';

export interface MapAccess {
  mapId: string;
  facts: MapAccessFacts;
  /** The SHA-256 of the map's view link key, or null when it has none. */
  viewLinkHash: string | null;
}

/** A new secret for a link: 32 random bytes, base64url (43 characters). */
export function newLinkSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** The SHA-256 of a link's secret, lowercase hex: what events and read models keep. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** How long a read waits at most for a map its reader may just have created to reach the read models. */
export const NEW_MAP_WAIT_MS = 5_000;
const NEW_MAP_POLL_MS = 20;

/**
 * Whether the map's stream was started after map_data's checkpoint: it was just created, and
 * the projection has not applied its first event yet (not: a deleted map, whose first event the
 * projection passed long ago). Read in the event store's own tables; with KurrentDB holding the
 * events there are none, and nothing is waited for.
 */
async function mapNotProjectedYet(db: Queryable, mapId: string): Promise<boolean> {
  try {
    const { rows } = await db.query<{ pending: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM es_events e, projection_checkpoints c
                       WHERE e.stream_id = $1 AND e.stream_revision = 0 AND c.name = 'map_data'
                         AND (e.transaction_id, e.global_position) > (c.commit_position, c.prepare_position)) AS pending`,
      [streams.map(mapId)],
    );
    return rows[0]?.pending === true;
  } catch {
    return false;
  }
}

/**
 * The owner, members and view link of a map; null when there is no such map. Reads its own
 * writes: a map created a moment ago whose first event the map_data projection has not applied
 * yet (its author opening it, importing into it) is waited for, up to {@link NEW_MAP_WAIT_MS},
 * instead of answering "Map not found" (issue 26 item 8: on the embedded database requests and
 * the projections take turns, so a request can come before the projection's work).
 */
export async function loadMapAccess(db: Queryable, mapId: string): Promise<MapAccess | null> {
  const found = await readMapAccess(db, mapId);
  if (found) return found;
  // Applied between the two reads, perhaps: read once more.
  if (!(await mapNotProjectedYet(db, mapId))) return readMapAccess(db, mapId);
  // Every request for the map waits on one look-out, not one each (many tabs, a public page's visitors).
  let waits = newMapWaits.get(db);
  if (!waits) newMapWaits.set(db, (waits = new Map()));
  let waiting = waits.get(mapId);
  if (!waiting) {
    waiting = untilProjected(db, mapId).finally(() => waits.delete(mapId));
    waits.set(mapId, waiting);
  }
  return waiting;
}

const newMapWaits = new WeakMap<Queryable, Map<string, Promise<MapAccess | null>>>();

/** Reads the map's row again and again (less often as time goes on) until it is there or {@link NEW_MAP_WAIT_MS} have passed. */
async function untilProjected(db: Queryable, mapId: string): Promise<MapAccess | null> {
  const until = performance.now() + NEW_MAP_WAIT_MS;
  for (let pause = NEW_MAP_POLL_MS; performance.now() < until; pause = Math.min(pause * 2, 250)) {
    await new Promise((resolve) => setTimeout(resolve, pause));
    const read = await readMapAccess(db, mapId);
    if (read) return read;
  }
  return null;
}

async function readMapAccess(db: Queryable, mapId: string): Promise<MapAccess | null> {
  const { rows } = await db.query<{ uid: string; members: Array<{ uid: string; role: 'editor' | 'viewer' }> | null; key_hash: string | null }>(
    `SELECT d.uid,
            (SELECT jsonb_agg(jsonb_build_object('uid', m.uid, 'role', m.role)) FROM map_members m WHERE m.map_id = d.id) AS members,
            (SELECT v.key_hash FROM map_view_links v WHERE v.map_id = d.id) AS key_hash
       FROM map_data d WHERE d.id = $1`,
    [mapId],
  );
  const row = rows[0];
  if (!row) return null;
  const members = Object.fromEntries((row.members ?? []).map((member) => [member.uid, member.role]));
  return { mapId, facts: { ownerUid: row.uid, members }, viewLinkHash: row.key_hash };
}

/** Whether `key` is the map's current view link key (compared as hashes, in constant time). */
export function holdsViewLink(access: MapAccess, key: string | undefined): boolean {
  if (!key || !access.viewLinkHash) return false;
  const given = Buffer.from(hashSecret(key), 'hex');
  const wanted = Buffer.from(access.viewLinkHash, 'hex');
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/**
 * The map's access facts if the principal may do `action` (not-found for no map, otherwise
 * the policy's unauthenticated or permission-denied). `key`: a view link key they presented.
 */
export async function requireMapAccess(db: Queryable, principal: Principal | null, mapId: string, action: MapAction, key?: string): Promise<MapAccess> {
  const access = await loadMapAccess(db, mapId);
  if (!access) throw new DomainError('not-found', 'Map not found.');
  requireCan(principal, access.facts, action, { viaViewLink: holdsViewLink(access, key) });
  return access;
}

/** May the principal do `action`, and with which role (for the live hub's `access` message). */
export function accessOf(principal: Principal | null, access: MapAccess, action: MapAction, key?: string): { allowed: boolean; role: MapRole | null } {
  return { allowed: can(principal, access.facts, action, { viaViewLink: holdsViewLink(access, key) }), role: roleOf(principal, access.facts) };
}
