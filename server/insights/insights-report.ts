/**
 * Reading the insights read model (`map_insights`, insights-counter.ts) for one map and a
 * range of UTC days: the report the editor's Insights panel shows, and its CSV.
 */
import Papa from 'papaparse';
import { daysBetween, TOP_ROWS, type InsightKind, type InsightsReport } from '../../events/insights.js';
import type { Queryable } from '../../ports/database.js';

/** The locations' titles as the map has them now (a location removed since has none). */
const TITLES = `titles AS (
  SELECT l.id, l.data->>'title' AS title
    FROM map_locations l
   WHERE l.map_id = $1)`;

async function topLocations(db: Queryable, mapId: string, from: string, to: string, kind: InsightKind) {
  // Only locations still on the map: a removed one is nothing to act on, and a made-up id sent
  // in a beacon never reaches the owner's list.
  const { rows } = await db.query<{ id: string; title: string; count: string }>(
    `WITH ${TITLES}
     SELECT i.key AS id, t.title, sum(i.count)::text AS count
       FROM map_insights i JOIN titles t ON t.id = i.key
      WHERE i.map_id = $1 AND i.day BETWEEN $2::date AND $3::date AND i.kind = $4
      GROUP BY i.key, t.title
      ORDER BY sum(i.count) DESC, t.title, i.key
      LIMIT ${TOP_ROWS}`,
    [mapId, from, to, kind],
  );
  return rows.map((row) => ({ id: row.id, title: row.title, count: Number(row.count) }));
}

async function topKeys(db: Queryable, mapId: string, from: string, to: string, kind: InsightKind) {
  const { rows } = await db.query<{ key: string; count: string }>(
    `SELECT key, sum(count)::text AS count FROM map_insights
      WHERE map_id = $1 AND day BETWEEN $2::date AND $3::date AND kind = $4
      GROUP BY key ORDER BY sum(count) DESC, key LIMIT ${TOP_ROWS}`,
    [mapId, from, to, kind],
  );
  return rows.map((row) => ({ text: row.key, count: Number(row.count) }));
}

export async function insightsReport(db: Queryable, mapId: string, from: string, to: string): Promise<InsightsReport> {
  const [perDay, totals, opens, directions, searches, misses] = await Promise.all([
    db.query<{ day: string; views: string }>(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(count)::text AS views FROM map_insights
        WHERE map_id = $1 AND day BETWEEN $2::date AND $3::date AND kind = 'view' GROUP BY day`,
      [mapId, from, to],
    ),
    db.query<{ kind: InsightKind; count: string }>(
      `SELECT kind, sum(count)::text AS count FROM map_insights
        WHERE map_id = $1 AND day BETWEEN $2::date AND $3::date GROUP BY kind`,
      [mapId, from, to],
    ),
    topLocations(db, mapId, from, to, 'open'),
    topLocations(db, mapId, from, to, 'directions'),
    topKeys(db, mapId, from, to, 'search'),
    topKeys(db, mapId, from, to, 'search_miss'),
  ]);
  const views = new Map(perDay.rows.map((row) => [row.day, Number(row.views)]));
  const total = (kind: InsightKind) => Number(totals.rows.find((row) => row.kind === kind)?.count ?? 0);
  return {
    from,
    to,
    days: daysBetween(from, to).map((day) => ({ day, views: views.get(day) ?? 0 })),
    totals: { views: total('view'), searches: total('search'), searchesWithoutResults: total('search_miss'), opens: total('open'), directions: total('directions') },
    topLocations: opens,
    topDirections: directions,
    topSearches: searches,
    searchesWithoutResults: misses,
  };
}

/** What a CSV row's metric says, in words a spreadsheet reader understands. */
const METRIC: Record<InsightKind, string> = {
  view: 'views',
  search: 'search',
  search_miss: 'search without results',
  open: 'location opened',
  directions: 'directions asked',
};

/** Spreadsheets run cells that start like a formula: quote them (as the audit CSV does). */
const cell = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

/** Most rows one CSV holds; past it a last line says the report was cut and how to get the rest. */
export const CSV_ROWS_MAX = 100_000;
/** Rows read per query: each is a short walk of the table's primary key, with the event loop let run between. */
const CSV_PAGE_ROWS = 2_000;

const COLUMNS = ['day', 'metric', 'item', 'title', 'count'];

interface CsvRow {
  day: string;
  kind: InsightKind;
  key: string;
  title: string | null;
  count: string;
}

export interface CsvBounds {
  maxRows?: number;
  pageRows?: number;
}

/**
 * Every counted row of the range, one line per day, metric and item (long form: a pivot table
 * makes any view of it), with the location's title where it is still on the map; streamed.
 *
 * A flood of beacons can leave a map with millions of rows (made-up searches or ids), and the
 * CSV used to be one query and one string built in the server's thread (8 s with every other
 * request waiting, on PGlite, where queries run in that thread too). Now rows are read in
 * pages along the primary key (day, kind, key: keyset pagination, so each page costs the same),
 * sent as they come, and the CSV stops at {@link CSV_ROWS_MAX} rows with a line saying so.
 */
export async function* insightsCsv(db: Queryable, mapId: string, from: string, to: string, bounds: CsvBounds = {}): AsyncGenerator<string> {
  const maxRows = bounds.maxRows ?? CSV_ROWS_MAX;
  const pageRows = bounds.pageRows ?? CSV_PAGE_ROWS;
  yield `\uFEFF${COLUMNS.join(',')}`;
  let after: { day: string; kind: string; key: string } | null = null;
  let sent = 0;
  for (;;) {
    const limit = Math.min(pageRows, maxRows - sent + 1);
    const { rows } = await db.query<CsvRow>(
      `SELECT to_char(i.day, 'YYYY-MM-DD') AS day, i.kind, i.key, l.data->>'title' AS title, i.count::text AS count
         FROM map_insights i
         LEFT JOIN map_locations l ON i.kind IN ('open', 'directions') AND l.map_id = i.map_id AND l.id = i.key
        WHERE i.map_id = $1 AND i.day BETWEEN $2::date AND $3::date
          ${after ? 'AND (i.day, i.kind, i.key) > ($5::date, $6, $7)' : ''}
        ORDER BY i.day, i.kind, i.key
        LIMIT $4`,
      after ? [mapId, from, to, limit, after.day, after.kind, after.key] : [mapId, from, to, limit],
    );
    const page = rows.slice(0, maxRows - sent);
    if (page.length > 0) {
      const lines = Papa.unparse(
        page.map((row) => ({ day: row.day, metric: METRIC[row.kind] ?? row.kind, item: cell(row.key), title: cell(row.title ?? ''), count: Number(row.count) })),
        { columns: COLUMNS, header: false, newline: '\r\n' },
      );
      yield `\r\n${lines}`;
      sent += page.length;
    }
    if (rows.length > page.length) {
      yield `\r\n,note,"The report stops at ${maxRows.toLocaleString('en-US')} rows: choose fewer days (from, to) for the rest.",,`;
      break;
    }
    if (rows.length < limit) break;
    const last: CsvRow = rows.at(-1)!;
    after = { day: last.day, kind: last.kind, key: last.key };
    // Let other requests run between pages (on PGlite the queries run in this thread).
    await new Promise((resolve) => setImmediate(resolve));
  }
  yield '\r\n';
}
