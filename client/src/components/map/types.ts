/**
 * The document model the map renderer draws, as types only: the viewer's bundle never carries zod
 * (the server has checked the document already).
 */
export type { Group, Layer, Location, MapDocument, Settings } from '../../../../events/map-document';

/** A point in a layer's coordinates. */
export interface MapPoint {
  x: number;
  y: number;
}
