/**
 * The map data read model (spec §3): one row per map with its title, document and the map
 * stream revision it reflects, one row per location in `map_locations` (issue 19: at 25,000
 * locations a document is 8 MB, and an edit of one location must not rewrite it) and one row per
 * path point, link and connector in `map_paths` (issue 26: a network as big as the map's
 * locations made every path edit, and every edit of the rest of the document, write megabytes).
 * `data` holds the document without its locations and its paths; {@link mapDocumentSql} and
 * {@link documentOfRow} put them back, in their order, for every reader, giving the very
 * document (keys in the same order) the row held whole before. Pushed on topic `map:{id}`.
 *
 * An edit applies to the document as it was (events/map-edits.ts applyEdit). The documents this
 * process wrote last are kept in memory with the token written in their row: when the row still
 * holds that token (no other process or rollback wrote it since) the kept document is the
 * stored one and nothing is read; otherwise it is read back from the rows. Then only what the
 * events changed is written: the locations that changed (projections/location-changes.ts), and
 * the rest of the document when it changed.
 */
import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { editOf, isEditEvent } from '../events/map.js';
import { MapDocument } from '../events/map-document.js';
import { applyEdit } from '../events/map-edits.js';
import type { MapDataRecord } from '../events/read-models.js';
import { STREAM_PREFIXES } from '../events/streams.js';
import { topics } from '../events/topics.js';
import type { Queryable } from '../ports/database.js';
import { mapEventsOf } from './map-events.js';
import { MAP_RECORD_ROWS_SCHEMA, PATH_KINDS, RecordRowWrites } from './map-record-rows.js';
import type { Projection } from './projection.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS map_data (
  id text PRIMARY KEY,
  uid text NOT NULL,
  title text NOT NULL,
  data jsonb NOT NULL,
  revision bigint NOT NULL
);
ALTER TABLE map_data ADD COLUMN IF NOT EXISTS token text NOT NULL DEFAULT '';
${MAP_RECORD_ROWS_SCHEMA}`;

/** One list of a map's path records, as a jsonb array, in order. */
function pathListSql(alias: string, kind: string): string {
  return `COALESCE((SELECT jsonb_agg(mp.data ORDER BY mp.ord) FROM map_paths mp WHERE mp.map_id = ${alias}.id AND mp.kind = '${kind}'), '[]'::jsonb)`;
}

/** One list of a map's path records as the text of a JSON list's items, in order ('' for none). */
function pathItemsSql(alias: string, kind: string): string {
  return `COALESCE((SELECT string_agg(mp.data::text, ',' ORDER BY mp.ord) FROM map_paths mp WHERE mp.map_id = ${alias}.id AND mp.kind = '${kind}'), '')`;
}

/**
 * The map's document from a `map_data` row aliased `alias`: its data with its locations from
 * `map_locations`, in their order, as one jsonb value (for SQL that works on the document).
 */
export function mapDocumentSql(alias: string): string {
  const paths = PATH_KINDS.map((kind) => `'${kind}', ${pathListSql(alias, kind)}`).join(', ');
  return `(${alias}.data || jsonb_build_object('locations', COALESCE((SELECT jsonb_agg(ml.data ORDER BY ml.ord) FROM map_locations ml WHERE ml.map_id = ${alias}.id), '[]'::jsonb), 'paths', jsonb_build_object(${paths})))`;
}

/**
 * The columns a reader selects for a map's document from a `map_data` row aliased `alias`:
 * `data` (the document without locations and paths), `locations` (its locations as the text of
 * a JSON list's items, in order) and `paths` (the path network as JSON text, its lists in the
 * order jsonb keeps an object's keys). Text, not one jsonb: building an 8 MB jsonb to print it
 * again took twice as long as printing each row; {@link documentOfRow} puts them together.
 */
export function mapDocumentColumnsSql(alias: string): string {
  return `${alias}.data AS data, (SELECT string_agg(ml.data::text, ',' ORDER BY ml.ord) FROM map_locations ml WHERE ml.map_id = ${alias}.id) AS locations, ${pathsTextSql(alias)} AS paths`;
}

/** {@link mapDocumentColumnsSql} without the locations, for a reader that reads them in pages (the live snapshot of a big map). */
export function mapDocumentRestColumnsSql(alias: string): string {
  return `${alias}.data AS data, ${pathsTextSql(alias)} AS paths`;
}

function pathsTextSql(alias: string): string {
  const lists = [...PATH_KINDS].sort(jsonbKeyOrder).map((kind, i) => `'${i === 0 ? '{' : ','}"${kind}":[' || ${pathItemsSql(alias, kind)} || ']'`);
  return `(${lists.join(' || ')} || '}')`;
}

/**
 * The order jsonb keeps an object's keys in (shorter first, then byte by byte): the order the
 * document's keys came back in when `data` held the whole document, kept for every reader.
 */
function jsonbKeyOrder(a: string, b: string): number {
  const lengths = Buffer.byteLength(a) - Buffer.byteLength(b);
  return lengths !== 0 ? lengths : Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/**
 * The document of a row read with {@link mapDocumentColumnsSql}: `data`'s keys and `paths` in
 * jsonb's order, then the locations, as the whole document read before its lists became rows.
 */
export function documentOfRow(row: { data: unknown; locations: string | null; paths: string }): unknown {
  const rest: Record<string, unknown> = { ...(row.data as Record<string, unknown>), paths: JSON.parse(row.paths) as unknown };
  const document: Record<string, unknown> = {};
  for (const key of Object.keys(rest).sort(jsonbKeyOrder)) document[key] = rest[key];
  document.locations = JSON.parse(`[${row.locations ?? ''}]`) as unknown[];
  return document;
}

/** A document as `map_data.data` keeps it: everything but its locations and its paths. */
function restOf(document: MapDocument): Omit<MapDocument, 'locations' | 'paths'> {
  const { locations: _locations, paths: _paths, ...rest } = document;
  return rest;
}

/** Whether anything but the locations and paths differs (edits keep what they do not touch, so references tell). */
function restChanged(before: MapDocument, after: MapDocument): boolean {
  for (const key of Object.keys(after) as Array<keyof MapDocument>) if (key !== 'locations' && key !== 'paths' && before[key] !== after[key]) return true;
  return Object.keys(before).length !== Object.keys(after).length;
}

/** The rows of a map's records to write for a document that replaces `before` (null: all of them). */
function addRecordRows(rows: { locations: RecordRowWrites; paths: RecordRowWrites }, mapId: string, before: MapDocument | null, after: MapDocument): void {
  if (before) rows.locations.add(mapId, '', before.locations, after.locations);
  else rows.locations.rewrite(mapId, '', after.locations);
  if (before?.paths === after.paths) return;
  for (const kind of PATH_KINDS) {
    if (before) rows.paths.add(mapId, kind, before.paths[kind], after.paths[kind]);
    else rows.paths.rewrite(mapId, kind, after.paths[kind]);
  }
}

interface Kept {
  /** Written with the document; any later write of the document writes another. */
  token: string;
  document: MapDocument;
}

/**
 * The documents last written by this process, counted in locations: a few big maps being
 * edited, or many small ones. A kept document is only used while its row holds its token.
 */
const kept = new LRUCache<string, Kept>({
  maxSize: 400_000,
  sizeCalculation: ({ document }) => 1 + document.locations.length + document.paths.nodes.length + document.paths.edges.length + document.paths.connectors.length,
});

/** The stored documents of `ids`, from memory when the row is as this process left it. */
async function storedDocuments(tx: Queryable, ids: readonly string[]): Promise<Map<string, MapDocument>> {
  const documents = new Map<string, MapDocument>();
  if (ids.length === 0) return documents;
  const { rows } = await tx.query<{ id: string; token: string }>('SELECT id, token FROM map_data WHERE id = ANY($1::text[])', [ids]);
  const toRead: string[] = [];
  for (const row of rows) {
    const entry = kept.get(row.id);
    if (entry && row.token !== '' && entry.token === row.token) documents.set(row.id, entry.document);
    else toRead.push(row.id);
  }
  if (toRead.length > 0) {
    const read = await tx.query<{ id: string; data: unknown; locations: string | null; paths: string }>(`SELECT d.id, ${mapDocumentColumnsSql('d')} FROM map_data d WHERE d.id = ANY($1::text[])`, [toRead]);
    for (const row of read.rows) documents.set(row.id, MapDocument.parse(documentOfRow(row)));
  }
  return documents;
}

/** A map's row as this batch leaves it: inserted (new here) or updated, with its document before and after. */
interface Written {
  id: string;
  insert: boolean;
  uid?: string;
  title?: string;
  revision: string;
  /** The document as stored before the batch (updates), null for an insert or one replaced whole. */
  before: MapDocument | null;
  /** The document now; undefined when the batch did not touch it (title, state). */
  after?: MapDocument;
}

export const mapDataProjection: Projection = {
  name: 'map_data',
  // 2: map document v2 and edit events. 3: history and state events move the revision; restores.
  // 4: floors' drawings on other sites read as none (rows written before still name them).
  // 5: map document v3 (the path network): rows are rewritten so every reader gets `paths`.
  // 6: locations as rows of map_locations (an edit writes what it changed).
  // 7: path points, links and connectors as rows of map_paths; `data` without them.
  version: 7,
  schema: SCHEMA,
  tables: ['map_data', 'map_locations', 'map_paths'],
  streamPrefixes: [STREAM_PREFIXES[0]],
  /** Folds the batch per map, then writes net changes in one statement per kind (see maps-list). */
  async apply(tx, events, changed) {
    const mapEvents = mapEventsOf(events);
    // Edits apply to the stored document: load those of maps this batch edits but did not create.
    const createdHere = new Set(mapEvents.filter(({ event }) => event.type === 'MapCreated').map(({ event }) => event.data.mapId));
    const toLoad = [...new Set(mapEvents.filter(({ event }) => isEditEvent(event) && !createdHere.has(event.data.mapId)).map(({ event }) => event.data.mapId))];
    const stored = await storedDocuments(tx, toLoad);

    const written = new Map<string, Written>();
    const deletes = new Set<string>();
    /** The map's row as this batch writes it (an update of the stored row unless created here). */
    const rowOf = (mapId: string, revision: string): Written | null => {
      const row = written.get(mapId);
      if (row) {
        row.revision = revision;
        return row;
      }
      if (deletes.has(mapId)) return null;
      const update: Written = { id: mapId, insert: false, revision, before: null };
      written.set(mapId, update);
      return update;
    };
    for (const { recorded, event } of mapEvents) {
      const mapId = event.data.mapId;
      const revision = recorded.revision.toString();
      switch (event.type) {
        case 'MapCreated':
          written.set(mapId, { id: mapId, insert: true, uid: event.data.uid, title: event.data.title, revision, before: null, after: event.data.document });
          break;
        case 'MapSaved': {
          const d = event.data;
          const row = rowOf(mapId, revision);
          if (!row) break;
          if (d.title !== undefined) row.title = d.title;
          if (d.document) {
            // A whole document: what was stored before stays the base its rows are compared with.
            if (!row.insert && row.after === undefined) row.before = stored.get(mapId) ?? null;
            row.after = d.document;
          }
          break;
        }
        case 'MapDeleted':
          if (!written.get(mapId)?.insert) deletes.add(mapId);
          written.delete(mapId);
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
        case 'MapViewLinkRevoked':
        case 'MapPublishModeSet':
        case 'MapPublished':
        case 'MapPublishScheduled':
        case 'MapPublishScheduleCancelled':
        case 'MapDataSourceSet':
        case 'MapDataSourceSyncStarted':
        case 'MapDataSourceSyncFailed':
        case 'MapDataSourceOverridesFound':
        case 'MapDataSourceOverridesResolved':
          // Sharing (members, invitations, the view link) is on the stream too, and moves the
          // revision likewise, or a whole-document save would be refused as stale.
          // The document stays; the record moves to the stream's revision (editors wait for it).
          rowOf(mapId, revision);
          break;
        default: {
          const existing = written.get(mapId);
          const current = existing?.after ?? (existing?.insert ? undefined : stored.get(mapId));
          if (!current || deletes.has(mapId)) break;
          const row = rowOf(mapId, revision)!;
          if (!row.insert && row.after === undefined) row.before = current;
          row.after = applyEdit(current, editOf(event));
        }
      }
      changed.add(topics.map(mapId));
    }

    const inserts: object[] = [];
    const updates: object[] = [];
    const records = { locations: new RecordRowWrites('map_locations'), paths: new RecordRowWrites('map_paths') };
    const keep: Array<[string, Kept]> = [];
    for (const row of written.values()) {
      const token = row.after ? randomUUID() : undefined;
      if (row.after && token) keep.push([row.id, { token, document: row.after }]);
      if (row.insert) {
        inserts.push({ id: row.id, uid: row.uid, title: row.title, revision: row.revision, token, data: restOf(row.after!) });
        addRecordRows(records, row.id, null, row.after!);
        continue;
      }
      const update: Record<string, unknown> = { id: row.id, revision: row.revision };
      if (row.title !== undefined) update.title = row.title;
      if (row.after) {
        update.token = token;
        if (!row.before || restChanged(row.before, row.after)) update.data = restOf(row.after);
        addRecordRows(records, row.id, row.before, row.after);
      }
      updates.push(update);
    }
    if (inserts.length > 0) {
      await tx.query(
        `INSERT INTO map_data (id, uid, title, data, revision, token)
         SELECT id, uid, title, data, revision, token
           FROM jsonb_to_recordset($1::jsonb) AS r(id text, uid text, title text, data jsonb, revision bigint, token text)
         ON CONFLICT (id) DO NOTHING`,
        [JSON.stringify(inserts)],
      );
    }
    if (updates.length > 0) {
      await tx.query(
        `UPDATE map_data m SET title = COALESCE(r.title, m.title), data = COALESCE(r.data, m.data), revision = r.revision, token = COALESCE(r.token, m.token)
           FROM jsonb_to_recordset($1::jsonb) AS r(id text, title text, data jsonb, revision bigint, token text)
          WHERE m.id = r.id`,
        [JSON.stringify(updates)],
      );
    }
    if (deletes.size > 0) {
      await tx.query('DELETE FROM map_data WHERE id = ANY($1::text[])', [[...deletes]]);
      await tx.query('DELETE FROM map_locations WHERE map_id = ANY($1::text[])', [[...deletes]]);
      await tx.query('DELETE FROM map_paths WHERE map_id = ANY($1::text[])', [[...deletes]]);
    }
    await records.locations.write(tx);
    await records.paths.write(tx);
    // Used by the next batch only if this one commits: its rows then hold these tokens.
    for (const id of deletes) kept.delete(id);
    for (const [id, entry] of keep) kept.set(id, entry);
  },
};

export interface MapDataRow extends MapDataRecord {
  uid: string;
}

/** A map's data, with its history entries from the maps list (an editor shows both). */
export async function getMapData(db: Queryable, id: string): Promise<MapDataRow | null> {
  const { rows } = await db.query<MapDataRow & { locations: string | null; paths: string }>(
    `SELECT d.id, d.uid, d.title, ${mapDocumentColumnsSql('d')}, d.revision::text AS revision, COALESCE(l.history, '[]'::jsonb) AS history
       FROM map_data d LEFT JOIN maps_list l ON l.id = d.id
      WHERE d.id = $1`,
    [id],
  );
  const row = rows[0];
  if (!row) return null;
  const { locations, paths, ...rest } = row;
  return { ...rest, data: documentOfRow({ data: row.data, locations, paths }) };
}

/** A map's row without its document (title, owner, revision): for readers that need no locations. */
export async function getMapSummary(db: Queryable, id: string): Promise<{ id: string; uid: string; title: string; revision: string } | null> {
  const { rows } = await db.query<{ id: string; uid: string; title: string; revision: string }>('SELECT id, uid, title, revision::text AS revision FROM map_data WHERE id = $1', [id]);
  return rows[0] ?? null;
}
