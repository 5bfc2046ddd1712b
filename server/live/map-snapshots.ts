/**
 * The `map:{id}` snapshots the live hub sends new subscribers, kept per map with the stream
 * revision they hold, as the message's bytes themselves. A snapshot at revision r stays a
 * correct starting point for good (the subscriber is then sent the events after r), so
 * subscribing again, or many tabs opening one big map, reads and serialises it once instead of
 * each time: re-subscribing in a loop to a 25,000-location map (8 MB) once pushed everyone's
 * latency to seconds (issue 26). Loads of one map share one read; the memory is bounded, least
 * recently used first out.
 *
 * The first read of a big map is itself bounded work: its locations are read in pages along
 * their order ({@link MapSnapshots.PAGE_ROWS} rows at most a query), each page turned into its JSON
 * text and the event loop let run before the next, so nobody waits behind the whole map. One
 * query that read and printed a 100,000-location map held a PGlite server (where queries run on
 * the server's thread) for 2.5 s, and parsing and printing its 40 MB more on either database.
 * The pages are one revision of the map: the map's row is read again after the last page, and
 * a map the projection changed meanwhile (every write of its locations moves its revision, in
 * the same transaction) is read again.
 */
import { LRUCache } from 'lru-cache';
import { LIVE_PROTOCOL_VERSION, type ServerMessage } from '../../events/live-messages.js';
import type { MapDocument } from '../../events/map-document.js';
import { formatPosition } from '../../events/position.js';
import { readCheckpoint } from '../../projections/checkpoints.js';
import { documentOfRow, mapDocumentRestColumnsSql } from '../../projections/map-data.js';
import type { Queryable } from '../../ports/database.js';

export interface SnapshotMessage {
  /** The stream revision the snapshot's document holds. */
  revision: bigint;
  /** The `snapshot` message, ready to send (as text: `send(bytes, { binary: false })`). */
  bytes: Buffer;
  /** Whether it was kept from an earlier subscribe (it may trail the stream). */
  kept: boolean;
}

interface Entry {
  revision: bigint;
  bytes: Buffer;
}

/** Bytes kept at most: a few big maps, or many small ones. */
const MAX_KEPT = 128 * 1024 * 1024;
/** Stands for the locations in the message printed without them (jsonb holds no NUL, so no map's text is this). */
const LOCATIONS_HERE = '\u0000mapfold-locations\u0000';
/** Reads of a map that changed under them before one whole read is done instead. */
const PAGED_ATTEMPTS = 3;

export class MapSnapshots {
  /** A kept snapshot further behind the stream than this many events is loaded again. */
  static readonly REUSE_WITHIN_EVENTS = 200;
  /** Locations read per query (tests make it small). */
  static PAGE_ROWS = 2_000;

  private readonly kept = new LRUCache<string, Entry>({ maxSize: MAX_KEPT, sizeCalculation: (entry) => Math.max(1, entry.bytes.length) });
  private readonly loading = new Map<string, Promise<Entry | null>>();

  constructor(private readonly db: Queryable) {}

  /** The map's snapshot: the kept one unless `fresh`, else read (once for concurrent callers). Null: the map is gone. */
  async get(topic: string, mapId: string, options: { fresh?: boolean } = {}): Promise<SnapshotMessage | null> {
    const kept = options.fresh ? undefined : this.kept.get(mapId);
    if (kept) return { ...kept, kept: true };
    let pending = this.loading.get(mapId);
    if (!pending) {
      pending = this.read(topic, mapId).finally(() => this.loading.delete(mapId));
      this.loading.set(mapId, pending);
    }
    const read = await pending;
    return read && { ...read, kept: false };
  }

  private async read(topic: string, mapId: string): Promise<Entry | null> {
    let entry: Entry | null | undefined;
    for (let attempt = 0; attempt < PAGED_ATTEMPTS && entry === undefined; attempt++) entry = await readSnapshot(this.db, topic, mapId, MapSnapshots.PAGE_ROWS);
    // Changed under every paged read (a map edited without pause): one read of the whole map.
    if (entry === undefined) entry = await readSnapshot(this.db, topic, mapId, null);
    if (!entry) return null;
    // A read that finished after a newer one keeps the newer.
    const current = this.kept.get(mapId);
    if (entry.bytes.length <= MAX_KEPT && (!current || current.revision <= entry.revision)) this.kept.set(mapId, entry);
    return entry;
  }
}

