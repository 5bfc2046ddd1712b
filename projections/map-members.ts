/**
 * Who a map is shared with (issue 16): members per map and maps per member, pending
 * invitations by their token's hash (accepting a link finds its map here), and each map's view
 * link (its key's hash). Read by the access policy's facts loader
 * (server/access/map-access-facts.ts), `GET /api/maps/{id}/members` and `GET /api/maps/shared`.
 *
 * A change notices `map:{id}`; the live hub, seeing it comes from this projection, checks that
 * map's subscribers again instead of pushing the map (server/live/live-hub.ts).
 */
import { MapCreated, MapDeleted } from '../events/map.js';
import { isSharingEvent, MapSharingEvent, SHARING_EVENT_TYPES } from '../events/map-sharing.js';
import type { MemberRole } from '../events/map-access.js';
import { STREAM_PREFIXES } from '../events/streams.js';
import { topics } from '../events/topics.js';
import type { Queryable } from '../ports/database.js';
import type { RecordedEvent } from '../ports/event-store.js';
import { isoString } from './map-events.js';
import type { Projection } from './projection.js';

export const MAP_MEMBERS_PROJECTION = 'map_members';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS map_sharing_owners (
  map_id text PRIMARY KEY,
  uid text NOT NULL,
  display_name text NOT NULL
);
CREATE TABLE IF NOT EXISTS map_members (
  map_id text NOT NULL,
  uid text NOT NULL,
  role text NOT NULL,
  display_name text NOT NULL,
  email text NOT NULL,
  since timestamptz NOT NULL,
  PRIMARY KEY (map_id, uid)
);
CREATE INDEX IF NOT EXISTS map_members_by_uid ON map_members (uid);
CREATE TABLE IF NOT EXISTS map_invitations (
  map_id text NOT NULL,
  invitation_id text NOT NULL,
  email text NOT NULL,
  role text NOT NULL,
  token_hash text NOT NULL,
  invited_by text NOT NULL,
  invited timestamptz NOT NULL,
  expires timestamptz NOT NULL,
  status text NOT NULL,
  PRIMARY KEY (map_id, invitation_id)
);
CREATE INDEX IF NOT EXISTS map_invitations_by_token ON map_invitations (token_hash);
CREATE TABLE IF NOT EXISTS map_view_links (
  map_id text PRIMARY KEY,
  key_hash text NOT NULL,
  set_at timestamptz NOT NULL
);`;

const READ_TYPES: ReadonlySet<string> = new Set(['MapCreated', 'MapDeleted', ...SHARING_EVENT_TYPES]);

async function applySharing(tx: Queryable, event: MapSharingEvent): Promise<void> {
  const d = event.data;
  switch (event.type) {
    case 'MapMemberInvited': {
      const i = event.data;
      await tx.query(
        `INSERT INTO map_invitations (map_id, invitation_id, email, role, token_hash, invited_by, invited, expires, status)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pending') ON CONFLICT DO NOTHING`,
        [i.mapId, i.invitationId, i.email, i.role, i.tokenHash, i.invitedBy, i.invited, i.expires],
      );
      return;
    }
    case 'MapInvitationAccepted': {
      const a = event.data;
      await tx.query(`UPDATE map_invitations SET status = 'accepted' WHERE map_id = $1 AND invitation_id = $2`, [a.mapId, a.invitationId]);
      await tx.query(
        `INSERT INTO map_members (map_id, uid, role, display_name, email, since) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (map_id, uid) DO UPDATE SET role = EXCLUDED.role, display_name = EXCLUDED.display_name, email = EXCLUDED.email`,
        [a.mapId, a.uid, a.role, a.displayName, a.email, a.accepted],
      );
      return;
    }
    case 'MapInvitationRevoked':
      await tx.query(`UPDATE map_invitations SET status = 'revoked' WHERE map_id = $1 AND invitation_id = $2`, [d.mapId, event.data.invitationId]);
      return;
    case 'MapMemberRoleChanged':
      await tx.query('UPDATE map_members SET role = $3 WHERE map_id = $1 AND uid = $2', [d.mapId, event.data.uid, event.data.role]);
      return;
    case 'MapMemberRemoved':
    case 'MapMemberLeft':
      await tx.query('DELETE FROM map_members WHERE map_id = $1 AND uid = $2', [d.mapId, event.data.uid]);
      return;
    case 'MapViewLinkSet':
      await tx.query(
        `INSERT INTO map_view_links (map_id, key_hash, set_at) VALUES ($1, $2, $3)
         ON CONFLICT (map_id) DO UPDATE SET key_hash = EXCLUDED.key_hash, set_at = EXCLUDED.set_at`,
        [d.mapId, event.data.keyHash, event.data.set],
      );
      return;
    case 'MapViewLinkRevoked':
      await tx.query('DELETE FROM map_view_links WHERE map_id = $1', [d.mapId]);
      return;
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

