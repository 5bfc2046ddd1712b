/**
 * The maps list read model (spec §3 map list item): one row per map that is not deleted, read
 * by owner (and, later, by author for admins). Pushed on topic `maps:{uid}`; a change of who
 * may see a map (created, state changed, deleted) also names `map:{id}`, which the public map
 * caches listen for (the public answer joins this table's state with map_data's document).
 */
import { editOf, isPublishingEvent, isSharingEvent, type HistoryEvent } from '../events/map.js';
import { metricsOf } from '../events/map-document.js';
import type { MapEdit } from '../events/map-edits.js';
import type { HistoryEntry, MapListItem } from '../events/read-models.js';
import { STREAM_PREFIXES } from '../events/streams.js';
import { topics } from '../events/topics.js';
import type { Queryable } from '../ports/database.js';
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
  // 2: map document v2 and edit events. 3: history entries.
  // 4: a removal counts each location once (logs recorded before issue 26 rebuild right).
  version: 4,
  schema: SCHEMA,
  tables: ['maps_list'],
  streamPrefixes: [STREAM_PREFIXES[0]],
  /**
   * Folds the batch in memory first, then writes each map's net change in one statement per
   * kind (insert, update, delete): catching up on a long log costs a few statements per batch
   * instead of one per event.
   */
  async apply(tx: Queryable, events, changed: ChangedTopics) {
    const inserts = new Map<string, NewRow>();
    const updates = new Map<string, RowPatch>();
    /** Maps whose state changed in this batch: their owners' slot usage changes too. */
    const stateChanged = new Set<string>();
    const deletes = new Set<string>();
    // History changes, in order, written after the rows of the batch exist (they are rare).
    const historyChanges: HistoryEvent[] = [];
    for (const { event } of mapEventsOf(events)) {
      // Sharing changes no row of the owner's list (projections/map-members.ts keeps members).
      // Nor does publishing (projections/map-publication.ts keeps which revision is public).
      // Nor does a data source being set (its syncs are edits, counted as such).
      if (isSharingEvent(event) || isPublishingEvent(event) || event.type === 'MapDataSourceSet' || event.type === 'MapDataSourceSyncStarted' || event.type === 'MapDataSourceSyncFailed' || event.type === 'MapDataSourceOverridesFound' || event.type === 'MapDataSourceOverridesResolved') continue;
      const mapId = event.data.mapId;
      switch (event.type) {
        case 'VersionSaved':
        case 'VersionRenamed':
        case 'VersionDeleted':
          historyChanges.push(event);
          break;
        case 'MapStateChanged': {
          const patch = { state: event.data.state, subscribed: event.data.subscribed };
          stateChanged.add(mapId);
          const inserted = inserts.get(mapId);
          if (inserted) Object.assign(inserted, patch);
          else if (!deletes.has(mapId)) {
            const update = updates.get(mapId);
            // The list's edited time stays: a state change is not an edit of the map.
            updates.set(mapId, { ...update, id: mapId, edited: update?.edited ?? null, ...patch });
          }
          break;
        }
        case 'MapCreated': {
          const d = event.data;
          const metrics = metricsOf(d.document);
          inserts.set(mapId, {
            id: mapId, title: d.title, uid: d.uid, author: d.author, created: d.created, edited: d.created, state: d.state,
            layer_count: metrics.layerCount, location_count: metrics.locationCount,
          });
          changed.add(topics.maps(d.uid));
          // Slot usage (the billing topic) counts maps by state.
          changed.add(topics.billing(d.uid));
          // Who may see the map (its state) is this row's: caches of the public map drop it.
          changed.add(topics.map(mapId));
          break;
        }
        case 'MapSaved': {
          const d = event.data;
          const metrics = d.document ? metricsOf(d.document) : null;
          const patch = {
            edited: d.edited,
            ...(d.title !== undefined ? { title: d.title } : {}),
            ...(metrics ? { layer_count: metrics.layerCount, location_count: metrics.locationCount } : {}),
          };
          const inserted = inserts.get(mapId);
          if (inserted) Object.assign(inserted, patch);
          else if (!deletes.has(mapId)) updates.set(mapId, { ...updates.get(mapId), id: mapId, ...patch });
          break;
        }
        case 'MapDeleted': {
          const inserted = inserts.get(mapId);
          if (inserted) inserts.delete(mapId);
          else deletes.add(mapId);
          updates.delete(mapId);
          break;
        }
        default: {
          // A document edit: the edit time, and the counts it changes.
          const delta = metricsDelta(editOf(event));
          const patch = (row: { layer_count?: number; location_count?: number; edited: string | null }) => {
            row.edited = event.data.edited;
            if (delta.absolute) {
              row.layer_count = delta.absolute.layerCount;
              row.location_count = delta.absolute.locationCount;
            } else if (row.layer_count !== undefined && row.location_count !== undefined) {
              row.layer_count += delta.layers;
              row.location_count += delta.locations;
            }
          };
          const inserted = inserts.get(mapId);
          if (inserted) patch(inserted);
          else if (!deletes.has(mapId)) {
            const update = updates.get(mapId) ?? { id: mapId, edited: event.data.edited };
            patch(update);
            if (!delta.absolute && update.layer_count === undefined) {
              update.layer_delta = (update.layer_delta ?? 0) + delta.layers;
              update.location_delta = (update.location_delta ?? 0) + delta.locations;
            }
            updates.set(mapId, update);
          }
        }
      }
    }
    if (inserts.size > 0) {
      await tx.query(
        `INSERT INTO maps_list (id, title, uid, author, created, edited, state, subscribed, layer_count, location_count)
         SELECT id, title, uid, author, created, edited, state, COALESCE(subscribed, false), layer_count, location_count
           FROM jsonb_to_recordset($1::jsonb) AS r(id text, title text, uid text, author text, created timestamptz,
                edited timestamptz, state integer, subscribed boolean, layer_count integer, location_count integer)
         ON CONFLICT (id) DO NOTHING`,
        [JSON.stringify([...inserts.values()])],
      );
    }
    if (updates.size > 0) {
      const { rows } = await tx.query<{ id: string; uid: string }>(
        `UPDATE maps_list m SET title = COALESCE(r.title, m.title), edited = COALESCE(r.edited, m.edited),
           state = COALESCE(r.state, m.state), subscribed = COALESCE(r.subscribed, m.subscribed),
           layer_count = COALESCE(r.layer_count, m.layer_count + COALESCE(r.layer_delta, 0)),
           location_count = COALESCE(r.location_count, m.location_count + COALESCE(r.location_delta, 0))
           FROM jsonb_to_recordset($1::jsonb) AS r(id text, title text, edited timestamptz, state integer, subscribed boolean,
                layer_count integer, location_count integer, layer_delta integer, location_delta integer)
          WHERE m.id = r.id RETURNING m.id, m.uid`,
        [JSON.stringify([...updates.values()])],
      );
      for (const row of rows) {
        changed.add(topics.maps(row.uid));
        if (stateChanged.has(row.id)) {
          changed.add(topics.billing(row.uid));
          // Published, unpublished: the public map's caches (server/public-maps) drop it.
          changed.add(topics.map(row.id));
        }
      }
    }
    if (deletes.size > 0) {
      const { rows } = await tx.query<{ id: string; uid: string }>('DELETE FROM maps_list WHERE id = ANY($1::text[]) RETURNING id, uid', [[...deletes]]);
      for (const row of rows) {
        changed.add(topics.maps(row.uid));
        changed.add(topics.billing(row.uid));
        changed.add(topics.map(row.id));
      }
    }
    for (const event of historyChanges) {
      const { rows } = await applyHistoryChange(tx, event);
      for (const row of rows) {
        changed.add(topics.maps(row.uid));
        // The editor's topic carries the history too (see server/live/topic-access.ts).
        changed.add(topics.map(event.data.mapId));
      }
    }
  },
};

