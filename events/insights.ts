/**
 * Numbers for a map's owner (issue 19, part 4): what the public viewer counts, the beacon that
 * carries the counts of one page, and the report the editor's Insights panel reads. Shared by
 * the viewer (which sends), the server (which checks and counts) and the editor (which shows).
 *
 * Nothing here names a person: a beacon carries counters only (no id, no cookie, no address),
 * and a search is kept as its normalised text, capped.
 */
import { z } from 'zod';
import { ElementId } from './map-document.js';
import { normaliseSearch } from './search-text.js';

export { normaliseSearch, SEARCH_TEXT_MAX } from './search-text.js';

/** Most counters one beacon may carry. */
export const BEACON_COUNTERS_MAX = 50;
/** Most one counter may add (a page counts each thing at most this often). */
export const COUNTER_MAX = 50;
/** Longest range one report covers (days). */
export const REPORT_DAYS_MAX = 366;
/** How many rows each top list has. */
export const TOP_ROWS = 10;

const Count = z.number({ error: 'must be a number' }).int('must be a whole number').min(1, 'must be at least 1').max(COUNTER_MAX, `must be at most ${COUNTER_MAX}`);

/** One counter of a beacon: what happened on the page, and how often. */
export const InsightCounter = z.discriminatedUnion('kind', [
  /** The map was shown (once per page). */
  z.object({ kind: z.literal('view'), count: Count }),
  /** A search the visitor settled on, and whether any location matched it. */
  z.object({ kind: z.literal('search'), text: z.string().max(1000, 'must be at most 1000 characters'), found: z.boolean(), count: Count }),
  /** A location's details were opened. */
  z.object({ kind: z.literal('open'), location: ElementId, count: Count }),
  /** Directions were asked for, to this location. */
  z.object({ kind: z.literal('directions'), location: ElementId, count: Count }),
]);
export type InsightCounter = z.infer<typeof InsightCounter>;

/** `POST /api/public/maps/{id}/insights`: the counters of one page, sent when it is hidden. */
export const InsightBeacon = z.object({
  data: z.object({
    counters: z.array(InsightCounter).min(1, 'must have at least one counter').max(BEACON_COUNTERS_MAX, `must have at most ${BEACON_COUNTERS_MAX} counters`),
  }),
});
export type InsightBeacon = z.infer<typeof InsightBeacon>;

/**
 * How the read model keys counts: a view has no key; a search its normalised text (`search`
 * for every search, `search_miss` again for those that found nothing); opens and directions
 * the location's id.
 */
export const INSIGHT_KINDS = ['view', 'search', 'search_miss', 'open', 'directions'] as const;
export type InsightKind = (typeof INSIGHT_KINDS)[number];

/** The read model's rows a counter adds to (a search without text counts nothing). */
export function countedRows(counter: InsightCounter): Array<{ kind: InsightKind; key: string; count: number }> {
  switch (counter.kind) {
    case 'view':
      return [{ kind: 'view', key: '', count: counter.count }];
    case 'search': {
      const text = normaliseSearch(counter.text);
      if (!text) return [];
      const rows: Array<{ kind: InsightKind; key: string; count: number }> = [{ kind: 'search', key: text, count: counter.count }];
      if (!counter.found) rows.push({ kind: 'search_miss', key: text, count: counter.count });
      return rows;
    }
    case 'open':
      return [{ kind: 'open', key: counter.location, count: counter.count }];
    case 'directions':
      return [{ kind: 'directions', key: counter.location, count: counter.count }];
    default: {
      const missing: never = counter;
      return missing;
    }
  }
}

/** A day as `YYYY-MM-DD` (UTC). */
export const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date like 2026-11-25').refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value), 'must be a real date');

/** The UTC day of an instant. */
export function dayOf(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

/** The day `days` after `day` (negative: before). */
export function addDays(day: string, days: number): string {
  return dayOf(new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000));
}

/** Every day from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) days.push(day);
  return days;
}

/** `GET /api/maps/{id}/insights?from=&to=&format=`: the range (UTC days, both included; default the last 30). */
export const InsightsQuery = z.object({
  from: Day.optional(),
  to: Day.optional(),
  format: z.enum(['json', 'csv']).default('json'),
});

const TopLocation = z.object({ id: z.string(), title: z.string(), count: z.number().int() });
const TopSearch = z.object({ text: z.string(), count: z.number().int() });

/** What the Insights panel shows for a range. */
export const InsightsReport = z.object({
  from: z.string(),
  to: z.string(),
  /** Every day of the range, in order, with its views (0 when none). */
  days: z.array(z.object({ day: z.string(), views: z.number().int() })),
  totals: z.object({ views: z.number().int(), searches: z.number().int(), searchesWithoutResults: z.number().int(), opens: z.number().int(), directions: z.number().int() }),
  /** The locations opened most (those still on the map, with their titles now). */
  topLocations: z.array(TopLocation),
  /** Where visitors asked for directions to most. */
  topDirections: z.array(TopLocation),
  /** The searches made most. */
  topSearches: z.array(TopSearch),
  /** The searches that found nothing, most made first: what visitors look for and the map lacks. */
  searchesWithoutResults: z.array(TopSearch),
});
export type InsightsReport = z.infer<typeof InsightsReport>;
