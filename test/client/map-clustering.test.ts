/**
 * The clusters of a layer's points (client/src/components/map/clustering.ts): every point is
 * counted exactly once at every zoom, a cluster's expansion zoom splits it, a marker stands
 * alone from its reveal zoom on, and the renderer's choice of what to cluster (per floor,
 * regions left out, only from CLUSTER_FROM points).
 */
import { describe, expect, it } from 'vitest';
import { clusterBadgeText, clusterDiameter } from '../../client/src/components/map/cluster-look';
import { MarkerClusters } from '../../client/src/components/map/clustering';
import { clusterableItems, CLUSTER_FROM, isClusterId } from '../../client/src/components/map/cluster-items';
import type { MarkerItem } from '../../client/src/components/map/marker-layer';

function seeded(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function points(count: number, width: number, height: number, seed = 7): MarkerItem[] {
  const random = seeded(seed);
  return Array.from({ length: count }, (_, i) => ({ id: `p${i}`, x: random() * width, y: random() * height, type: 'pin' as const, color: '#2563eb', text: '', image: null }));
}

const WIDTH = 8000;
const HEIGHT = 6000;

describe('MarkerClusters', () => {
  const items = points(25_000, WIDTH, HEIGHT);
  const clusters = new MarkerClusters(items, { width: WIDTH, height: HEIGHT, maxZoom: 16 });

  it('counts every point exactly once at every zoom level', () => {
    for (let level = 0; level <= 12; level++) {
      const { clusters: groups, points: alone } = clusters.query(0, 0, WIDTH, HEIGHT, level);
      const total = groups.reduce((sum, cluster) => sum + cluster.count, 0) + alone.length;
      expect(total, `level ${level}`).toBe(items.length);
      expect(new Set(alone.map((point) => point.id)).size).toBe(alone.length);
    }
  });

  it('clusters 25,000 points into a few hundred badges when the layer is fitted, and none at the deepest zoom', () => {
    // A 1280 × 800 viewport fitted: the camera's scale is the smaller of the ratios.
    const k = Math.min(1280 / WIDTH, 800 / HEIGHT);
    const fitted = clusters.at({ x: 0, y: 0, k }, 1280, 800);
    expect(fitted.clusters.length).toBeGreaterThan(10);
    expect(fitted.clusters.length).toBeLessThan(600);
    expect(fitted.points.length).toBeLessThan(50);
    expect(fitted.clusters.every((cluster) => isClusterId(cluster.id) && cluster.count >= 2)).toBe(true);
    // At the camera's deepest zoom, nothing is clustered.
    const deep = 16 * k;
    const deepest = clusters.at({ x: 640 - 4000 * deep, y: 400 - 3000 * deep, k: deep }, 1280, 800, true);
    expect(deepest.clusters).toHaveLength(0);
    expect(deepest.points.length).toBeGreaterThan(0);
  });

  it('splits a cluster at its expansion zoom into the children it names', () => {
    const level = 3;
    const { clusters: groups } = clusters.query(0, 0, WIDTH, HEIGHT, level);
    const cluster = groups.at(-1)!;
    const scale = clusters.expansionScale(cluster.clusterId);
    const next = Math.floor(clusters.levelOf(scale));
    expect(next).toBeGreaterThan(level);
    const children = clusters.childrenOf(cluster.clusterId);
    expect(children.length).toBeGreaterThan(1);
    // The children are what the map shows around the cluster at that zoom, and add up to it.
    const around = clusters.query(cluster.x - 2000, cluster.y - 2000, cluster.x + 2000, cluster.y + 2000, next);
    const shown = new Map([...around.clusters.map((c) => [c.id, c.count] as const), ...around.points.map((p) => [p.id, 1] as const)]);
    let sum = 0;
    for (const child of children) {
      expect(shown.has(child), child).toBe(true);
      sum += shown.get(child)!;
    }
    expect(sum).toBe(cluster.count);
  });

  it('builds its deeper levels only when a view first needs them, or when asked to', () => {
    // 8000 × 6000 at maxZoom 16: levels 0 to 8 at once (a camera zoom of 2 on the widest
    // screen), 9 to 11 later.
    const deeperOf = (index: MarkerClusters) => (index as unknown as { deeper: unknown }).deeper;
    const index = new MarkerClusters(items, { width: WIDTH, height: HEIGHT, maxZoom: 16 });
    index.query(0, 0, WIDTH, HEIGHT, 8);
    expect(deeperOf(index)).toBeNull();
    index.query(0, 0, WIDTH, HEIGHT, 9);
    expect(deeperOf(index)).not.toBeNull();
    const prepared = new MarkerClusters(items, { width: WIDTH, height: HEIGHT, maxZoom: 16 });
    prepared.prepareDeeperLevels();
    expect(deeperOf(prepared)).not.toBeNull();
    expect(index.deepestLevel).toBe(12);
    // A map that never zooms past the first part has no deeper one.
    const shallow = new MarkerClusters(items, { width: WIDTH, height: HEIGHT, maxZoom: 2 });
    shallow.prepareDeeperLevels();
    expect(deeperOf(shallow)).toBeNull();
    expect(shallow.query(0, 0, WIDTH, HEIGHT, shallow.deepestLevel).points).toHaveLength(items.length);
  });

  it('splits a cluster of the first part’s deepest level into the deeper part’s clusters and markers that hold its markers', () => {
    const level = 8;
    const { clusters: groups } = clusters.query(0, 0, WIDTH, HEIGHT, level);
    for (const cluster of groups.slice(-20)) {
      expect(Math.floor(clusters.levelOf(clusters.expansionScale(cluster.clusterId)))).toBe(level + 1);
      const children = clusters.childrenOf(cluster.clusterId);
      expect(children.length).toBeGreaterThan(0);
      const around = clusters.query(cluster.x - 1000, cluster.y - 1000, cluster.x + 1000, cluster.y + 1000, level + 1);
      const shown = new Map([...around.clusters.map((c) => [c.id, c.count] as const), ...around.points.map((p) => [p.id, 1] as const)]);
      let sum = 0;
      for (const child of children) {
        expect(shown.has(child), child).toBe(true);
        sum += shown.get(child)!;
      }
      // They hold all of its markers (and may hold a neighbour's too: they were made apart).
      expect(sum).toBeGreaterThanOrEqual(cluster.count);
    }
  });

  it('tells from which zoom a marker stands alone', () => {
    const item = items[1234]!;
    const scale = clusters.revealScale(item.id)!;
    expect(scale).toBeGreaterThan(0);
    expect(Number.isFinite(scale)).toBe(true);
    const level = Math.floor(clusters.levelOf(scale));
    const box = (l: number) => clusters.query(item.x - 1, item.y - 1, item.x + 1, item.y + 1, l).points.some((point) => point.id === item.id);
    expect(box(level)).toBe(true);
    expect(box(level - 1)).toBe(false);
    expect(clusters.revealScale('nope')).toBeNull();
  });

  it('splits markers at the very same place only past its deepest level', () => {
    const twins = [...points(300, 1000, 1000, 3), { ...points(1, 1, 1)[0]!, id: 'a', x: 500, y: 500 }, { ...points(1, 1, 1)[0]!, id: 'b', x: 500, y: 500 }];
    const index = new MarkerClusters(twins, { width: 1000, height: 1000, maxZoom: 8 });
    expect(index.revealScale('a')).toBeGreaterThan(index.scaleOf(index.deepestLevel));
    expect(index.at({ x: 0, y: 0, k: 1 }, 1000, 1000, true).points.some((point) => point.id === 'a')).toBe(true);
  });

  it('sizes badges by their count', () => {
    expect(clusterDiameter(2)).toBeLessThan(clusterDiameter(50));
    expect(clusterDiameter(50)).toBeLessThan(clusterDiameter(25_000));
    expect(clusterDiameter(25_000)).toBeLessThanOrEqual(60);
  });
});

describe('clusterBadgeText', () => {
  it('writes a count as the locale’s compact notation does, below a thousand with its plain number format', () => {
    for (const locale of ['en', 'es', 'de', 'ar', 'ja', 'zh', 'not a tag']) {
      const tag = locale === 'not a tag' ? undefined : locale;
      const compact = new Intl.NumberFormat(tag, { notation: 'compact', maximumFractionDigits: 1 });
      for (const count of [2, 12, 345, 999, 1000, 1234, 25_000]) expect(clusterBadgeText(count, locale), `${count} in ${locale}`).toBe(compact.format(count));
    }
  });
});

describe('clusterableItems', () => {
  const item = (id: string): MarkerItem => ({ id, x: 1, y: 1, type: 'pin', color: '#000', text: '', image: null });

  it('leaves out regions and the points the filters hide', () => {
    const items = [...Array.from({ length: CLUSTER_FROM + 1 }, (_, i) => item(`p${i}`)), { ...item('shop'), region: true }];
    const chosen = clusterableItems(items, null);
    expect(chosen).toHaveLength(CLUSTER_FROM + 1);
    expect(chosen.some((candidate) => candidate.id === 'shop')).toBe(false);
    expect(clusterableItems(items, new Set(['p1', 'p2', 'shop'])).map((candidate) => candidate.id)).toEqual(['p1', 'p2']);
  });
});
