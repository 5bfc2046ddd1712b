import { z } from 'zod';

/**
 * The map document (the spec's "map data"): layers (floors) and locations.
 *
 * Version 1 holds only what the map list's metrics need; unknown fields on the document and
 * its items are kept as they are, so a richer editor can store more before this model names it.
 */
export const Layer = z.looseObject({
  id: z.string().min(1).max(100),
  name: z.string().max(200).default(''),
});
export type Layer = z.infer<typeof Layer>;

export const Location = z.looseObject({
  id: z.string().min(1).max(100),
  title: z.string().max(500).default(''),
  layer: z.string().max(100).optional(),
});
export type Location = z.infer<typeof Location>;

export const MapDocument = z.looseObject({
  version: z.literal(1).default(1),
  layers: z.array(Layer).max(500).default([]),
  locations: z.array(Location).max(50_000).default([]),
});
export type MapDocument = z.infer<typeof MapDocument>;

export function emptyMapDocument(): MapDocument {
  return { version: 1, layers: [], locations: [] };
}

export interface MapMetrics {
  layerCount: number;
  locationCount: number;
}

export function metricsOf(document: MapDocument): MapMetrics {
  return { layerCount: document.layers.length, locationCount: document.locations.length };
}