/** One history change on a map's row (the list keeps its entries oldest first). */
function applyHistoryChange(tx: Queryable, event: HistoryEvent) {
  const { mapId, historyId } = event.data;
  switch (event.type) {
    case 'VersionSaved': {
      const d = event.data;
      const entry: HistoryEntry = { id: historyId, mapId, revision: d.revision, created: d.created, author: d.author, auto: d.auto, ...(d.name !== undefined ? { name: d.name } : {}) };
      return tx.query<{ uid: string }>('UPDATE maps_list SET history = history || $2::jsonb WHERE id = $1 RETURNING uid', [mapId, JSON.stringify([entry])]);
    }
    case 'VersionRenamed':
      return tx.query<{ uid: string }>(
        `UPDATE maps_list SET history = (
           SELECT COALESCE(jsonb_agg(CASE WHEN e->>'id' = $2 THEN jsonb_set(e, '{name}', to_jsonb($3::text)) ELSE e END ORDER BY n), '[]'::jsonb)
             FROM jsonb_array_elements(history) WITH ORDINALITY AS t(e, n))
          WHERE id = $1 RETURNING uid`,
        [mapId, historyId, event.data.name],
      );
    case 'VersionDeleted':
      return tx.query<{ uid: string }>(
        `UPDATE maps_list SET history = (
           SELECT COALESCE(jsonb_agg(e ORDER BY n), '[]'::jsonb)
             FROM jsonb_array_elements(history) WITH ORDINALITY AS t(e, n) WHERE e->>'id' <> $2)
          WHERE id = $1 RETURNING uid`,
        [mapId, historyId],
      );
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

interface NewRow {
  id: string;
  title: string;
  uid: string;
  author: string;
  created: string;
  edited: string;
  state: number;
  subscribed?: boolean;
  layer_count: number;
  location_count: number;
}

interface RowPatch {
  id: string;
  /** Null when only the state changed (the edited time stays). */
  edited: string | null;
  title?: string;
  state?: number;
  subscribed?: boolean;
  /** Absolute counts, when the batch knows them (a whole document was saved). */
  layer_count?: number;
  location_count?: number;
  /** Otherwise the change to the stored counts. */
  layer_delta?: number;
  location_delta?: number;
}

/** How an edit changes the list's counts: by a delta, or to absolute numbers. */
function metricsDelta(edit: MapEdit): { layers: number; locations: number; absolute?: ReturnType<typeof metricsOf> } {
  switch (edit.type) {
    case 'LocationAdded':
      return { layers: 0, locations: 1 };
    case 'LocationRemoved':
      return { layers: 0, locations: -1 };
    case 'LayerAdded':
      return { layers: 1, locations: 0 };
    case 'LayerRemoved':
      return { layers: -1, locations: -edit.removedLocations.length };
    case 'ImportApplied':
      return { layers: edit.layers.length, locations: edit.locations.length };
    case 'LocationsRemoved':
      // Distinct ids: a removal recorded before issue 26 could name one location many times (-49).
      return { layers: 0, locations: -new Set(edit.ids).size };
    case 'DocumentImported':
    case 'MapRestored':
      return { layers: 0, locations: 0, absolute: metricsOf(edit.document) };
    default:
      return { layers: 0, locations: 0 };
  }
}

/** A row of the maps_list table as the database answers it. */
export interface MapsListRow {
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

/** A maps_list row as the map list item of spec §3. */
export function toItem(row: MapsListRow): MapListItem {
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
