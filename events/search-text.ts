/**
 * A visitor's search as the insights keep it (issue 19): Unicode NFKC, lower case, runs of
 * white space as one space, trimmed, at most {@link SEARCH_TEXT_MAX} characters (never half a
 * surrogate pair). "  Café " and "café" are one search. Without zod, so the viewer's beacon
 * code stays small.
 */
export const SEARCH_TEXT_MAX = 100;

export function normaliseSearch(text: string): string {
  const folded = text.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
  return Array.from(folded).slice(0, SEARCH_TEXT_MAX).join('').trim();
}
