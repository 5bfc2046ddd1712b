/**
 * What a list of a map's records (its locations, its path points, links and connectors) became
 * between two documents, as rows to write: map_data keeps each record as a row (`map_locations`,
 * `map_paths`), so an edit of one record writes one row, not the map's megabytes (issues 19 and
 * 26). Edits are pure and keep every untouched record's object (events/map-edits.ts applyEdit,
 * events/path-network.ts applyPathsEdit), so a record whose object is the same is unchanged and
 * the comparison costs one pass of reference checks, never a deep comparison.
 *
 * Order is the document's: each row has an `ord`, kept by a changed record and counted on from
 * the map's last one for records added at the end (as adds, imports and path edits do). Anything
 * else (a restore, a whole document imported, a record put before an old one) rewrites the list's
 * rows with the new order.
 */
import type { Location } from '../events/map-document.js';

export type RecordChanges<T> =
  /** Rows to rewrite whole, in this order (a new map, or one whose order changed). */
  | { kind: 'all'; records: readonly T[] }
  | {
      kind: 'some';
      /** Records whose content changed, in place. */
      changed: T[];
      /** New records after every old one, in order. */
      added: T[];
      /** Ids of records gone. */
      removed: string[];
    };

/** Most of the list changed (a whole document replaced it): one rewrite beats row-by-row. */
function orRewrite<T>(changes: { changed: T[]; added: T[]; removed: string[] }, after: readonly T[]): RecordChanges<T> {
  if (changes.changed.length + changes.added.length + changes.removed.length > Math.max(64, after.length / 2)) return { kind: 'all', records: after };
  return { kind: 'some', ...changes };
}

export function recordChanges<T extends { id: string }>(before: readonly T[], after: readonly T[]): RecordChanges<T> {
  if (before === after) return { kind: 'some', changed: [], added: [], removed: [] };
  // The common case, an edit in place or records added at the end: the old records are where
  // they were, so one walk side by side finds the changes without indexing the map's ids.
  if (after.length >= before.length) {
    const changed: T[] = [];
    let aligned = true;
    for (let i = 0; i < before.length; i++) {
      if (before[i] === after[i]) continue;
      if (before[i]!.id !== after[i]!.id) {
        aligned = false;
        break;
      }
      changed.push(after[i]!);
    }
    // Ids are unique in a document (its schema says so), so what follows the old ones is new.
    if (aligned) return orRewrite({ changed, added: after.slice(before.length), removed: [] }, after);
  }
  const indexBefore = new Map<string, number>();
  before.forEach((record, i) => indexBefore.set(record.id, i));
  const changed: T[] = [];
  const added: T[] = [];
  let lastOld = -1;
  for (const record of after) {
    const old = indexBefore.get(record.id);
    if (old === undefined) {
      added.push(record);
      continue;
    }
    // An old record after a new one, or old ones out of their order: the order changed.
    if (added.length > 0 || old < lastOld) return { kind: 'all', records: after };
    lastOld = old;
    if (before[old] !== record) changed.push(record);
  }
  const kept = after.length - added.length;
  const removed: string[] = [];
  if (kept < before.length) {
    const present = new Set(after.map((record) => record.id));
    for (const record of before) if (!present.has(record.id)) removed.push(record.id);
  }
  return orRewrite({ changed, added, removed }, after);
}

export type LocationChanges = RecordChanges<Location>;

/** The locations' changes (the name the location rows' tests know). */
export function locationChanges(before: readonly Location[], after: readonly Location[]): LocationChanges {
  return recordChanges(before, after);
}
