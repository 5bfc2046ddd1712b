/**
 * Which markers of a layer cluster (clustering.ts): its point locations the filters let
 * through, not the regions (a shape drawn on the floor is never folded into a badge), and
 * only when there are many. Small, and in the renderer's own chunk: it decides whether the
 * clustering code (supercluster) is loaded at all.
 */
import type { MarkerItem } from './marker-layer';

/**
 * Layers with fewer point markers than this draw every marker (a mall's few dozen shops never
 * need clusters), and never load the clustering code.
 */
export const CLUSTER_FROM = 200;

/**
 * The markers to cluster on a layer with many (at least CLUSTER_FROM markers: the renderer
 * decides by that count alone, so filtering never switches clustering off and on).
 */
export function clusterableItems(items: readonly MarkerItem[], visible: ReadonlySet<string> | null): MarkerItem[] {
  return items.filter((item) => (visible === null || visible.has(item.id)) && !item.region);
}

/** A location as a document holds it, checked loosely (the server's copy of a published map). */
interface LooseLocation {
  layer?: unknown;
  hidden?: unknown;
  position?: unknown;
  marker?: unknown;
}

/**
 * Whether a layer's markers cluster, decided as the renderer decides it (map-renderer.tsx): its
 * shown locations with a position and a marker, at least CLUSTER_FROM. The server asks, to have
 * a published map's page fetch the clustering code beside its first scripts.
 */
export function layerClusters(locations: readonly LooseLocation[], layerId: string): boolean {
  let markers = 0;
  for (const location of locations) {
    if (location.layer === layerId && !location.hidden && location.position && location.marker !== 'hidden' && ++markers >= CLUSTER_FROM) return true;
  }
  return false;
}

const CLUSTER_PREFIX = 'cluster:';
/** A cluster's id as the map uses it (hit-testing, focus, buttons): `cluster:<supercluster id>`. */
export const clusterKey = (clusterId: number): string => `${CLUSTER_PREFIX}${clusterId}`;
export const isClusterId = (id: string): boolean => id.startsWith(CLUSTER_PREFIX);
export const clusterIdOf = (id: string): number => Number(id.slice(CLUSTER_PREFIX.length));
