import { z } from 'zod';

/** A history entry (spec §3): a named point in a map's event stream. */
export const HistoryEntry = z.object({
  id: z.string(),
  mapId: z.string(),
  name: z.string().optional(),
  revision: z.string(),
  created: z.string(),
  author: z.string(),
  /** Made by the product on its own (before a stretch of edits, before a restore). */
  auto: z.boolean().optional(),
});
export type HistoryEntry = z.infer<typeof HistoryEntry>;

/** The map list item (spec §3), as the maps-list read model serves it. */
export const MapListItem = z.object({
  id: z.string(),
  title: z.string(),
  uid: z.string(),
  author: z.string(),
  created: z.string(),
  edited: z.string(),
  state: z.number().int(),
  subscribed: z.boolean(),
  metrics: z.object({ layerCount: z.number().int(), locationCount: z.number().int() }),
  history: z.array(HistoryEntry),
});
export type MapListItem = z.infer<typeof MapListItem>;

/** The map data record (spec §3): same id as the map, with its document and stream revision. */
export const MapDataRecord = z.object({
  id: z.string(),
  title: z.string(),
  data: z.unknown(),
  /** The map stream's revision this record reflects, as a decimal string (bigint). */
  revision: z.string(),
  /** The map's history entries, oldest first (from the maps list). */
  history: z.array(HistoryEntry).default([]),
});
export type MapDataRecord = z.infer<typeof MapDataRecord>;
