/**
 * The admin's query on the maps list read model (spec §6: an admin "loads maps by author
 * instead of by owner", spec §7: "query maps by uid (or author for admins), ordered by
 * created"): every map, filtered by author, title, state and creation time, newest first, one
 * page at a time with a keyset on (created, id). The table and its (author, created) index
 * belong to `maps-list.ts`; this file only reads them.
 */
import type { MapListItem } from '../events/read-models.js';
import type { Queryable } from '../ports/database.js';
import { toItem, type MapsListRow } from './maps-list.js';

export interface MapsByAuthorFilter {
  /** The author's uid, exactly. */
  author?: string;
  /** Text the title contains, any case. */
  q?: string;
  /** Any of these states (spec §4); none given means every state. */
  states?: readonly number[];
  /** Created at or after this instant. */
  from?: Date;
  /** Created strictly before this instant. */
  before?: Date;
}

/** Where a page ends: the last item's creation time (ISO, milliseconds) and id. */
export interface MapsKey {
  created: string;
  id: string;
}

export interface MapsByAuthorPage {
  items: MapListItem[];
  /** The key after which the next page starts, or null on the last page. */
  next: MapsKey | null;
  /** How many maps match the filter, on every page. */
  total: number;
}

function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The WHERE clause of a filter, with its parameters numbered from $1. */
function whereOf(filter: MapsByAuthorFilter): { conditions: string[]; params: unknown[] } {
  const conditions: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (filter.author !== undefined) conditions.push(`author = ${param(filter.author)}`);
  if (filter.q !== undefined && filter.q !== '') conditions.push(`title ILIKE ${param(likeContains(filter.q))} ESCAPE '\\'`);
  if (filter.states !== undefined && filter.states.length > 0) conditions.push(`state = ANY(${param([...filter.states])}::int[])`);
  if (filter.from !== undefined) conditions.push(`created >= ${param(filter.from.toISOString())}::timestamptz`);
  if (filter.before !== undefined) conditions.push(`created < ${param(filter.before.toISOString())}::timestamptz`);
  return { conditions, params };
}

/**
 * One page of the maps matching `filter`, newest first (ties by id, descending), starting
 * after `after`. `total` counts every match, whichever page this is.
 */
export async function listMapsByAuthor(
  db: Queryable,
  filter: MapsByAuthorFilter,
  page: { limit: number; after?: MapsKey | null },
): Promise<MapsByAuthorPage> {
  const { conditions, params } = whereOf(filter);
  const where = (extra: string[]) => (extra.length > 0 ? `WHERE ${extra.join(' AND ')}` : '');

  const countResult = await db.query<{ total: string }>(`SELECT count(*)::text AS total FROM maps_list ${where(conditions)}`, params);
  const total = Number(countResult.rows[0]?.total ?? 0);

  const pageConditions = [...conditions];
  const pageParams = [...params];
  if (page.after) {
    pageParams.push(page.after.created, page.after.id);
    pageConditions.push(`(created, id) < ($${pageParams.length - 1}::timestamptz, $${pageParams.length})`);
  }
  pageParams.push(page.limit + 1);
  const { rows } = await db.query<MapsListRow>(
    `SELECT * FROM maps_list ${where(pageConditions)} ORDER BY created DESC, id DESC LIMIT $${pageParams.length}`,
    pageParams,
  );
  const items = rows.slice(0, page.limit).map(toItem);
  const last = items.at(-1);
  const next = rows.length > page.limit && last ? { created: last.created, id: last.id } : null;
  return { items, next, total };
}
