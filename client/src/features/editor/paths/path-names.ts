/**
 * How the editor names path records for people (lists, buttons, screen readers): points are
 * numbered per floor in the order they were drawn, links by the points they join, connectors
 * by their name or kind. Ids are never shown.
 */
import type { MapDocument } from '../../../../../events/map-document';
import type { Connector, ConnectorKind, PathEdge, PathNetwork, PathNode } from '../../../../../events/path-network';

export const CONNECTOR_KIND_LABEL: Readonly<Record<ConnectorKind, string>> = { lift: 'Lift', stairs: 'Stairs', escalator: 'Escalator', ramp: 'Ramp' };

/** Number of each point on its floor (1-based). */
export function pointNumbers(network: PathNetwork): Map<string, number> {
  const next = new Map<string, number>();
  const numbers = new Map<string, number>();
  for (const node of network.nodes) {
    const n = (next.get(node.layer) ?? 0) + 1;
    next.set(node.layer, n);
    numbers.set(node.id, n);
  }
  return numbers;
}

const round = (value: number) => Math.round(value);

export function pointName(node: PathNode, numbers: ReadonlyMap<string, number>): string {
  return `Point ${numbers.get(node.id) ?? '?'} (${round(node.x)}, ${round(node.y)})`;
}

export function linkName(edge: PathEdge, numbers: ReadonlyMap<string, number>): string {
  const flags = [edge.stepFree ? '' : 'with steps', edge.oneWay ? 'one-way' : ''].filter(Boolean);
  return `Link from point ${numbers.get(edge.from) ?? '?'} to point ${numbers.get(edge.to) ?? '?'}${flags.length > 0 ? `, ${flags.join(', ')}` : ''}`;
}

export function connectorName(connector: Connector, document: MapDocument): string {
  const floors = connector.nodes
    .map((id) => document.paths.nodes.find((node) => node.id === id)?.layer)
    .map((layer) => document.layers.find((candidate) => candidate.id === layer)?.name)
    .filter((name): name is string => Boolean(name));
  const title = connector.name || CONNECTOR_KIND_LABEL[connector.kind];
  const kind = connector.name ? ` (${CONNECTOR_KIND_LABEL[connector.kind].toLowerCase()})` : '';
  return `${title}${kind}: ${floors.join(', ')}`;
}
