/**
 * What a map's locations became between two documents, as rows to write (map_data keeps a map's
 * locations as rows of `map_locations`, one per location, so an edit of one location writes one
 * row, not the map's megabytes; issue 19). Edits are pure and keep every untouched location's
 * object (events/map-edits.ts applyEdit), so a location whose object is the same is unchanged
 * and the comparison costs one pass of reference checks, never a deep comparison.
 *
 * Order is the document's: each row has an `ord`, kept by a changed location and counted on
 * from the map's last one for locations added at the end (as adds and imports do). Anything
 * else (a restore, a whole document imported, a location put before an old one) rewrites the
 * map's rows with the new order.
 */
import type { Location } from '../events/map-document.js';

export type LocationChanges =
  /** Rows to rewrite whole, in this order (a new map, or one whose order changed). */
  | { kind: 'all'; locations: readonly Location[] }
  | {
      kind: 'some';
      /** Locations whose content changed, in place. */
      changed: Location[];
      /** New locations after every old one, in order. */
      added: Location[];
      /** Ids of locations gone. */
      removed: string[];
    };

export function locationChanges(before: readonly Location[], after: readonly Location[]): LocationChanges {
  if (before === after) return { kind: 'some', changed: [], added: [], removed: [] };
  const indexBefore = new Map<string, number>();
  before.forEach((location, i) => indexBefore.set(location.id, i));
  const changed: Location[] = [];
  const added: Location[] = [];
  let lastOld = -1;
  for (const location of after) {
    const old = indexBefore.get(location.id);
    if (old === undefined) {
      added.push(location);
      continue;
    }
    // An old location after a new one, or old ones out of their order: the order changed.
    if (added.length > 0 || old < lastOld) return { kind: 'all', locations: after };
    lastOld = old;
    if (before[old] !== location) changed.push(location);
  }
  const kept = after.length - added.length;
  const removed: string[] = [];
  if (kept < before.length) {
    const present = new Set(after.map((location) => location.id));
    for (const location of before) if (!present.has(location.id)) removed.push(location.id);
  }
  // Most of the map changed (a whole document replaced it): one rewrite beats row-by-row.
  if (changed.length + added.length + removed.length > Math.max(64, after.length / 2)) return { kind: 'all', locations: after };
  return { kind: 'some', changed, added, removed };
}
