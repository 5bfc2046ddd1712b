/**
 * The live push's own notice for map topics: no read model, only "map:{id} has new events",
 * sent as soon as the events are in the log. The hub (server/live/live-hub.ts) then reads those
 * events from the map's stream and pushes them. Waiting for the map data projection instead
 * would put its work in every push: it loads, folds and writes back the whole document, which
 * for a 5,000-location map is a megabyte per edit, so the push would grow with the map.
 */
import { mapIdFromStream, STREAM_PREFIXES } from '../events/streams.js';
import { topics } from '../events/topics.js';
import type { Projection } from './projection.js';

export const mapLiveProjection: Projection = {
  name: 'map_live',
  version: 1,
  // Nothing to keep: the checkpoint is all (the statement only satisfies the runner's DDL step).
  schema: 'SELECT 1;',
  tables: [],
  streamPrefixes: [STREAM_PREFIXES[0]],
  async apply(_tx, events, changed) {
    for (const recorded of events) {
      const mapId = mapIdFromStream(recorded.stream);
      if (mapId !== null) changed.add(topics.map(mapId));
    }
  },
};
