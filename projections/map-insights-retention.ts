/**
 * A deleted map's insights go with it: on `MapDeleted`, its rows of `map_insights` (the
 * visitors' counts, server/insights/insights-counter.ts) are deleted and the map noted in
 * `map_insights_deleted`, so counts still pending in a server's memory when it went are not
 * written after (the counter's insert skips noted maps).
 *
 * A projection for its place in the runner (in order, exactly once, after a restart too), but
 * it owns no table a rebuild may empty: the counts are not made from the log and could never
 * come back (`tables` is empty). Starting for the first time, it reads the whole log, so maps
 * deleted before it existed lose their counts too.
 */
import { MapDeleted } from '../events/map.js';
import { STREAM_PREFIXES } from '../events/streams.js';
import type { Projection } from './projection.js';

/**
 * The insights tables, made by whichever of the counter (server/insights/insights-counter.ts) and this
 * projection starts first. `map_insights_deleted`: the maps deleted (this projection deletes their
 * rows and notes them here), whose late counts, pending in memory when the map went, are not
 * written. Both tables are made by whichever of the counter and that projection starts first.
 */
export const INSIGHTS_SCHEMA = `
CREATE TABLE IF NOT EXISTS map_insights (
  map_id text NOT NULL,
  day date NOT NULL,
  kind text NOT NULL,
  key text NOT NULL,
  count bigint NOT NULL,
  PRIMARY KEY (map_id, day, kind, key)
);
CREATE TABLE IF NOT EXISTS map_insights_deleted (
  map_id text PRIMARY KEY
);`;


export const mapInsightsRetentionProjection: Projection = {
  name: 'map_insights_retention',
  version: 1,
  schema: INSIGHTS_SCHEMA,
  tables: [],
  streamPrefixes: [STREAM_PREFIXES[0]],
  eventTypes: new Set(['MapDeleted']),
  async apply(tx, events) {
    const deleted = events.filter((recorded) => recorded.type === 'MapDeleted').map((recorded) => MapDeleted.parse({ type: recorded.type, data: recorded.data }).data.mapId);
    if (deleted.length === 0) return;
    await tx.query('INSERT INTO map_insights_deleted (map_id) SELECT * FROM unnest($1::text[]) ON CONFLICT DO NOTHING', [deleted]);
    await tx.query('DELETE FROM map_insights WHERE map_id = ANY($1::text[])', [deleted]);
  },
};
