/**
 * Clusters of point markers where they would overlap, with supercluster (a KD-tree per zoom
 * level, built once per layer and filter): a layer with many points shows round badges with
 * counts at low zoom and splits them as the view zooms in. Loaded on demand, only for layers
 * with many points (map-renderer.tsx, CLUSTER_FROM), and by the server renderer, which draws
 * the clusters of big maps into the page instead of every marker (static-map.tsx).
 *
 * supercluster thinks in longitude and latitude on a Web Mercator world; a layer is flat, so
 * its units are mapped linearly onto that world's projected square (x to longitude, y through
 * the inverse of Mercator's latitude), the longer side of the layer spanning the whole world.
 * At supercluster zoom z that world is EXTENT·2^z pixels wide; on our screen it is S·k (S the
 * layer's longer side, k the camera's scale): so z = log2(S·k / EXTENT). supercluster rounds z
 * down, so a cluster's radius on screen is between RADIUS and twice it, as on any web map.
 *
 * Pure apart from supercluster: no DOM, so Node (server rendering, tests) runs it too.
 */
import Supercluster, { type ClusterProperties, type PointFeature as SuperclusterPoint } from 'supercluster';
import type { View } from './camera';
import { clusterKey } from './cluster-items';
import type { MarkerItem } from './marker-layer';

/** Points within about this many screen pixels of each other merge. */
export const CLUSTER_RADIUS = 56;
/** supercluster's world size at zoom 0: small, so the zooms a layer needs are all above 0. */
const EXTENT = 64;
/** The widest viewport we plan for (the deepest zoom level to build follows from it). */
const WIDEST_VIEWPORT = 3840;
/**
 * The index's levels are built in two parts: at once, those a view up to this camera zoom needs
 * on the widest screen (the opening view and a first zoom in); the deeper ones when a view first
 * needs them, or when the browser is idle ({@link MarkerClusters.prepareDeeperLevels}). The deep
 * levels are the costly ones (a store chain's 25,000 stores barely cluster there: about 70% of
 * the building), and most visits never zoom that far.
 */
const FIRST_PART_ZOOM = 2;

/** A cluster as the map draws it: where (layer units), how many, and supercluster's id. */
export interface ClusterMark {
  kind: 'cluster';
  /** `cluster:<supercluster id>`, the id hit-testing and the buttons use. */
  id: string;
  clusterId: number;
  x: number;
  y: number;
  count: number;
  /** Where it was on screen when the view last settled (the renderer's buttons). */
  sx?: number;
  sy?: number;
}

/** What is on screen at one view: the clusters, and the markers left alone. */
export interface ClusterFrame {
  clusters: ClusterMark[];
  points: MarkerItem[];
}


const lngOf = (unit: number) => (unit - 0.5) * 360;
const latOf = (unit: number) => (360 * Math.atan(Math.exp(((180 - unit * 360) * Math.PI) / 180))) / Math.PI - 90;
const unitOfLng = (lng: number) => lng / 360 + 0.5;
function unitOfLat(lat: number): number {
  const sin = Math.sin((lat * Math.PI) / 180);
  const y = 0.5 - (0.25 * Math.log((1 + sin) / (1 - sin))) / Math.PI;
  return y < 0 ? 0 : y > 1 ? 1 : y;
}
const clampUnit = (value: number) => (value < 0 ? 0 : value > 1 ? 1 : value);

interface PointProps {
  /** The marker's index in the items given. */
  i: number;
}

export interface ClusterOptions {
  /** The layer's size (its units). */
  width: number;
  height: number;
  /** The camera's deepest zoom (document maxZoom: 1 fits the layer). */
  maxZoom: number;
}

type Index = Supercluster<PointProps>;
type PointFeature = SuperclusterPoint<PointProps>;

/**
 * The clusters of one layer's points (the items given: already filtered, regions left out).
 *
 * Two supercluster indexes, one per part of the levels: the first part (level 0 to `firstTop`,
 * built at once) and the deeper part (`firstTop + 1` to the deepest, built when first needed).
 * supercluster builds its levels from the deepest up, each from the one below, so the deeper
 * part's levels are those a single index would have; the first part's are built from the points
 * themselves at `firstTop`. The server's page, the canvas and the exported picture all cluster
 * through this class with the document's maxZoom, so they show the same clusters.
 */
