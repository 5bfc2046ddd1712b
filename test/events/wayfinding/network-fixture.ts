/**
 * Documents with hand-made path networks for the routing tests: floors, locations at points,
 * nodes given as [id, layer, x, y], edges as [from, to] (two-way, with steps allowed unless
 * flagged) and connectors. Parsed by the document schema, so they are documents the app accepts.
 */
import { emptyMapDocument, MapDocument } from '../../../events/map-document.js';
import type { ConnectorKind } from '../../../events/path-network.js';

export interface FixtureLocation {
  id: string;
  layer: string;
  at?: [number, number];
  title?: string;
  groups?: string[];
  entrances?: string[];
  hidden?: boolean;
}

export interface FixtureEdge {
  from: string;
  to: string;
  stepFree?: boolean;
  oneWay?: boolean;
}

export interface Fixture {
  floors: Array<[id: string, name: string]>;
  nodes: Array<[id: string, layer: string, x: number, y: number]>;
  edges: Array<[string, string] | FixtureEdge>;
  connectors?: Array<{ id: string; kind: ConnectorKind; name?: string; nodes: string[] }>;
  locations?: FixtureLocation[];
  groups?: string[];
}

export function networkDocument(fixture: Fixture): MapDocument {
  const base = emptyMapDocument();
  return MapDocument.parse({
    ...base,
    settings: { ...base.settings, defaultLayer: fixture.floors[0]![0] },
    layers: fixture.floors.map(([id, name]) => ({ id, name, file: null })),
    groups: (fixture.groups ?? []).map((id) => ({ id, name: id, color: '#123456' })),
    locations: (fixture.locations ?? []).map((l) => ({
      id: l.id,
      title: l.title ?? l.id,
      layer: l.layer,
      position: l.at ? { x: l.at[0], y: l.at[1] } : null,
      groups: l.groups ?? [],
      entrances: l.entrances ?? [],
      hidden: l.hidden ?? false,
    })),
    paths: {
      nodes: fixture.nodes.map(([id, layer, x, y]) => ({ id, layer, x, y })),
      edges: fixture.edges.map((edge, index) => {
        const e = Array.isArray(edge) ? { from: edge[0], to: edge[1] } : edge;
        return { id: `e${index}`, from: e.from, to: e.to, stepFree: e.stepFree ?? true, oneWay: e.oneWay ?? false };
      }),
      connectors: (fixture.connectors ?? []).map((c) => ({ ...c, name: c.name ?? '' })),
    },
  });
}

/**
 * Two floors, a start on the ground and a shop upstairs: stairs next to the start, a lift far
 * along the ground corridor. The shortest route takes the stairs; the step-free one the lift.
 *
 *   ground:  s0 (0,0) — gS (50,0) — … — gL (400,0)         stairs gS↔uS, lift gL↔uL
 *   level 1: t (50,50) — uS (50,0) — … — uL (400,0)
 */
export function stairsOrLift(): MapDocument {
  return networkDocument({
    floors: [
      ['ground', 'Ground floor'],
      ['first', 'Level 1'],
    ],
    nodes: [
      ['s0', 'ground', 0, 0],
      ['gS', 'ground', 50, 0],
      ['gL', 'ground', 400, 0],
      ['uS', 'first', 50, 0],
      ['uL', 'first', 400, 0],
      ['t', 'first', 50, 50],
    ],
    edges: [
      ['s0', 'gS'],
      ['gS', 'gL'],
      ['uS', 'uL'],
      ['uS', 't'],
    ],
    connectors: [
      { id: 'stairs', kind: 'stairs', nodes: ['gS', 'uS'] },
      { id: 'lift', kind: 'lift', name: 'Lift A', nodes: ['gL', 'uL'] },
    ],
    locations: [
      { id: 'cafe', title: 'Café Nero', layer: 'ground', at: [0, -20], entrances: ['s0'] },
      { id: 'books', title: 'Page Turner', layer: 'first', at: [80, 50] },
    ],
  });
}
