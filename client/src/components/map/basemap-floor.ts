/**
 * A floor on a street basemap (issue 29 item 1), in plain TypeScript for the MapLibre view
 * (maplibre-map-view.ts) and its tests: which floors lie on one, the floor's size, its points
 * as longitude and latitude and back, and its locations as the GeoJSON MapLibre clusters.
 *
 * A basemap floor is calibrated by Web Mercator bounds (events/map-document.ts,
 * isBasemapCalibration): its locations keep their positions in the floor's own units, which
 * map linearly onto the basemap's Web Mercator, so a point converts through the bounds floors'
 * arithmetic every calibrated floor uses (events/geo-bounds.ts, without d3-geo's drawn projections).
 */
import { boundsToFloor, boundsToGeo, type FloorSize } from '../../../../events/geo-bounds';
import { colorOf } from './marker-colour';
import type { Layer, Location, MapDocument, MapPoint } from './types';

export { isBasemapFloor } from './is-basemap-floor';

/** A basemap floor's calibration: Web Mercator bounds. */
export type BasemapBounds = Extract<NonNullable<Layer['geo']>, { kind: 'bounds' }>;

/** A floor's size in its own units: its drawing's, else the document's (as the import does). */
export function floorSizeOf(doc: MapDocument, layer: Layer): FloorSize {
  return layer.file ? { width: layer.file.width, height: layer.file.height } : doc.settings.size;
}

/** Converts between a basemap floor's units and longitude/latitude. */
export interface FloorGeo {
  geo: BasemapBounds;
  size: FloorSize;
}

/** A point of the floor as MapLibre's [longitude, latitude]. */
export function toLngLat({ geo, size }: FloorGeo, point: MapPoint): [number, number] {
  const place = boundsToGeo(geo, size, point);
  return place ? [place.lng, place.lat] : [geo.west, geo.north];
}

/** A longitude/latitude as a point of the floor (null beyond Web Mercator's poles). */
export function toFloor({ geo, size }: FloorGeo, lng: number, lat: number): MapPoint | null {
  return boundsToFloor(geo, size, { lat, lng });
}

/** The floor's extent as MapLibre's [[west, south], [east, north]]. */
export function floorBounds({ geo }: FloorGeo): [[number, number], [number, number]] {
  return [
    [Math.min(geo.west, geo.east), Math.min(geo.south, geo.north)],
    [Math.max(geo.west, geo.east), Math.max(geo.south, geo.north)],
  ];
}

/** What a marker feature carries: the location's id, its colour and its shape. */
export interface MarkerProperties {
  id: string;
  color: string;
  /** 'pin' (a pin standing on the point) or 'dot' (a disc centred on it). */
  shape: 'pin' | 'dot';
}

export interface MarkerFeature {
  type: 'Feature';
  geometry: { type: 'Point'; coordinates: [number, number] };
  properties: MarkerProperties;
}

export interface MarkerCollection {
  type: 'FeatureCollection';
  features: MarkerFeature[];
}

/** What colours a marker, as the canvas view gives it (marker-colour.ts). */
export interface MarkerColours {
  groupColors: ReadonlyMap<string, string>;
  accent: string;
}

/**
 * The floor's markers as GeoJSON points: its locations with a position and a marker, not
 * hidden, and let through by the filters (`visible`; null lets all through). Filtered-out
 * locations are left out, as the canvas view does not draw them, so clusters count only
 * what the visitor is looking for.
 */
export function markerFeatures(locations: readonly Location[], layerId: string, floor: FloorGeo, colours: MarkerColours, visible: ReadonlySet<string> | null): MarkerCollection {
  const features: MarkerFeature[] = [];
  for (const location of locations) {
    if (location.layer !== layerId || location.hidden || !location.position || location.marker === 'hidden') continue;
    if (visible && !visible.has(location.id)) continue;
    features.push({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: toLngLat(floor, location.position) },
      properties: { id: location.id, color: colorOf(location, colours.groupColors, colours.accent), shape: location.marker === 'dot' || location.marker === 'circle' ? 'dot' : 'pin' },
    });
  }
  return { type: 'FeatureCollection', features };
}
