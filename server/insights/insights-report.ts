/**
 * Reading the insights read model (`map_insights`, insights-counter.ts) for one map and a
 * range of UTC days: the report the editor's Insights panel shows, and its CSV.
 */
import Papa from 'papaparse';
import { daysBetween, TOP_ROWS, type InsightKind, type InsightsReport } from '../../events/insights.js';
import type { Queryable } from '../../ports/database.js';

/** Rows of the range read per query when a report adds them up (one short walk of the primary key). */
const REPORT_PAGE_ROWS = 2_000;
/** Most rows one query puts in a top list's order, or looks up on the map. */
const ORDER_ROWS = 2_000;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** What the range adds up to: views per day, the total of each kind, and each key's sum per listed kind. */
interface RangeSums {
  views: Map<string, number>;
  totals: Map<string, number>;
  keys: Record<'open' | 'directions' | 'search' | 'search_miss', Map<string, number>>;
}

interface ReportBounds {
  /** Rows read per query (tests). */
  pageRows?: number;
  /** Rows ordered or looked up per query (tests). */
  orderRows?: number;
}

/**
 * Every row of the range, read in pages along the primary key (day, kind, key) and added up
 * here, with the event loop let run between pages. One GROUP BY over a flooded map's range
 * (300,000 made-up searches) held a PGlite server, whose queries run in its thread, for 1-2 s;
 * a page is a bounded walk of the index whatever the map holds. The first page's bound is a
 * row comparison too: without it PGlite, which gathers no statistics, planned the first page
 * as a scan and sort of the whole range.
 */
