/**
 * The viewer's directory lists a map's shown locations by title, as the page's language sorts
 * them (numbers by value: "Unit 2" before "Unit 10"; accents and case not told apart).
 *
 * Sorting 25,000 titles with Intl.Collator takes about 60 ms in a browser, in the middle of
 * hydrating a published map's page. The server, which sorts them to render the page anyway,
 * gives the order in the page's data block (events/viewer-page-data.ts); the browser lays the
 * locations out in that order and sorts again, which for a list already in order is one pass
 * (V8's sort is TimSort: n − 1 comparisons). So a wrong or stale hint can cost time, never the
 * order: equal titles (by the collator) keep the document's order, so there is one right list,
 * and the browser's is the one its own collator gives, as the hydration needs.
 */

interface Titled {
  title: string;
  hidden?: boolean;
}

/** The directory's collator for a language (undefined: the runtime's own). */
export function directoryCollator(locale: string | undefined): Intl.Collator {
  return new Intl.Collator(locale, { sensitivity: 'base', numeric: true });
}

/** The shown (not hidden) locations in the directory's order. `hint`: their indices in that order, if known. */
export function inDirectoryOrder<T extends Titled>(locations: readonly T[], locale: string | undefined, hint?: readonly number[] | null): T[] {
  return sortIndices(locations, locale, checkedHint(locations, hint) ?? shownIndices(locations)).map((index) => locations[index]!);
}

/** The indices of the shown locations in the directory's order: the hint a page carries. */
export function directoryOrder(locations: readonly Titled[], locale: string | undefined): number[] {
  return sortIndices(locations, locale, shownIndices(locations));
}

/** By title, then (equal titles) in the document's order: one order, whatever order they come in. */
function sortIndices(locations: readonly Titled[], locale: string | undefined, indices: number[]): number[] {
  const collator = directoryCollator(locale);
  return indices.sort((a, b) => collator.compare(locations[a]!.title, locations[b]!.title) || a - b);
}

function shownIndices(locations: readonly Titled[]): number[] {
  const shown: number[] = [];
  locations.forEach((location, i) => {
    if (!location.hidden) shown.push(i);
  });
  return shown;
}

/** A copy of the hint when it names each shown location once (and nothing else), else null. */
function checkedHint(locations: readonly Titled[], hint: readonly number[] | null | undefined): number[] | null {
  if (!hint) return null;
  const shown = shownIndices(locations);
  const named = new Set(hint);
  return hint.length === shown.length && named.size === shown.length && shown.every((index) => named.has(index)) ? [...hint] : null;
}
