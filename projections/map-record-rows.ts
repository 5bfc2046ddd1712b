/**
 * The rows map_data keeps a map's records in, one per record: its locations (`map_locations`)
 * and its path network's points, links and connectors (`map_paths`, one `kind` each). A batch's
 * changes to them (projections/location-changes.ts) go out in one statement per kind of write,
 * whatever the number of maps and records, so an edit of one record writes one row.
 */
import type { Queryable } from '../ports/database.js';
import { recordChanges } from './location-changes.js';

export const MAP_RECORD_ROWS_SCHEMA = `
CREATE TABLE IF NOT EXISTS map_locations (
  map_id text NOT NULL,
  id text NOT NULL,
  ord bigint NOT NULL,
  data jsonb NOT NULL,
  PRIMARY KEY (map_id, id)
);
CREATE INDEX IF NOT EXISTS map_locations_order ON map_locations (map_id, ord);
CREATE TABLE IF NOT EXISTS map_paths (
  map_id text NOT NULL,
  kind text NOT NULL,
  id text NOT NULL,
  ord bigint NOT NULL,
  data jsonb NOT NULL,
  PRIMARY KEY (map_id, kind, id)
);
CREATE INDEX IF NOT EXISTS map_paths_order ON map_paths (map_id, kind, ord);`;

/** The lists of a path network, each a `kind` of `map_paths` row. */
export const PATH_KINDS = ['nodes', 'edges', 'connectors'] as const;
export type PathKind = (typeof PATH_KINDS)[number];

/** Rows keyed by (map_id, kind, id); `kind` is '' for locations, whose table has no such column. */
type Key = { map_id: string; kind: string; id: string };

/** Statements for a batch's record rows: whole lists rewritten, removals, changes, additions. */
export class RecordRowWrites {
  private readonly rewritten: Array<{ map_id: string; kind: string }> = [];
  private readonly ordered: Array<Key & { ord: number; data: unknown }> = [];
  private readonly removed: Key[] = [];
  private readonly changed: Array<Key & { data: unknown }> = [];
  private readonly appended: Array<Key & { k: number; data: unknown }> = [];

  /** `map_paths` rows carry the list they belong to (`kind`); `map_locations` rows take ''. */
  constructor(private readonly table: 'map_locations' | 'map_paths') {}

  rewrite(mapId: string, kind: PathKind | '', records: readonly { id: string }[]): void {
    this.rewritten.push({ map_id: mapId, kind });
    records.forEach((record, ord) => this.ordered.push({ map_id: mapId, kind, id: record.id, ord, data: record }));
  }

  add(mapId: string, kind: PathKind | '', before: readonly { id: string }[], after: readonly { id: string }[]): void {
    const changes = recordChanges(before, after);
    if (changes.kind === 'all') return this.rewrite(mapId, kind, changes.records);
    for (const id of changes.removed) this.removed.push({ map_id: mapId, kind, id });
    for (const record of changes.changed) this.changed.push({ map_id: mapId, kind, id: record.id, data: record });
    changes.added.forEach((record, i) => this.appended.push({ map_id: mapId, kind, id: record.id, k: i + 1, data: record }));
  }

  async write(tx: Queryable): Promise<void> {
    const { table } = this;
    const paths = table === 'map_paths';
    // The same statements for both tables; only map_paths has (and is keyed by) a kind.
    const kindColumn = paths ? ', kind' : '';
    const kindType = paths ? ', kind text' : '';
    const sameKind = (left: string, right: string) => (paths ? ` AND ${left}.kind = ${right}.kind` : '');
    if (this.rewritten.length > 0) {
      await tx.query(
        `DELETE FROM ${table} l USING jsonb_to_recordset($1::jsonb) AS r(map_id text${kindType}) WHERE l.map_id = r.map_id${sameKind('l', 'r')}`,
        [JSON.stringify(this.rewritten)],
      );
    }
    if (this.removed.length > 0) {
      await tx.query(
        `DELETE FROM ${table} l USING jsonb_to_recordset($1::jsonb) AS r(map_id text${kindType}, id text)
          WHERE l.map_id = r.map_id${sameKind('l', 'r')} AND l.id = r.id`,
        [JSON.stringify(this.removed)],
      );
    }
    if (this.ordered.length > 0) {
      await tx.query(
        `INSERT INTO ${table} (map_id${kindColumn}, id, ord, data)
         SELECT r.map_id${paths ? ', r.kind' : ''}, r.id, r.ord, r.data FROM jsonb_to_recordset($1::jsonb) AS r(map_id text${kindType}, id text, ord bigint, data jsonb)`,
        [JSON.stringify(this.ordered)],
      );
    }
    if (this.changed.length > 0) {
      await tx.query(
        `UPDATE ${table} l SET data = r.data
           FROM jsonb_to_recordset($1::jsonb) AS r(map_id text${kindType}, id text, data jsonb)
          WHERE l.map_id = r.map_id${sameKind('l', 'r')} AND l.id = r.id`,
        [JSON.stringify(this.changed)],
      );
    }
    if (this.appended.length > 0) {
      // Counted on from the list's last row, looked up once per list before any row goes in
      // (MATERIALIZED): looked up per added row, each lookup walked back over the rows this
      // statement had just inserted (invisible to it), and an import's 5,000-row part took 7 s.
      await tx.query(
        `WITH r AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(map_id text${kindType}, id text, k bigint, data jsonb)),
              m AS MATERIALIZED (SELECT l.map_id${paths ? ', l.kind' : ''}, (SELECT COALESCE(max(o.ord), -1) FROM ${table} o WHERE o.map_id = l.map_id${sameKind('o', 'l')}) AS last
                      FROM (SELECT DISTINCT map_id${kindColumn} FROM r) l)
         INSERT INTO ${table} (map_id${kindColumn}, id, ord, data)
         SELECT r.map_id${paths ? ', r.kind' : ''}, r.id, m.last + r.k, r.data
           FROM r JOIN m ON m.map_id = r.map_id${sameKind('m', 'r')}`,
        [JSON.stringify(this.appended)],
      );
    }
  }
}
