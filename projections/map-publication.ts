/**
 * Which revision of each map the public sees (issue 27: drafts, review and scheduled
 * publishing; events/map-publishing.ts): one small row per map that ever had a publishing
 * event. A map without a row is live (recorded before publishing existed): the public sees its
 * current document, as before. The public map cache (server/public-maps/public-map-cache.ts)
 * joins this row; the publish scheduler (server/publishing/publish-scheduler.ts) finds the
 * schedules that are due here.
 *
 * A change notices `map:{id}`, so caches of the public map drop what they kept: this row and
 * `map_data` commit separately, and whichever commits second drops what was built between.
 */
import { MAP_EVENT_TYPES, MapCreated } from '../events/map.js';
import { isPublishingEvent, MapPublishingEvent, PUBLISHING_EVENT_TYPES, type PublishMode } from '../events/map-publishing.js';
import { STREAM_PREFIXES } from '../events/streams.js';
import { topics } from '../events/topics.js';
import type { Queryable } from '../ports/database.js';
import type { RecordedEvent } from '../ports/event-store.js';
import type { Projection } from './projection.js';

export const MAP_PUBLICATION_PROJECTION = 'map_publication';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS map_publication (
  map_id text PRIMARY KEY,
  mode text NOT NULL,
  published_revision bigint,
  published_at timestamptz,
  published_by text,
  scheduled_revision bigint,
  publish_at timestamptz,
  scheduled_by text
);
CREATE INDEX IF NOT EXISTS map_publication_due ON map_publication (publish_at) WHERE publish_at IS NOT NULL;`;

interface Row {
  map_id: string;
  mode: PublishMode;
  published_revision: string | null;
  published_at: string | null;
  published_by: string | null;
  scheduled_revision: string | null;
  publish_at: string | null;
  scheduled_by: string | null;
}

function emptyRow(mapId: string): Row {
  return { map_id: mapId, mode: 'live', published_revision: null, published_at: null, published_by: null, scheduled_revision: null, publish_at: null, scheduled_by: null };
}

function applyEvent(row: Row, event: MapPublishingEvent): void {
  switch (event.type) {
    case 'MapPublishModeSet':
      row.mode = event.data.mode;
      if (event.data.mode === 'live') Object.assign(row, { scheduled_revision: null, publish_at: null, scheduled_by: null });
      return;
    case 'MapPublished':
      Object.assign(row, { published_revision: event.data.revision, published_at: event.data.at, published_by: event.data.by, scheduled_revision: null, publish_at: null, scheduled_by: null });
      return;
    case 'MapPublishScheduled':
      Object.assign(row, { scheduled_revision: event.data.revision, publish_at: event.data.publishAt, scheduled_by: event.data.by });
      return;
    case 'MapPublishScheduleCancelled':
      Object.assign(row, { scheduled_revision: null, publish_at: null, scheduled_by: null });
      return;
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

export const mapPublicationProjection: Projection = {
  name: MAP_PUBLICATION_PROJECTION,
  version: 1,
  schema: SCHEMA,
  tables: ['map_publication'],
  streamPrefixes: [STREAM_PREFIXES[0]],
  eventTypes: new Set([...PUBLISHING_EVENT_TYPES, 'MapDeleted', 'MapCreated']),
  /** Folds the batch per map (rows read once), then writes each touched row once. */
  async apply(tx, events: readonly RecordedEvent[], changed) {
    const touched = new Map<string, Row>();
    const deleted = new Set<string>();
    const relevant = events.filter(
      (recorded) => PUBLISHING_EVENT_TYPES.has(recorded.type) || recorded.type === 'MapDeleted' || (recorded.type === 'MapCreated' && (recorded.data as { publishMode?: unknown }).publishMode !== undefined),
    );
    if (relevant.length === 0) return;
    const ids = [...new Set(relevant.map((recorded) => (recorded.data as { mapId: string }).mapId))];
    const { rows } = await tx.query<Row>(
      `SELECT map_id, mode, published_revision::text AS published_revision, published_at, published_by,
              scheduled_revision::text AS scheduled_revision, publish_at, scheduled_by
         FROM map_publication WHERE map_id = ANY($1::text[])`,
      [ids],
    );
    const stored = new Map(rows.map((row) => [row.map_id, { ...row, published_at: isoOrNull(row.published_at), publish_at: isoOrNull(row.publish_at) }]));
    for (const recorded of relevant) {
      if (!MAP_EVENT_TYPES.has(recorded.type)) continue;
      const mapId = (recorded.data as { mapId: string }).mapId;
      changed.add(topics.map(mapId));
      if (recorded.type === 'MapDeleted') {
        touched.delete(mapId);
        deleted.add(mapId);
        continue;
      }
      if (recorded.type === 'MapCreated') {
        // A new map's mode from the start (manual): not public until published.
        const { publishMode } = MapCreated.parse({ type: recorded.type, data: recorded.data }).data;
        deleted.delete(mapId);
        touched.set(mapId, { ...emptyRow(mapId), mode: publishMode ?? 'live' });
        continue;
      }
      const event = MapPublishingEvent.parse({ type: recorded.type, data: recorded.data });
      if (!isPublishingEvent(event)) continue;
      deleted.delete(mapId);
      const row = touched.get(mapId) ?? stored.get(mapId) ?? emptyRow(mapId);
      applyEvent(row, event);
      touched.set(mapId, row);
    }
    if (deleted.size > 0) await tx.query('DELETE FROM map_publication WHERE map_id = ANY($1::text[])', [[...deleted]]);
    if (touched.size === 0) return;
    await tx.query(
      `INSERT INTO map_publication (map_id, mode, published_revision, published_at, published_by, scheduled_revision, publish_at, scheduled_by)
       SELECT map_id, mode, published_revision, published_at, published_by, scheduled_revision, publish_at, scheduled_by
         FROM jsonb_to_recordset($1::jsonb) AS r(map_id text, mode text, published_revision bigint, published_at timestamptz, published_by text,
                                                 scheduled_revision bigint, publish_at timestamptz, scheduled_by text)
       ON CONFLICT (map_id) DO UPDATE SET mode = EXCLUDED.mode, published_revision = EXCLUDED.published_revision, published_at = EXCLUDED.published_at,
         published_by = EXCLUDED.published_by, scheduled_revision = EXCLUDED.scheduled_revision, publish_at = EXCLUDED.publish_at, scheduled_by = EXCLUDED.scheduled_by`,
      [JSON.stringify([...touched.values()])],
    );
  },
};

function isoOrNull(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString();
}

// ---- queries ------------------------------------------------------------------------------

/** What the public is shown of a map: live (its current revision) or manual (`revision`, null: not public yet). */
export type Publication = { mode: 'live' } | { mode: 'manual'; revision: string | null };

/** Columns for a reader joining `map_publication` aliased `alias` (a map without a row is live). */
export function publicationColumnsSql(alias: string): string {
  return `COALESCE(${alias}.mode, 'live') AS publish_mode, ${alias}.published_revision::text AS published_revision`;
}

export function publicationOfRow(row: { publish_mode: string; published_revision: string | null }): Publication {
  return row.publish_mode === 'manual' ? { mode: 'manual', revision: row.published_revision } : { mode: 'live' };
}

/** The maps whose scheduled publish is due at `now`, oldest first. */
export async function duePublishes(db: Queryable, now: Date, limit = 100): Promise<string[]> {
  const { rows } = await db.query<{ map_id: string }>(
    'SELECT map_id FROM map_publication WHERE publish_at IS NOT NULL AND publish_at <= $1 ORDER BY publish_at LIMIT $2',
    [now.toISOString(), limit],
  );
  return rows.map((row) => row.map_id);
}
