/**
 * Who may follow which live topic, and how each topic's current value is read. A map's topics
 * follow the access policy (events/map-access.ts: its owner, members and admins); a user's own
 * topics (maps, billing) that user or an admin; a map that does not exist is `not-found`.
 */
import type { ErrorAnswer } from '../errors.js';
import type { TopicSnapshot as TopicData } from '../../events/live-messages.js';
import type { MapDocument } from '../../events/map-document.js';
import type { Principal } from '../../events/principal.js';
import { formatPosition } from '../../events/position.js';
import { parseTopic } from '../../events/topics.js';
import { readCheckpoint } from '../../projections/checkpoints.js';
import { billingSnapshot } from '../../projections/billing.js';
import { getMapData } from '../../projections/map-data.js';
import { listMapsByOwner } from '../../projections/maps-list.js';
import type { Queryable } from '../../ports/database.js';
import { can, roleOf, type MapRole } from '../../events/map-access.js';
import { loadMapAccess } from '../access/map-access-facts.js';
import { readMapComments, requireCommentReader } from '../comments/map-comments-read.js';
import { DomainError } from '../../events/errors.js';

export interface TopicSnapshot {
  position: string;
  /** Null: the topic's thing is gone (a map deleted meanwhile); nothing is sent. */
  data: TopicData | null;
}

/**
 * `role`: the principal's role in the topic's map (map topics), for the hub's `access` message.
 * `mapId`: a map topic, which the hub feeds from the map's stream (events since a revision)
 * instead of pushing `load()` again after each change.
 */
export type TopicAccess = { ok: true; load(): Promise<TopicSnapshot>; role?: MapRole | null; mapId?: string } | { ok: false; error: ErrorAnswer };

/**
 * Reads the projection's checkpoint before its rows, so the position sent is one the data has
 * certainly reached (the rows may be newer still, never older).
 */
async function snapshot(db: Queryable, projection: string, read: () => Promise<TopicData | null>): Promise<TopicSnapshot> {
  const checkpoint = await readCheckpoint(db, projection);
  const data = await read();
  return { position: checkpoint ? formatPosition(checkpoint.position) : '-1:-1', data };
}

export async function accessTopic(db: Queryable, principal: Principal, topicText: string): Promise<TopicAccess> {
  const topic = parseTopic(topicText);
  if (!topic) return { ok: false, error: { code: 'invalid-argument', message: `Unknown topic: ${topicText}` } };
  const denied: TopicAccess = { ok: false, error: { code: 'permission-denied', message: 'You do not have access to this topic.' } };
  switch (topic.kind) {
    case 'maps':
      if (topic.uid !== principal.uid && !principal.admin) return denied;
      return { ok: true, load: () => snapshot(db, 'maps_list', async () => ({ kind: 'maps', maps: await listMapsByOwner(db, topic.uid) })) };
    case 'map': {
      // Owner, members and admins (events/map-access.ts 'view').
      const access = await loadMapAccess(db, topic.mapId);
      if (!access) return { ok: false, error: { code: 'not-found', message: 'Map not found.' } };
      if (!can(principal, access.facts, 'view')) return denied;
      return {
        ok: true,
        role: roleOf(principal, access.facts),
        mapId: topic.mapId,
        load: () =>
          snapshot(db, 'map_data', async () => {
            const current = await getMapData(db, topic.mapId);
            if (!current) return null;
            // Not parsed again: the projection wrote it from parsed events (a change of shape rebuilds
            // every row), and zod took 250 ms on a 25,000-location map, for each tab that opens it.
            const map = { id: current.id, title: current.title, document: current.data as MapDocument, revision: current.revision, history: current.history };
            return { kind: 'map', map };
          }),
      };
    }
    case 'billing': {
      if (topic.uid !== principal.uid && !principal.admin) return denied;
      // Only the owner's own principal says whether they are an admin (unlimited test maps).
      const admin = topic.uid === principal.uid && principal.admin;
      return { ok: true, load: () => snapshot(db, 'billing', async () => ({ kind: 'billing', billing: await billingSnapshot(db, topic.uid, admin) })) };
    }
    case 'comments': {
      try {
        await requireCommentReader(db, principal, topic.mapId);
      } catch (error) {
        if (error instanceof DomainError) return { ok: false, error: { code: error.code, message: error.message } };
        throw error;
      }
      return { ok: true, load: () => snapshot(db, 'map_comments', async () => ({ kind: 'comments', comments: await readMapComments(db, topic.mapId) })) };
    }
    default: {
      const unreachable: never = topic;
      return unreachable;
    }
  }
}
