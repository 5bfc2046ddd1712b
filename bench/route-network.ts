/**
 * The routing benchmark's network and its measuring loop, shared by the Node run and the
 * Chromium run (bench/route-browser.ts is bundled from it): no Node-only imports.
 *
 * The network: three floors of a 58 × 58 grid of path points (10,092 in all) 2 m apart, the
 * corridors between neighbours with one link in ten left out (walls, shops), one in twenty with
 * steps and one in fifty one way; nine lifts and nine stairs through all three floors and four
 * escalators between each two floors. Seeded, so every run routes the same pairs.
 */
import { emptyMapDocument, type MapDocument } from '../events/map-document.js';
import type { Connector, PathEdge, PathNode } from '../events/path-network.js';
import { findRoute } from '../events/wayfinding/find-route.js';
import { buildRouteGraph } from '../events/wayfinding/route-graph.js';

export const FLOORS = 3;
export const SIDE = 58;
const SPACING = 20;

/** mulberry32: a small seeded generator, the same sequence in Node and in the browser. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const id = (floor: number, x: number, y: number) => `f${floor}-${x}-${y}`;

export function benchNetworkDocument(seed = 17): MapDocument {
  const next = random(seed);
  const nodes: PathNode[] = [];
  const edges: PathEdge[] = [];
  const connectors: Connector[] = [];
  const layers = Array.from({ length: FLOORS }, (_, f) => ({ id: `floor-${f}`, name: f === 0 ? 'Ground floor' : `Level ${f}`, file: null }));
  for (let f = 0; f < FLOORS; f += 1) {
    for (let x = 0; x < SIDE; x += 1) {
      for (let y = 0; y < SIDE; y += 1) {
        nodes.push({ id: id(f, x, y), layer: `floor-${f}`, x: x * SPACING, y: y * SPACING });
        for (const [dx, dy] of [[1, 0], [0, 1]] as const) {
          if (x + dx >= SIDE || y + dy >= SIDE || next() < 0.1) continue;
          const from = id(f, x, y);
          const to = id(f, x + dx, y + dy);
          edges.push({ id: `${from}-${to}`, from, to, stepFree: next() >= 0.05, oneWay: next() < 0.02 });
        }
      }
    }
  }
  const spots = [8, 29, 49];
  for (const [i, x] of spots.entries()) {
    for (const [j, y] of spots.entries()) {
      connectors.push({ id: `lift-${i}-${j}`, kind: 'lift', name: '', nodes: [0, 1, 2].map((f) => id(f, x, y)) });
      connectors.push({ id: `stairs-${i}-${j}`, kind: 'stairs', name: '', nodes: [0, 1, 2].map((f) => id(f, x + 3, y + 3)) });
    }
  }
  for (const [i, [x, y]] of [[18, 18], [40, 18], [18, 40], [40, 40]].entries()) {
    connectors.push({ id: `escalator-${i}-low`, kind: 'escalator', name: '', nodes: [id(0, x!, y!), id(1, x!, y!)] });
    connectors.push({ id: `escalator-${i}-high`, kind: 'escalator', name: '', nodes: [id(1, x! + 1, y!), id(2, x! + 1, y!)] });
  }
  const base = emptyMapDocument();
  return { ...base, settings: { ...base.settings, size: { width: SIDE * SPACING, height: SIDE * SPACING }, defaultLayer: 'floor-0' }, layers, paths: { nodes, edges, connectors } };
}

function summary(values: number[]): { median: number; p99: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { median, p99: sorted[Math.min(sorted.length - 1, Math.ceil(0.99 * sorted.length) - 1)]! };
}

export interface RouteBenchFigures {
  nodes: number;
  edges: number;
  build: { median: number };
  shortest: { median: number; p99: number };
  stepFree: { median: number; p99: number };
  routes: number;
  failed: number;
}

/** Builds the graph `builds` times, then routes `pairs` random pairs (shortest and step-free) on the cached graph; ms. */
export function runRouteBench(now: () => number, pairs = 1000, builds = 7): RouteBenchFigures {
  const document = benchNetworkDocument();
  const buildTimes: number[] = [];
  for (let i = 0; i < builds; i += 1) {
    const start = now();
    buildRouteGraph(document);
    buildTimes.push(now() - start);
  }
  const next = random(4242);
  const pick = () => document.paths.nodes[Math.floor(next() * document.paths.nodes.length)]!.id;
  // The first route builds the cached graph; then some to warm the JIT, not counted.
  for (let i = 0; i < 100; i += 1) findRoute(document, { node: pick() }, { node: pick() }, { stepFree: i % 2 === 1 });
  const shortest: number[] = [];
  const stepFree: number[] = [];
  let failed = 0;
  for (let i = 0; i < pairs; i += 1) {
    const from = { node: pick() };
    const to = { node: pick() };
    for (const [options, times] of [[{ stepFree: false }, shortest], [{ stepFree: true }, stepFree]] as const) {
      const start = now();
      const result = findRoute(document, from, to, options);
      times.push(now() - start);
      if (!result.ok) failed += 1;
    }
  }
  return {
    nodes: document.paths.nodes.length,
    edges: document.paths.edges.length,
    build: { median: summary(buildTimes).median },
    shortest: summary(shortest),
    stepFree: summary(stepFree),
    routes: pairs * 2,
    failed,
  };
}
