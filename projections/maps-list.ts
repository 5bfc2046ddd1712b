/**
 * The maps list read model (spec §3 map list item): one row per map that is not deleted, read
 * by owner (and, later, by author for admins). Pushed on topic `maps:{uid}`.
 */
import { metricsOf } from '../events/map-document.js';
import type { MapListItem } from '../events/read-models.js';
import { STREAM_PREFIXES } from '../events/streams.js';
import { topics } from '../events/topics.js';
import type { Queryable } from '../server/db/database.js';
import { isoString, mapEventsOf } from './map-events.js';
import type { ChangedTopics, Projection } from './projection.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS maps_list (
  id text PRIMARY KEY,
  title text NOT NULL,
  uid text NOT NULL,
  author text NOT NULL,
  created timestamptz NOT NULL,
  edited timestamptz NOT NULL,
  state integer NOT NULL,
  subscribed boolean NOT NULL DEFAULT false,
  layer_count integer NOT NULL DEFAULT 0,
  location_count integer NOT NULL DEFAULT 0,
  history jsonb NOT NULL DEFAULT '[]'::jsonb
);
CREATE INDEX IF NOT EXISTS maps_list_uid_created ON maps_list (uid, created);
CREATE INDEX IF NOT EXISTS maps_list_author_created ON maps_list (author, created);
`;

export const mapsListProjection: Projection = {
  name: 'maps_list',
  version: 1,
  schema: SCHEMA,
  tables: ['maps_list'],
  streamPrefixes: [STREAM_PREFIXES[0]],
  async apply(tx: Queryable, events, changed: ChangedTopics) {
    for (const { event } of mapEventsOf(events)) {
      switch (event.type) {
        case 'MapCreated': {
          const d = event.data;
          const metrics = metricsOf(d.document);
          await tx.query(
            `INSERT INTO maps_list (id, title, uid, author, created, edited, state, layer_count, location_count)
             VALUES ($1, $2, $3, $4, $5, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING`,
            [d.mapId, d.title, d.uid, d.author, d.created, d.state, metrics.layerCount, metrics.locationCount],
          );
          changed.add(topics.maps(d.uid));
          break;
        }
        case 'MapSaved': {
          const d = event.data;
          const metrics = d.document ? metricsOf(d.document) : null;
          const { rows } = await tx.query<{ uid: string }>(
            `UPDATE maps_list SET title = COALESCE($2, title), edited = $3,
               layer_count = COALESCE($4, layer_count), location_count = COALESCE($5, location_count)
             WHERE id = $1 RETURNING uid`,
            [d.mapId, d.title ?? null, d.edited, metrics?.layerCount ?? null, metrics?.locationCount ?? null],
          );
          for (const row of rows) changed.add(topics.maps(row.uid));
          break;
        }
        case 'MapDeleted': {
          const { rows } = await tx.query<{ uid: string }>('DELETE FROM maps_list WHERE id = $1 RETURNING uid', [event.data.mapId]);
          for (const row of rows) changed.add(topics.maps(row.uid));
          break;
        }
        default: {
          const unreachable: never = event;
          throw new Error(`Unhandled event ${String(unreachable)}`);
        }
      }
    }
  },
};

interface MapsListRow {
  id: string;
  title: string;
  uid: string;
  author: string;
  created: Date | string;
  edited: Date | string;
  state: number;
  subscribed: boolean;
  layer_count: number;
  location_count: number;
  history: MapListItem['history'];
}

function toItem(row: MapsListRow): MapListItem {
  return {
    id: row.id,
    title: row.title,
    uid: row.uid,
    author: row.author,
    created: isoString(row.created),
    edited: isoString(row.edited),
    state: row.state,
    subscribed: row.subscribed,
    metrics: { layerCount: row.layer_count, locationCount: row.location_count },
    history: row.history,
  };
}

/** The owner's maps, oldest first (spec §7: "query maps by uid, ordered by created"). */
export async function listMapsByOwner(db: Queryable, uid: string): Promise<MapListItem[]> {
  const { rows } = await db.query<MapsListRow>('SELECT * FROM maps_list WHERE uid = $1 ORDER BY created, id', [uid]);
  return rows.map(toItem);
}

/** How many of the owner's maps use a free test slot (state below 1, spec §5). */
export async function countTestMaps(db: Queryable, uid: string): Promise<number> {
  const { rows } = await db.query<{ count: string }>('SELECT count(*)::text AS count FROM maps_list WHERE uid = $1 AND state < 1', [uid]);
  return Number(rows[0]?.count ?? 0);
}