export const mapMembersProjection: Projection = {
  name: MAP_MEMBERS_PROJECTION,
  version: 1,
  schema: SCHEMA,
  tables: ['map_sharing_owners', 'map_members', 'map_invitations', 'map_view_links'],
  streamPrefixes: [STREAM_PREFIXES[0]],
  eventTypes: READ_TYPES,
  async apply(tx, events: readonly RecordedEvent[], changed) {
    for (const recorded of events) {
      // Edits are most of a map's stream and change nothing here: not even parsed.
      if (!READ_TYPES.has(recorded.type)) continue;
      if (recorded.type === 'MapCreated') {
        const created = MapCreated.parse({ type: recorded.type, data: recorded.data }).data;
        await tx.query(
          `INSERT INTO map_sharing_owners (map_id, uid, display_name) VALUES ($1, $2, $3) ON CONFLICT (map_id) DO NOTHING`,
          [created.mapId, created.uid, recorded.metadata.userName?.trim() ?? ''],
        );
        continue;
      }
      if (recorded.type === 'MapDeleted') {
        const { mapId } = MapDeleted.parse({ type: recorded.type, data: recorded.data }).data;
        // A deleted map is shared with no one: its members lose it from "Shared with me".
        for (const table of ['map_sharing_owners', 'map_members', 'map_invitations', 'map_view_links']) {
          await tx.query(`DELETE FROM ${table} WHERE map_id = $1`, [mapId]);
        }
        changed.add(topics.map(mapId));
        continue;
      }
      const event = MapSharingEvent.parse({ type: recorded.type, data: recorded.data });
      if (!isSharingEvent(event)) continue;
      await applySharing(tx, event);
      changed.add(topics.map(event.data.mapId));
    }
  },
};

// ---- queries ------------------------------------------------------------------------------

export interface MemberRow {
  uid: string;
  role: MemberRole;
  displayName: string;
  email: string;
  since: string;
}

/** The members of a map by uid (the owner is not one). */
export async function membersOf(db: Queryable, mapId: string): Promise<MemberRow[]> {
  const { rows } = await db.query<{ uid: string; role: MemberRole; display_name: string; email: string; since: Date | string }>(
    'SELECT uid, role, display_name, email, since FROM map_members WHERE map_id = $1 ORDER BY since, uid',
    [mapId],
  );
  return rows.map((row) => ({ uid: row.uid, role: row.role, displayName: row.display_name, email: row.email, since: isoString(row.since) }));
}

export interface InvitationRow {
  mapId: string;
  invitationId: string;
  email: string;
  role: MemberRole;
  invitedBy: string;
  invited: string;
  expires: string;
  status: 'pending' | 'accepted' | 'revoked';
}

type InvitationDbRow = {
  map_id: string;
  invitation_id: string;
  email: string;
  role: MemberRole;
  invited_by: string;
  invited: Date | string;
  expires: Date | string;
  status: InvitationRow['status'];
};

function toInvitation(row: InvitationDbRow): InvitationRow {
  return {
    mapId: row.map_id, invitationId: row.invitation_id, email: row.email, role: row.role, invitedBy: row.invited_by,
    invited: isoString(row.invited), expires: isoString(row.expires), status: row.status,
  };
}

/** A map's invitations not accepted, revoked or expired at `now`, oldest first. */
export async function pendingInvitations(db: Queryable, mapId: string, now: Date): Promise<InvitationRow[]> {
  const { rows } = await db.query<InvitationDbRow>(
    `SELECT * FROM map_invitations WHERE map_id = $1 AND status = 'pending' AND expires > $2 ORDER BY invited, invitation_id`,
    [mapId, now.toISOString()],
  );
  return rows.map(toInvitation);
}

/** The invitation a link's token hash names (whatever its status: the decider says what is wrong with it). */
export async function invitationByTokenHash(db: Queryable, tokenHash: string): Promise<InvitationRow | null> {
  const { rows } = await db.query<InvitationDbRow>('SELECT * FROM map_invitations WHERE token_hash = $1 LIMIT 1', [tokenHash]);
  return rows[0] ? toInvitation(rows[0]) : null;
}

/** The hash of a map's view link key, or null when it has none. */
export async function viewLinkHash(db: Queryable, mapId: string): Promise<string | null> {
  const { rows } = await db.query<{ key_hash: string }>('SELECT key_hash FROM map_view_links WHERE map_id = $1', [mapId]);
  return rows[0]?.key_hash ?? null;
}

/** The owner's name as their last MapCreated recorded it (for Clerk installations, where no account table exists). */
export async function ownerNameOf(db: Queryable, mapId: string): Promise<string | null> {
  const { rows } = await db.query<{ display_name: string }>('SELECT display_name FROM map_sharing_owners WHERE map_id = $1', [mapId]);
  return rows[0]?.display_name ?? null;
}

export interface SharedMapRow {
  id: string;
  title: string;
  ownerUid: string;
  ownerName: string;
  role: MemberRole;
  state: number;
  edited: string;
  layerCount: number;
  locationCount: number;
}

/** The maps shared with `uid` (as a member), newest edit first. */
export async function mapsSharedWith(db: Queryable, uid: string): Promise<SharedMapRow[]> {
  const { rows } = await db.query<{
    id: string; title: string; owner_uid: string; owner_name: string | null; role: MemberRole; state: number; edited: Date | string; layer_count: number; location_count: number;
  }>(
    `SELECT l.id, l.title, l.uid AS owner_uid, o.display_name AS owner_name, m.role, l.state, l.edited, l.layer_count, l.location_count
       FROM map_members m
       JOIN maps_list l ON l.id = m.map_id
       LEFT JOIN map_sharing_owners o ON o.map_id = m.map_id
      WHERE m.uid = $1
      ORDER BY l.edited DESC, l.id`,
    [uid],
  );
  return rows.map((row) => ({
    id: row.id, title: row.title, ownerUid: row.owner_uid, ownerName: row.owner_name ?? '', role: row.role, state: row.state,
    edited: isoString(row.edited), layerCount: row.layer_count, locationCount: row.location_count,
  }));
}
