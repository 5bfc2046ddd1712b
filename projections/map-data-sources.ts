/**
 * Which maps' data sources sync on a schedule, and when each is next due (issue 30 item 4;
 * events/map-data-source.ts): one row per map with an hourly or daily source. The sync
 * scheduler (server/import/sync-scheduler.ts) finds the due ones here; the map decider decides
 * whether a sync is really due (a read model behind the log only delays a sync to a later tick).
 */
import { SYNC_EVERY_MS, type DataSource } from '../events/map-data-source.js';
import { STREAM_PREFIXES } from '../events/streams.js';
import type { Queryable } from '../ports/database.js';
import type { RecordedEvent } from '../ports/event-store.js';
import type { Projection } from './projection.js';

export const MAP_DATA_SOURCES_PROJECTION = 'map_data_sources';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS map_data_sources (
  map_id text PRIMARY KEY,
  every_ms bigint NOT NULL,
  next_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS map_data_sources_due ON map_data_sources (next_at);`;

const later = (at: string, everyMs: number) => new Date(Date.parse(at) + everyMs).toISOString();

export const mapDataSourcesProjection: Projection = {
  name: MAP_DATA_SOURCES_PROJECTION,
  version: 1,
  schema: SCHEMA,
  tables: ['map_data_sources'],
  streamPrefixes: [STREAM_PREFIXES[0]],
  eventTypes: new Set(['MapDataSourceSet', 'MapDataSourceSyncStarted', 'ImportApplied', 'MapDeleted']),
  async apply(tx, events: readonly RecordedEvent[]) {
    for (const recorded of events) {
      const data = recorded.data as { mapId?: string; at?: string; edited?: string; source?: unknown };
      if (!data.mapId) continue;
      switch (recorded.type) {
        case 'MapDataSourceSet': {
          const source = data.source as DataSource | null;
          if (!source || source.schedule === 'manual') await tx.query('DELETE FROM map_data_sources WHERE map_id = $1', [data.mapId]);
          else {
            const everyMs = SYNC_EVERY_MS[source.schedule];
            await tx.query(
              `INSERT INTO map_data_sources (map_id, every_ms, next_at) VALUES ($1, $2, $3)
               ON CONFLICT (map_id) DO UPDATE SET every_ms = EXCLUDED.every_ms, next_at = EXCLUDED.next_at`,
              [data.mapId, everyMs, later(data.at!, everyMs)],
            );
          }
          break;
        }
        case 'MapDataSourceSyncStarted':
          await tx.query(`UPDATE map_data_sources SET next_at = $2::timestamptz + every_ms * interval '1 millisecond' WHERE map_id = $1`, [data.mapId, data.at]);
          break;
        case 'ImportApplied':
          if ((data.source as { sync?: boolean } | undefined)?.sync) {
            await tx.query(`UPDATE map_data_sources SET next_at = $2::timestamptz + every_ms * interval '1 millisecond' WHERE map_id = $1`, [data.mapId, data.edited]);
          }
          break;
        case 'MapDeleted':
          await tx.query('DELETE FROM map_data_sources WHERE map_id = $1', [data.mapId]);
          break;
        default:
      }
    }
  },
};

/** The maps whose scheduled sync is due at `now`, most overdue first. */
export async function dueSyncs(db: Queryable, now: Date, limit = 100): Promise<string[]> {
  const { rows } = await db.query<{ map_id: string }>('SELECT map_id FROM map_data_sources WHERE next_at <= $1 ORDER BY next_at LIMIT $2', [now.toISOString(), limit]);
  return rows.map((row) => row.map_id);
}
