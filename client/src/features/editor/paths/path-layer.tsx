/**
 * The path network of the floor shown, drawn over the editor's map: links as lines (dashed
 * where they have steps, with an arrow where one-way), points as small handles, connectors'
 * stops as badges, the selection, the path being drawn with its rubber band, and a tested
 * route. An SVG in the floor's coordinates: one transform on a group follows the map's view each
 * frame (outside React: the canvas's camera, or MapLibre's on a street basemap floor, whose
 * units may scale a little differently across and down), and sizes in screen pixels divide by
 * the zoom through `--k`.
 *
 * A drawing, not the way to reach things by keyboard: the Paths panel lists the same points,
 * links and connectors as buttons. Hence aria-hidden.
 */
import { useLayoutEffect, useMemo, useRef } from 'react';
import type { ScreenProjection } from '../../../components/map/map-view';
import { affineOf } from '../../../components/map/screen-affine';
import type { Point } from '../../../../../events/map-document';
import type { ConnectorKind, PathNetwork, PathNode } from '../../../../../events/path-network';
import { usePathDrawing, type PathToolActor } from './use-path-tool';
import './paths.css';

export interface PathLayerProps {
  /** Where the floor's points are on screen (the view shown's). */
  screen: ScreenProjection;
  network: PathNetwork;
  layerId: string;
  /** The path tool: the selection, the path being drawn (its last point starts the rubber band), a drag. */
  tool: PathToolActor;
  /** A tested route's line on this floor. */
  route?: readonly Point[][] | undefined;
  /** Points flagged by "check network" (dead ends) on this floor. */
  flagged?: ReadonlySet<string> | undefined;
  /** Points whose id to mark as a location's entrance. */
  entrances?: ReadonlySet<string> | undefined;
}

export const CONNECTOR_LETTER: Readonly<Record<ConnectorKind, string>> = { lift: 'L', stairs: 'S', escalator: 'E', ramp: 'R' };

export function PathLayer({ screen, network, layerId, tool, route = [], flagged, entrances }: PathLayerProps) {
  const { selection, trail, cursor, drag } = usePathDrawing(tool);
  const groupRef = useRef<SVGGElement>(null);
  useLayoutEffect(() => {
    const place = () => {
      const group = groupRef.current;
      if (!group) return;
      const { kx, ky, x, y } = affineOf(screen);
      group.setAttribute('transform', `matrix(${kx} 0 0 ${ky} ${x} ${y})`);
      group.style.setProperty('--k', String(kx));
    };
    place();
    return screen.onFrame(place);
  }, [screen]);

  const { nodes, byId, edges, stops } = useMemo(() => {
    const all = new Map(network.nodes.map((node) => [node.id, node]));
    const onFloor = network.nodes.filter((node) => node.layer === layerId);
    const floorEdges = network.edges.filter((edge) => all.get(edge.from)?.layer === layerId);
    const stopKind = new Map<string, ConnectorKind>();
    for (const connector of network.connectors) for (const id of connector.nodes) stopKind.set(id, connector.kind);
    return { nodes: onFloor, byId: all, edges: floorEdges, stops: stopKind };
  }, [network, layerId]);

  const at = (node: PathNode): Point => (drag && drag.node === node.id ? drag.to : node);
  const end = trail.length > 0 ? byId.get(trail.at(-1)!) : undefined;
  const selected = (kind: 'node' | 'edge', id: string) => selection?.kind === kind && selection.id === id;

  return (
    <svg className="pt-layer" aria-hidden="true" data-mf-ui="" data-testid="path-layer">
      <g ref={groupRef}>
        {edges.map((edge) => {
          const from = byId.get(edge.from);
          const to = byId.get(edge.to);
          if (!from || !to) return null;
          const a = at(from);
          const b = at(to);
          const angle = (Math.atan2(b.y - a.y, b.x - a.x) * 180) / Math.PI;
          return (
            <g key={edge.id} className="pt-edge" data-selected={selected('edge', edge.id) ? 'true' : undefined} data-steps={edge.stepFree ? undefined : 'true'} data-edge={edge.id}>
              <line x1={a.x} y1={a.y} x2={b.x} y2={b.y} />
              {edge.oneWay ? (
                <g transform={`translate(${(a.x + b.x) / 2} ${(a.y + b.y) / 2}) rotate(${angle})`}>
                  <path className="pt-arrow" d="M-5,-5 L4,0 L-5,5 Z" />
                </g>
              ) : null}
            </g>
          );
        })}
        {route.map((points, index) => (
          <polyline key={`route-${index}`} className="pt-route" points={points.map((p) => `${p.x},${p.y}`).join(' ')} />
        ))}
        {end && cursor ? <line className="pt-band" x1={end.x} y1={end.y} x2={cursor.x} y2={cursor.y} /> : null}
        {nodes.map((node) => {
          const point = at(node);
          const kind = stops.get(node.id);
          const state = {
            'data-selected': selected('node', node.id) ? 'true' : undefined,
            'data-end': end?.id === node.id ? 'true' : undefined,
            'data-flagged': flagged?.has(node.id) ? 'true' : undefined,
            'data-entrance': entrances?.has(node.id) ? 'true' : undefined,
          };
          return kind ? (
            <g key={node.id} className="pt-stop" transform={`translate(${point.x} ${point.y})`} data-node={node.id} {...state}>
              <g className="pt-scaled">
                <rect x="-9" y="-9" width="18" height="18" rx="4" />
                <text x="0" y="4.5" textAnchor="middle">
                  {CONNECTOR_LETTER[kind]}
                </text>
              </g>
            </g>
          ) : (
            <circle key={node.id} className="pt-node" cx={point.x} cy={point.y} data-node={node.id} {...state} />
          );
        })}
      </g>
    </svg>
  );
}
