/**
 * The map data read model (spec §3): one row per map with its title, document and the map
 * stream revision it reflects. Pushed on topic `map:{id}`.
 */
import { editOf, isEditEvent } from '../events/map.js';
import { MapDocument } from '../events/map-document.js';
import { applyEdit } from '../events/map-edits.js';
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
  // 2: map document v2 and edit events. 3: history and state events move the revision; restores.
  // 4: floors' drawings on other sites read as none (rows written before still name them).
  // 5: map document v3 (the path network): rows are rewritten so every reader gets `paths`.
  version: 5,
  schema: SCHEMA,
  tables: ['map_data'],
  streamPrefixes: [STREAM_PREFIXES[0]],
  // Stop: a map's document is the fold of every edit in its stream. Skipping one would apply
  // every later edit of that map to a wrong base and serve that document (and its revision) as
  // the map, which editors then save back into the log; frozen and loud beats silently wrong.
  onPoisonedEvent: 'stop',
  /** Folds the batch per map, then writes net changes in one statement per kind (see maps-list). */
  async apply(tx, events, changed) {
    const mapEvents = mapEventsOf(events);
    // Edits apply to the stored document: load those of maps this batch edits but did not create.
    const createdHere = new Set(mapEvents.filter(({ event }) => event.type === 'MapCreated').map(({ event }) => event.data.mapId));
    const toLoad = [...new Set(mapEvents.filter(({ event }) => isEditEvent(event) && !createdHere.has(event.data.mapId)).map(({ event }) => event.data.mapId))];
    const stored = new Map<string, MapDocument>();
    if (toLoad.length > 0) {
      const { rows } = await tx.query<{ id: string; data: unknown }>('SELECT id, data FROM map_data WHERE id = ANY($1::text[])', [toLoad]);
      for (const row of rows) stored.set(row.id, MapDocument.parse(row.data));
    }

    const inserts = new Map<string, { id: string; uid: string; title: string; data: MapDocument; revision: string }>();
    const updates = new Map<string, { id: string; revision: string; title?: string; data?: MapDocument }>();
    const deletes = new Set<string>();
    for (const { recorded, event } of mapEvents) {
      const mapId = event.data.mapId;
      const revision = recorded.revision.toString();
      switch (event.type) {
        case 'MapCreated':
          inserts.set(mapId, { id: mapId, uid: event.data.uid, title: event.data.title, data: event.data.document, revision });
          break;
        case 'MapSaved': {
          const d = event.data;
          const patch = { revision, ...(d.title !== undefined ? { title: d.title } : {}), ...(d.document ? { data: d.document } : {}) };
          const inserted = inserts.get(mapId);
          if (inserted) Object.assign(inserted, patch);
          else if (!deletes.has(mapId)) {
            updates.set(mapId, { ...updates.get(mapId), id: mapId, ...patch });
            if (d.document) stored.set(mapId, d.document);
          }
          break;
        }
        case 'MapDeleted':
          if (!inserts.delete(mapId)) deletes.add(mapId);
          updates.delete(mapId);
          break;
        case 'MapStateChanged':
        case 'VersionSaved':
        case 'VersionRenamed':
        case 'VersionDeleted':
        case 'MapMemberInvited':
        case 'MapInvitationAccepted':
        case 'MapInvitationRevoked':
        case 'MapMemberRoleChanged':
        case 'MapMemberRemoved':
        case 'MapMemberLeft':
        case 'MapViewLinkSet':
        case 'MapViewLinkRevoked': {
          // Sharing (members, invitations, the view link) is on the stream too, and moves the
          // revision likewise, or a whole-document save would be refused as stale.
          // The document stays; the record moves to the stream's revision (editors wait for it).
          const inserted = inserts.get(mapId);
          if (inserted) inserted.revision = revision;
          else if (!deletes.has(mapId)) updates.set(mapId, { ...updates.get(mapId), id: mapId, revision });
          break;
        }
        default: {
          const inserted = inserts.get(mapId);
          if (inserted) {
            inserted.data = applyEdit(inserted.data, editOf(event));
            inserted.revision = revision;
            break;
          }
          const current = stored.get(mapId);
          if (!current || deletes.has(mapId)) break;
          const next = applyEdit(current, editOf(event));
          stored.set(mapId, next);
          updates.set(mapId, { ...updates.get(mapId), id: mapId, revision, data: next });
        }
      }
      changed.add(topics.map(mapId));
    }
    if (inserts.size > 0) {
      await tx.query(
        `INSERT INTO map_data (id, uid, title, data, revision)
         SELECT id, uid, title, data, revision
           FROM jsonb_to_recordset($1::jsonb) AS r(id text, uid text, title text, data jsonb, revision bigint)
         ON CONFLICT (id) DO NOTHING`,
        [JSON.stringify([...inserts.values()])],
      );
    }
    if (updates.size > 0) {
      await tx.query(
        `UPDATE map_data m SET title = COALESCE(r.title, m.title), data = COALESCE(r.data, m.data), revision = r.revision
           FROM jsonb_to_recordset($1::jsonb) AS r(id text, title text, data jsonb, revision bigint)
          WHERE m.id = r.id`,
        [JSON.stringify([...updates.values()])],
      );
    }
    if (deletes.size > 0) await tx.query('DELETE FROM map_data WHERE id = ANY($1::text[])', [[...deletes]]);
  },
};

export interface MapDataRow extends MapDataRecord {
  uid: string;
}

/** A map's data, with its history entries from the maps list (an editor shows both). */
export async function getMapData(db: Queryable, id: string): Promise<MapDataRow | null> {
  const { rows } = await db.query<MapDataRow>(
    `SELECT d.id, d.uid, d.title, d.data, d.revision::text AS revision, COALESCE(l.history, '[]'::jsonb) AS history
       FROM map_data d LEFT JOIN maps_list l ON l.id = d.id
      WHERE d.id = $1`,
    [id],
  );
  return rows[0] ?? null;
}
