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

/** The text a location is found by: title, label, short text and its groups' names. */
export function searchTextOf(location: Location, groups: ReadonlyMap<string, Group>): string {
  const groupNames = location.groups.map((id) => groups.get(id)?.name ?? '').join(' ');
  return fold(`${location.title} ${location.label} ${location.about} ${groupNames}`);
}

/** True when every word of the (already folded) query occurs in the (already folded) text. */
export function matchesFolded(foldedText: string, foldedQuery: string): boolean {
  for (const word of foldedQuery.split(/\s+/)) {
    if (word && !foldedText.includes(word)) return false;
  }
  return true;
}