export class MarkerClusters {
  private readonly first: Index;
  private deeper: Index | null = null;
  private readonly features: PointFeature[];
  private readonly firstTop: number;
  private readonly deepestTop: number;
  private readonly side: number;
  /** The last query, reused while the view stays inside its area at the same zoom level. */
  private cached: { z: number; x0: number; y0: number; x1: number; y1: number; frame: ClusterFrame } | null = null;

  constructor(
    private readonly items: readonly MarkerItem[],
    options: ClusterOptions,
  ) {
    this.side = Math.max(1, options.width, options.height);
    // The level a camera zoom reaches on the widest screen; at the camera's deepest zoom, deep
    // enough that nothing is clustered but markers at the very same place.
    const topFor = (zoom: number) =>
      Math.max(1, Math.min(24, Math.ceil(Math.log2((zoom * WIDEST_VIEWPORT * this.side) / Math.max(1, Math.min(options.width, options.height)) / EXTENT))));
    this.deepestTop = topFor(options.maxZoom);
    this.firstTop = Math.min(this.deepestTop, topFor(Math.min(options.maxZoom, FIRST_PART_ZOOM)));
    this.features = items.map((item, i) => ({
      type: 'Feature' as const,
      properties: { i },
      geometry: { type: 'Point' as const, coordinates: [lngOf(clampUnit(item.x / this.side)), latOf(clampUnit(item.y / this.side))] },
    }));
    this.first = new Supercluster<PointProps>({ radius: CLUSTER_RADIUS, extent: EXTENT, minZoom: 0, maxZoom: this.firstTop }).load(this.features);
  }

  /** Builds the deeper levels now (the renderer asks when the browser is idle), if there are any. */
  prepareDeeperLevels(): void {
    if (this.deepestTop > this.firstTop) this.deeperIndex();
  }

  private deeperIndex(): Index {
    return (this.deeper ??= new Supercluster<PointProps>({ radius: CLUSTER_RADIUS, extent: EXTENT, minZoom: this.firstTop + 1, maxZoom: this.deepestTop }).load(this.features));
  }

  /** The index that holds a zoom level (past the deepest: the points alone, in either). */
  private indexAt(level: number): Index {
    return level <= this.firstTop || this.deepestTop === this.firstTop ? this.first : this.deeperIndex();
  }

  /**
   * The index that made a cluster. supercluster writes into a cluster's id the level it was
   * made from (its children's), so the two parts' ids never meet.
   */
  private indexOf(clusterId: number): Index {
    return (clusterId - this.items.length) % 32 <= this.firstTop + 1 ? this.first : this.deeperIndex();
  }

  get size(): number {
    return this.items.length;
  }

  /** supercluster's zoom level for a camera scale (layer units to screen pixels). */
  levelOf(k: number): number {
    return Math.log2((this.side * k) / EXTENT);
  }

  /** The camera scale at which a supercluster zoom level begins. */
  scaleOf(level: number): number {
    return (EXTENT * 2 ** level) / this.side;
  }

  /** Below this level markers may be clustered; from it on, none is. */
  get deepestLevel(): number {
    return this.deepestTop + 1;
  }

  /**
   * The clusters and lone markers in (and a little around) a viewport at a view. `deepest`: the
   * camera is at its deepest zoom, where nothing is clustered (markers too close to split
   * there overlap, as they would without clusters).
   */
  at(view: View, width: number, height: number, deepest = false, margin = 80): ClusterFrame {
    const z = deepest ? this.deepestLevel : Math.max(0, Math.min(this.deepestLevel, Math.floor(this.levelOf(view.k))));
    const x0 = (-margin - view.x) / view.k;
    const y0 = (-margin - view.y) / view.k;
    const x1 = (width + margin - view.x) / view.k;
    const y1 = (height + margin - view.y) / view.k;
    const c = this.cached;
    if (c && c.z === z && x0 >= c.x0 && y0 >= c.y0 && x1 <= c.x1 && y1 <= c.y1) return c.frame;
    // Half a viewport more on each side: a pan reuses this answer for a while.
    const padX = (x1 - x0) / 2;
    const padY = (y1 - y0) / 2;
    const area = { x0: x0 - padX, y0: y0 - padY, x1: x1 + padX, y1: y1 + padY };
    const frame = this.query(area.x0, area.y0, area.x1, area.y1, z);
    this.cached = { z, ...area, frame };
    return frame;
  }

