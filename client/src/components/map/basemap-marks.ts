/**
 * What a basemap floor shows at rest, for the keyboard's buttons on a large floor
 * (basemap-location-buttons.tsx; issue 29 item 1): the clusters on screen, with how many
 * locations each holds and where it is, the lone markers and the regions on screen, in reading
 * order (top to bottom, then left to right), as the canvas's cluster-control.tsx reports them.
 * Read from what MapLibre has drawn, so a 25,000-store chain costs a few dozen buttons.
 */
import type { Map as MapLibreMap } from 'maplibre-gl';
import { CLUSTER_LAYER } from './basemap-marker-layers';
import { REGION_FILL } from './basemap-region-layers';

export interface ShownCluster {
  /** Its button's key (`cluster-<MapLibre's cluster id>`). */
  id: string;
  clusterId: number;
  count: number;
  /** Where it is on screen (CSS pixels from the map's top left). */
  sx: number;
  sy: number;
  /** Its place, [longitude, latitude]. */
  at: [number, number];
}

export interface BasemapMarks {
  clusters: ShownCluster[];
  /** Locations with a marker or a region on screen, by id. */
  points: string[];
}

const MARKER_LAYERS = ['mf-pins', 'mf-dots'];

export function marksInView(map: MapLibreMap): BasemapMarks {
  const container = map.getContainer();
  const width = container.clientWidth;
  const height = container.clientHeight;
  const inside = (x: number, y: number) => x >= 0 && y >= 0 && x <= width && y <= height;
  const clusters = new Map<number, ShownCluster>();
  const points = new Map<string, { x: number; y: number }>();
  const layers = [CLUSTER_LAYER, ...MARKER_LAYERS, REGION_FILL].filter((layer) => map.getLayer(layer));
  for (const feature of map.queryRenderedFeatures(undefined, { layers })) {
    const properties = feature.properties as { id?: string; cluster_id?: number; point_count?: number };
    if (feature.layer.id === REGION_FILL) {
      // A region's place in the reading order: where the pointer would find it (its first drawn vertex is enough to order by).
      if (properties.id && !points.has(properties.id)) points.set(properties.id, regionPlace(map, feature.geometry));
      continue;
    }
    const [lng, lat] = (feature.geometry as GeoJSON.Point).coordinates as [number, number];
    const { x, y } = map.project([lng, lat]);
    if (!inside(x, y)) continue;
    if (properties.cluster_id !== undefined) {
      if (!clusters.has(properties.cluster_id)) clusters.set(properties.cluster_id, { id: `cluster-${properties.cluster_id}`, clusterId: properties.cluster_id, count: properties.point_count ?? 0, sx: Math.round(x), sy: Math.round(y), at: [lng, lat] });
    } else if (properties.id) points.set(properties.id, { x, y });
  }
  const order = (a: { x: number; y: number }, b: { x: number; y: number }) => a.y - b.y || a.x - b.x;
  return {
    clusters: [...clusters.values()].sort((a, b) => order({ x: a.sx, y: a.sy }, { x: b.sx, y: b.sy })),
    points: [...points].sort(([, a], [, b]) => order(a, b)).map(([id]) => id),
  };
}

/** Where a region is on screen, roughly: the middle of its drawn part's first ring's extent. */
function regionPlace(map: MapLibreMap, geometry: GeoJSON.Geometry): { x: number; y: number } {
  const ring = geometry.type === 'Polygon' ? geometry.coordinates[0] : geometry.type === 'MultiPolygon' ? geometry.coordinates[0]?.[0] : undefined;
  if (!ring || ring.length === 0) return { x: 0, y: 0 };
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [lng, lat] of ring) {
    const { x, y } = map.project([lng!, lat!]);
    minX = Math.min(minX, x);
    minY = Math.min(minY, y);
    maxX = Math.max(maxX, x);
    maxY = Math.max(maxY, y);
  }
  return { x: (minX + maxX) / 2, y: (minY + maxY) / 2 };
}