async function addUpRange(db: Queryable, mapId: string, from: string, to: string, pageRows: number): Promise<RangeSums> {
  const sums: RangeSums = { views: new Map(), totals: new Map(), keys: { open: new Map(), directions: new Map(), search: new Map(), search_miss: new Map() } };
  let after: [string, string, string] = [from, '', ''];
  let first = true;
  for (;;) {
    const { rows } = await db.query<{ day_text: string; kind: string; key: string; count: string }>(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day_text, kind, key, count::text AS count FROM map_insights
        WHERE map_id = $1 AND day BETWEEN $2::date AND $3::date AND (day, kind, key) ${first ? '>=' : '>'} ($4::date, $5, $6)
        ORDER BY day, kind, key
        LIMIT $7`,
      [mapId, from, to, ...after, pageRows],
    );
    for (const row of rows) {
      const count = Number(row.count);
      sums.totals.set(row.kind, (sums.totals.get(row.kind) ?? 0) + count);
      if (row.kind === 'view') sums.views.set(row.day_text, (sums.views.get(row.day_text) ?? 0) + count);
      const keys = sums.keys[row.kind as keyof RangeSums['keys']];
      if (keys) keys.set(row.key, (keys.get(row.key) ?? 0) + count);
    }
    if (rows.length < pageRows) return sums;
    const last = rows.at(-1)!;
    after = [last.day_text, last.kind, last.key];
    first = false;
    await nextTurn();
  }
}

interface Ranked {
  key: string;
  title: string | null;
  count: number;
}

/** The `n`-th largest count of `rows` (0 when there are fewer). */
function nthCount(rows: readonly Ranked[], n: number): number {
  if (rows.length < n) return 0;
  return Float64Array.from(rows, (row) => row.count).sort()[rows.length - n]!;
}

/**
 * The first `n` of `rows` as the database orders them (count descending, then title, then
 * key, each by the database's collation), as the report's GROUP BY ordered them: the rows
 * that cannot be among them are left out here, the rest put in order by queries of at most
 * `chunk` rows (a flood ties tens of thousands of searches at one count), each chunk's first
 * `n` going on to the next round.
 */
async function firstInOrder(db: Queryable, rows: readonly Ranked[], n: number, rowsPerQuery: number): Promise<Ranked[]> {
  // Each round must leave fewer than it took.
  const chunk = Math.max(rowsPerQuery, 2 * n);
  const least = nthCount(rows, n);
  let contenders = rows.filter((row) => row.count >= least);
  for (;;) {
    const winners: Ranked[] = [];
    for (let start = 0; start < contenders.length; start += chunk) {
      const { rows: first } = await db.query<{ key: string; title: string | null; count: string }>(
        `SELECT key, title, count::text AS count FROM jsonb_to_recordset($1::jsonb) AS r(key text, title text, count bigint)
          ORDER BY count DESC, title, key LIMIT $2`,
        [JSON.stringify(contenders.slice(start, start + chunk)), n],
      );
      winners.push(...first.map((row) => ({ key: row.key, title: row.title, count: Number(row.count) })));
    }
    if (contenders.length <= chunk) return winners;
    contenders = winners;
  }
}

/**
 * The top locations of one kind: only those still on the map, with their titles as the map
 * has them now (a removed one is nothing to act on, and a made-up id sent in a beacon never
 * reaches the owner's list). Ids are looked up from the most counted down, a bounded batch a
 * query, until no id left could tie with the last of the list.
 */
async function topLocations(db: Queryable, mapId: string, sums: Map<string, number>, chunk: number) {
  const counted = [...sums].sort((a, b) => b[1] - a[1]);
  const found: Ranked[] = [];
  for (let start = 0; start < counted.length; start += chunk) {
    if (found.length >= TOP_ROWS && counted[start]![1] < nthCount(found, TOP_ROWS)) break;
    const batch = counted.slice(start, start + chunk);
    const { rows } = await db.query<{ id: string; title: string | null }>(
      `SELECT id, data->>'title' AS title FROM map_locations WHERE map_id = $1 AND id = ANY($2::text[])`,
      [mapId, batch.map(([id]) => id)],
    );
    for (const row of rows) found.push({ key: row.id, title: row.title, count: sums.get(row.id)! });
  }
  const top = await firstInOrder(db, found, TOP_ROWS, chunk);
  return top.map((row) => ({ id: row.key, title: row.title ?? '', count: row.count }));
}

async function topKeys(db: Queryable, sums: Map<string, number>, chunk: number) {
  const top = await firstInOrder(db, Array.from(sums, ([key, count]) => ({ key, title: null, count })), TOP_ROWS, chunk);
  return top.map((row) => ({ text: row.key, count: row.count }));
}

/**
 * The report of a range: read in pages and added up here (addUpRange), so that no query of
 * it holds the database for long whatever a flood of beacons left in the range.
 */
export async function insightsReport(db: Queryable, mapId: string, from: string, to: string, bounds: ReportBounds = {}): Promise<InsightsReport> {
  const chunk = bounds.orderRows ?? ORDER_ROWS;
  const sums = await addUpRange(db, mapId, from, to, bounds.pageRows ?? REPORT_PAGE_ROWS);
  const total = (kind: InsightKind) => sums.totals.get(kind) ?? 0;
  return {
    from,
    to,
    days: daysBetween(from, to).map((day) => ({ day, views: sums.views.get(day) ?? 0 })),
    totals: { views: total('view'), searches: total('search'), searchesWithoutResults: total('search_miss'), opens: total('open'), directions: total('directions') },
    topLocations: await topLocations(db, mapId, sums.keys.open, chunk),
    topDirections: await topLocations(db, mapId, sums.keys.directions, chunk),
    topSearches: await topKeys(db, sums.keys.search, chunk),
    searchesWithoutResults: await topKeys(db, sums.keys.search_miss, chunk),
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
 * The first page is bounded by a row comparison too (from the range's first day): without
 * one, PGlite (no statistics) planned it as a scan and sort of the whole range, 1-2 s for a
 * flooded map's first page.
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
          AND (i.day, i.kind, i.key) ${after ? '>' : '>='} ($5::date, $6, $7)
        ORDER BY i.day, i.kind, i.key
        LIMIT $4`,
      after ? [mapId, from, to, limit, after.day, after.kind, after.key] : [mapId, from, to, limit, from, '', ''],
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
