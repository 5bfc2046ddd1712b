/**
 * Records the viewer's search as an insight once the visitor stops typing (issue 19): one
 * record per settled search, not one per keystroke, with whether any location matched the
 * text (whatever group filters are on: "what visitors look for and the map lacks").
 */
import { useEffect, useRef } from 'react';
import { recordInsight } from './insights';

/** How long the query must stay the same to count as a search (ms). */
export const SEARCH_SETTLE_MS = 1200;

export function useSearchInsight(query: string, matchesAny: (text: string) => boolean): void {
  const matches = useRef(matchesAny);
  matches.current = matchesAny;
  useEffect(() => {
    const text = query.trim();
    if (!text) return;
    const timer = setTimeout(() => recordInsight('search', { text, found: matches.current(text) }), SEARCH_SETTLE_MS);
    return () => clearTimeout(timer);
  }, [query]);
}