  /** Everything at a zoom level inside a box of the layer. */
  query(x0: number, y0: number, x1: number, y1: number, level: number): ClusterFrame {
    const s = this.side;
    const bbox: [number, number, number, number] = [lngOf(clampUnit(x0 / s)), latOf(clampUnit(y1 / s)), lngOf(clampUnit(x1 / s)), latOf(clampUnit(y0 / s))];
    const features = this.indexAt(level).getClusters(bbox, level);
    const frame: ClusterFrame = { clusters: [], points: [] };
    for (const feature of features) {
      const props = feature.properties as PointProps | (ClusterProperties);
      if ('cluster' in props && props.cluster) {
        const [lng, lat] = feature.geometry.coordinates as [number, number];
        frame.clusters.push({ kind: 'cluster', id: clusterKey(props.cluster_id), clusterId: props.cluster_id, x: unitOfLng(lng) * s, y: unitOfLat(lat) * s, count: props.point_count });
      } else {
        frame.points.push(this.items[(props as PointProps).i]!);
      }
    }
    // Large clusters last, so they draw on top of small ones they touch; markers top to bottom.
    frame.clusters.sort((a, b) => a.count - b.count);
    frame.points.sort((a, b) => a.y - b.y || a.x - b.x);
    return frame;
  }

  /** The camera scale at which a cluster splits into several (for a click on it). */
  expansionScale(clusterId: number): number {
    return this.scaleOf(this.indexOf(clusterId).getClusterExpansionZoom(clusterId)) * 1.0001;
  }

  /**
   * The markers and clusters a cluster splits into, by the ids the map uses. A cluster of the
   * first part's deepest level splits into the deeper part's level below it, whose clusters were
   * made apart from it: those that hold any of its markers.
   */
  childrenOf(clusterId: number): string[] {
    const index = this.indexOf(clusterId);
    const idOf = (feature: ReturnType<Index['getChildren']>[number]) => {
      const props = feature.properties as PointProps | ClusterProperties;
      return 'cluster' in props && props.cluster ? clusterKey(props.cluster_id) : this.items[(props as PointProps).i]!.id;
    };
    if (index !== this.first || (clusterId - this.items.length) % 32 !== this.firstTop + 1 || this.deepestTop === this.firstTop) return index.getChildren(clusterId).map(idOf);
    const level = this.firstTop + 1;
    const mine = new Set(this.first.getLeaves(clusterId, Infinity).map((leaf) => (leaf.properties as PointProps).i));
    // Each marker is within a few cluster radii of the cluster that holds it at `level`.
    const reach = (4 * CLUSTER_RADIUS) / (EXTENT * 2 ** level);
    let [x0, y0, x1, y1] = [1, 1, 0, 0];
    for (const i of mine) {
      const item = this.items[i]!;
      x0 = Math.min(x0, item.x / this.side);
      y0 = Math.min(y0, item.y / this.side);
      x1 = Math.max(x1, item.x / this.side);
      y1 = Math.max(y1, item.y / this.side);
    }
    const s = this.side;
    const deeper = this.deeperIndex();
    const around = this.query((x0 - reach) * s, (y0 - reach) * s, (x1 + reach) * s, (y1 + reach) * s, level);
    const mineIds = new Set([...mine].map((i) => this.items[i]!.id));
    return [
      ...around.clusters.filter((cluster) => deeper.getLeaves(cluster.clusterId, Infinity).some((leaf) => mine.has((leaf.properties as PointProps).i))).map((cluster) => cluster.id),
      ...around.points.filter((point) => mineIds.has(point.id)).map((point) => point.id),
    ];
  }

  /**
   * The smallest camera scale at which a marker stands alone (not in a cluster), or null when it
   * is not among these points (0: it is alone at every zoom).
   */
  revealScale(id: string): number | null {
    const item = this.items.find((candidate) => candidate.id === id);
    if (!item) return null;
    for (let level = 0; level <= this.deepestLevel; level++) {
      const { points } = this.query(item.x - 0.5, item.y - 0.5, item.x + 0.5, item.y + 0.5, level);
      if (points.some((point) => point.id === id)) return level === 0 ? 0 : this.scaleOf(level) * 1.0001;
    }
    return this.scaleOf(this.deepestLevel) * 1.0001;
  }
}
