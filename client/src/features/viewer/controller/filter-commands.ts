/**
 * The viewer's search and group filters as commands on its controller (viewer-controller.ts):
 * given by the directory (which hydrates after the map, hydrated-later.ts) and the embed SDK's
 * bridge, so they load with them rather than in the viewer's first load. A settled search is
 * counted for the owner (insights, issue 19): once the text stays the same for a moment, with
 * whether it matched any location.
 */
import { recordInsight } from '../insights';
import { loadedSearch, type ViewerController } from './viewer-controller';

/** How long the query must stay the same to count as a search (ms). */
export const SEARCH_SETTLE_MS = 1200;

export function setQuery(controller: ViewerController, query: string): void {
  if (query === controller.getSnapshot().query) return;
  controller.setFilters({ query });
  const text = query.trim();
  // Whether the text alone matched (asked when the typing settles: the search's code, asked for
  // at the first key, is in by then).
  const found = () => (loadedSearch()?.matchingIds(controller.shownLocations, text, new Set(), controller.doc.groups).size ?? 0) > 0;
  controller.schedule('search', SEARCH_SETTLE_MS, text ? () => recordInsight('search', { text, found: found() }) : null);
}

export function toggleGroup(controller: ViewerController, id: string): void {
  const activeGroups = new Set(controller.getSnapshot().activeGroups);
  if (!activeGroups.delete(id)) activeGroups.add(id);
  controller.setFilters({ activeGroups });
}

export function clearFilters(controller: ViewerController): void {
  controller.setFilters({ activeGroups: new Set() });
  setQuery(controller, '');
}
