/**
 * A location's entrances in its form: the path points visitors enter it by. None chosen: the
 * point nearest the location (said which). "Choose on the map" arms a click on a path point.
 */
import type { Location, MapDocument } from '../../../../../events/map-document';
import type { PathNode } from '../../../../../events/path-network';
import { distance } from '../tools/path-geometry';
import { pointName, pointNumbers } from './path-names';

export interface LocationEntrancesProps {
  document: MapDocument;
  location: Location;
  /** Where the location sits (its position or its region's middle), for the nearest point. */
  anchor: { x: number; y: number } | null;
  onChange: (entrances: string[]) => void;
  onPick?: () => void;
}

export function nearestNode(nodes: readonly PathNode[], layer: string, at: { x: number; y: number }): PathNode | null {
  let best: PathNode | null = null;
  for (const node of nodes) if (node.layer === layer && (!best || distance(node, at) < distance(best, at))) best = node;
  return best;
}

export function LocationEntrances({ document, location, anchor, onChange, onPick }: LocationEntrancesProps) {
  const numbers = pointNumbers(document.paths);
  const byId = new Map(document.paths.nodes.map((node) => [node.id, node]));
  const onFloor = document.paths.nodes.some((node) => node.layer === location.layer);
  const nearest = anchor ? nearestNode(document.paths.nodes, location.layer, anchor) : null;
  const floorName = (layer: string) => document.layers.find((candidate) => candidate.id === layer)?.name ?? layer;
  return (
    <div className="pt-entrances">
      <span className="field__label">Entrances</span>
      {location.entrances.length === 0 ? (
        <p className="pt-entrances__default">
          Nearest path point{nearest ? `: ${pointName(nearest, numbers)}` : onFloor ? '' : ' (no paths on this floor yet: draw them in the Paths panel)'}
        </p>
      ) : (
        <ul className="pt-entrances__list" aria-label="Entrances">
          {location.entrances.map((id) => {
            const node = byId.get(id);
            const name = node ? `${pointName(node, numbers)}${node.layer !== location.layer ? ` on ${floorName(node.layer)}` : ''}` : 'A point no longer there';
            return (
              <li key={id}>
                <span>{name}</span>
                <button type="button" className="ep-loc-button ep-loc-button--quiet" aria-label={`Remove entrance ${name}`} onClick={() => onChange(location.entrances.filter((entrance) => entrance !== id))}>
                  Remove
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {onPick && document.paths.nodes.length > 0 ? (
        <button type="button" className="ep-loc-button" onClick={onPick} disabled={location.entrances.length >= 20}>
          Choose a path point on the map
        </button>
      ) : null}
    </div>
  );
}
