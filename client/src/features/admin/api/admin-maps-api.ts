/**
 * The admin's maps query (spec §6: an admin "loads maps by author instead of by owner"):
 * `GET /api/admin/maps` with the filters in the query string, one page at a time.
 */
import { z } from 'zod';
import { MapListItem } from '../../../../../events/read-models';
import { api as defaultApi, type ApiClient, type RequestOptions } from '../../../lib/api';

/** One page of the answer. Module-level so callers get a stable schema. */
export const AdminMapsPage = z.object({
  items: z.array(MapListItem),
  /** Pass as `cursor` for the next page; null on the last page. */
  next: z.string().nullable(),
  /** How many maps match the filters, on every page. */
  total: z.number().int().nonnegative(),
});
export type AdminMapsPage = z.infer<typeof AdminMapsPage>;

export interface AdminMapsFilters {
  /** The author's uid, exactly. */
  author: string;
  /** Text the title contains, any case. */
  q: string;
  /** Map state numbers (spec §4); none means every state. */
  states: number[];
  /** ISO dates (YYYY-MM-DD) on the creation time, both days included; '' for open. */
  from: string;
  to: string;
}

export const emptyAdminMapsFilters: AdminMapsFilters = { author: '', q: '', states: [], from: '', to: '' };

/** The query string of a request, without the `?`: only the filters that are set. */
export function adminMapsQuery(filters: AdminMapsFilters, page: { cursor?: string | null; limit?: number } = {}): string {
  const params = new URLSearchParams();
  const author = filters.author.trim();
  const q = filters.q.trim();
  if (author) params.set('author', author);
  if (q) params.set('q', q);
  if (filters.states.length > 0) params.set('state', [...filters.states].sort((a, b) => a - b).join(','));
  if (filters.from) params.set('from', filters.from);
  if (filters.to) params.set('to', filters.to);
  if (page.limit !== undefined) params.set('limit', String(page.limit));
  if (page.cursor) params.set('cursor', page.cursor);
  return params.toString();
}

export function listAdminMaps(
  filters: AdminMapsFilters,
  page: { cursor?: string | null; limit?: number } = {},
  api: ApiClient = defaultApi,
  options?: RequestOptions,
) {
  const query = adminMapsQuery(filters, page);
  return api.get(`/api/admin/maps${query ? `?${query}` : ''}`, AdminMapsPage, options);
}

/** An admin sets a map's state (spec §4, §6): `adminUpdateMap`, recorded with the admin as the actor. */
export function setMapState(id: string, state: 0 | 1 | 2 | 3 | 9, api: ApiClient = defaultApi, options?: RequestOptions) {
  return api.callFunction('adminUpdateMap', { id, state }, options);
}
