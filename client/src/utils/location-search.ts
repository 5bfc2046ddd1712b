/**
 * Search that forgives accents and case: "cafe" finds "Café", "MULLER" finds "Müller",
 * "lodz" finds "Łódź". Every word of the query must appear somewhere in the location's text.
 */
import type { Group, Location } from '../components/map/types';

/** Letters that NFD does not split into a base letter and a mark. */
const SPECIAL: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };

/** Lower case, without diacritics: the form both the query and the text are compared in. */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[ßæœøłđðþı]/g, (letter) => SPECIAL[letter] ?? letter);
}

/**
 * Folded texts by groups map, then by location. Both are immutable (an edit makes new
 * objects), so a text stays right for as long as the pair exists: 20,000 locations are folded
 * once, not at every keystroke of a search, and an edited location is folded again.
 */
const folded = new WeakMap<ReadonlyMap<string, Group>, WeakMap<Location, string>>();

/** The text a location is found by: title, label, short text and its groups' names (folded). */
export function searchTextOf(location: Location, groups: ReadonlyMap<string, Group>): string {
  let texts = folded.get(groups);
  if (!texts) {
    texts = new WeakMap();
    folded.set(groups, texts);
  }
  let text = texts.get(location);
  if (text === undefined) {
    const groupNames = location.groups.map((id) => groups.get(id)?.name ?? '').join(' ');
    text = fold(`${location.title} ${location.label} ${location.about} ${groupNames}`);
    texts.set(location, text);
  }
  return text;
}

/** True when every word of the (already folded) query occurs in the (already folded) text. */
export function matchesFolded(foldedText: string, foldedQuery: string): boolean {
  for (const word of foldedQuery.split(/\s+/)) {
    if (word && !foldedText.includes(word)) return false;
  }
  return true;
}

/**
 * The ids of the locations the search text and the group filters let through (the viewer's
 * controller asks once its filters are on, features/viewer/controller/viewer-controller.ts).
 * No group on lets every group through; an empty text, every text.
 */
export function matchingIds(locations: readonly Location[], query: string, activeGroups: ReadonlySet<string>, groups: readonly Group[]): Set<string> {
  const folded = fold(query.trim());
  const groupsById = new Map(groups.map((group) => [group.id, group]));
  return new Set(
    locations
      .filter((location) => (activeGroups.size === 0 || location.groups.some((group) => activeGroups.has(group))) && (folded === '' || matchesFolded(searchTextOf(location, groupsById), folded)))
      .map((location) => location.id),
  );
}