const pause = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The map's `snapshot` message: its row (title, revision, the document but its locations, the
 * history), then its locations page by page (`pageRows`; null: all in the row's query).
 * Undefined when the map changed between the row and the last page; null when it is gone.
 *
 * The message is the very text `JSON.stringify` gave of the whole message (each page's rows
 * parsed and printed again, as the whole document's were), put together around the locations.
 */
async function readSnapshot(db: Queryable, topic: string, mapId: string, pageRows: number | null): Promise<Entry | null | undefined> {
  // The checkpoint before the rows: the position sent is one the data has certainly reached.
  const checkpoint = await readCheckpoint(db, 'map_data');
  const locationsSql = pageRows === null ? `, (SELECT string_agg(ml.data::text, ',' ORDER BY ml.ord) FROM map_locations ml WHERE ml.map_id = d.id) AS locations` : '';
  const { rows } = await db.query<{ id: string; title: string; data: unknown; paths: string; revision: string; history: unknown; locations?: string | null }>(
    `SELECT d.id, d.title, ${mapDocumentRestColumnsSql('d')}, d.revision::text AS revision, COALESCE(l.history, '[]'::jsonb) AS history${locationsSql}
       FROM map_data d LEFT JOIN maps_list l ON l.id = d.id
      WHERE d.id = $1`,
    [mapId],
  );
  const row = rows[0];
  if (!row) return null;
  // Not parsed again: the projection wrote it from parsed events (a change of shape rebuilds
  // every row), and zod took 250 ms on a 25,000-location map, for each tab that opens it.
  const document = documentOfRow({ data: row.data, locations: null, paths: row.paths }) as Record<string, unknown>;
  document.locations = LOCATIONS_HERE;
  const message: ServerMessage = {
    v: LIVE_PROTOCOL_VERSION,
    type: 'snapshot',
    topic,
    position: checkpoint ? formatPosition(checkpoint.position) : '-1:-1',
    data: { kind: 'map', map: { id: row.id, title: row.title, document: document as unknown as MapDocument, revision: row.revision, history: row.history as never } },
  };
  const text = JSON.stringify(message);
  const at = text.indexOf(JSON.stringify(LOCATIONS_HERE));
  const parts: Buffer[] = [Buffer.from(`${text.slice(0, at)}[`)];
  const page = (texts: readonly string[]) => (texts.length === 0 ? '' : JSON.stringify(JSON.parse(`[${texts.join(',')}]`)).slice(1, -1));
  if (pageRows === null) {
    const all = page(row.locations ? [row.locations] : []);
    parts.push(Buffer.from(all));
  } else {
    // In windows of the locations' order: a map's ords are distinct (0 up when its list is
    // written whole, one past the last for each added; map-record-rows.ts), so a window `width`
    // wide holds that many at most, whatever plan the database makes. (A keyset page, `ord >
    // last ORDER BY ord LIMIT n`, was planned without statistics on PGlite, which gathers none
    // by itself, as a scan and sort of every later row: up to a second a page.) Windows that
    // come back sparse (locations removed) grow.
    const { rows: bounds } = await db.query<{ low: string | null; high: string | null }>(
      'SELECT min(ord)::text AS low, max(ord)::text AS high FROM map_locations WHERE map_id = $1',
      [mapId],
    );
    const high = bounds[0]?.high == null ? null : BigInt(bounds[0].high);
    let from = bounds[0]?.low == null ? 0n : BigInt(bounds[0].low);
    let width = BigInt(pageRows);
    let first = true;
    while (high !== null && from <= high) {
      await pause();
      const { rows: window } = await db.query<{ items: string | null; count: number }>(
        `SELECT string_agg(data::text, ',' ORDER BY ord) AS items, count(*)::int AS count FROM map_locations
          WHERE map_id = $1 AND ord >= $2::bigint AND ord < $3::bigint`,
        [mapId, from.toString(), (from + width).toString()],
      );
      const items = window[0]?.items;
      if (items) {
        parts.push(Buffer.from(`${first ? '' : ','}${page([items])}`));
        first = false;
      }
      from += width;
      if ((window[0]?.count ?? 0) * 4 < pageRows && width < BigInt(pageRows) * 64n) width *= 2n;
    }
    // The same revision after the last page: no write of the map came between the pages.
    const { rows: now } = await db.query<{ revision: string }>('SELECT revision::text AS revision FROM map_data WHERE id = $1', [mapId]);
    if (now[0]?.revision !== row.revision) return undefined;
  }
  parts.push(Buffer.from(`]${text.slice(at + JSON.stringify(LOCATIONS_HERE).length)}`));
  return { revision: BigInt(row.revision), bytes: Buffer.concat(parts) };
}
