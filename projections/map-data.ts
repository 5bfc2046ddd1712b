/**
 * The map data read model (spec §3): one row per map with its title, document and the map
 * stream revision it reflects. Pushed on topic `map:{id}`.
 */
import type { MapDataRecord } from '../events/read-models.js';
import { STREAM_PREFIXES } from '../events/streams.js';
import { topics } from '../events/topics.js';
import type { Queryable } from '../server/db/database.js';
import { mapEventsOf } from './map-events.js';
import type { Projection } from './projection.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS map_data (
  id text PRIMARY KEY,
  uid text NOT NULL,
  title text NOT NULL,
  data jsonb NOT NULL,
  revision bigint NOT NULL
);`;

export const mapDataProjection: Projection = {
  name: 'map_data',
  version: 1,
  schema: SCHEMA,
  tables: ['map_data'],
  streamPrefixes: [STREAM_PREFIXES[0]],
  async apply(tx, events, changed) {
    for (const { recorded, event } of mapEventsOf(events)) {
      const revision = recorded.revision.toString();
      switch (event.type) {
        case 'MapCreated': {
          const d = event.data;
          await tx.query(
            `INSERT INTO map_data (id, uid, title, data, revision) VALUES ($1, $2, $3, $4::jsonb, $5::bigint)
             ON CONFLICT (id) DO NOTHING`,
            [d.mapId, d.uid, d.title, JSON.stringify(d.document), revision],
          );
          break;
        }
        case 'MapSaved': {
          const d = event.data;
          await tx.query(
            `UPDATE map_data SET title = COALESCE($2, title), data = COALESCE($3::jsonb, data), revision = $4::bigint
             WHERE id = $1`,
            [d.mapId, d.title ?? null, d.document ? JSON.stringify(d.document) : null, revision],
          );
          break;
        }
        case 'MapDeleted':
          await tx.query('DELETE FROM map_data WHERE id = $1', [event.data.mapId]);
          break;
        default: {
          const unreachable: never = event;
          throw new Error(`Unhandled event ${String(unreachable)}`);
        }
      }
      changed.add(topics.map(event.data.mapId));
    }
  },
};

export interface MapDataRow extends MapDataRecord {
  uid: string;
}

export async function getMapData(db: Queryable, id: string): Promise<MapDataRow | null> {
  const { rows } = await db.query<{ id: string; uid: string; title: string; data: unknown; revision: string }>(
    'SELECT id, uid, title, data, revision::text FROM map_data WHERE id = $1',
    [id],
  );
  return rows[0] ?? null;
}
