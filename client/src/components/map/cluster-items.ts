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

const CLUSTER_PREFIX = 'cluster:';
/** A cluster's id as the map uses it (hit-testing, focus, buttons): `cluster:<supercluster id>`. */
export const clusterKey = (clusterId: number): string => `${CLUSTER_PREFIX}${clusterId}`;
export const isClusterId = (id: string): boolean => id.startsWith(CLUSTER_PREFIX);
export const clusterIdOf = (id: string): number => Number(id.slice(CLUSTER_PREFIX.length));
