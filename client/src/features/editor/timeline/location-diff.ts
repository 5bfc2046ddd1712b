/**
 * How the map at a revision differs from the current one, location by location: added since
 * (only in the current map), removed since (only at the revision), moved (another position or
 * floor), changed (any other field). Pure, for the timeline.
 */
import { canonicalJson } from '../../../../../events/canonical-json';
import type { Location, MapDocument } from '../../../../../events/map-document';

export type LocationChange = 'added' | 'removed' | 'moved' | 'changed';

export interface LocationDifference {
  id: string;
  /** The title as the revision has it (the current one for an added location). */
  title: string;
  change: LocationChange;
  /** The floor it is on at the revision (the current one for an added location). */
  layer: string;
}

const samePosition = (a: Location, b: Location) =>
  a.layer === b.layer && a.element === b.element && (a.position === null ? b.position === null : b.position !== null && a.position.x === b.position.x && a.position.y === b.position.y);

/** Every field but the place, compared by value (key order does not matter). */
function rest(location: Location): string {
  const { position: _position, layer: _layer, element: _element, ...fields } = location;
  return canonicalJson(fields);
}

/** The differences between `then` (the revision) and `now` (the current map), in `then`'s order, added ones last. */
export function diffLocations(then: MapDocument, now: MapDocument): LocationDifference[] {
  const current = new Map(now.locations.map((location) => [location.id, location]));
  const differences: LocationDifference[] = [];
  for (const old of then.locations) {
    const later = current.get(old.id);
    if (!later) differences.push({ id: old.id, title: old.title, change: 'removed', layer: old.layer });
    else if (!samePosition(old, later)) differences.push({ id: old.id, title: old.title, change: 'moved', layer: old.layer });
    else if (rest(old) !== rest(later)) differences.push({ id: old.id, title: old.title, change: 'changed', layer: old.layer });
  }
  const before = new Set(then.locations.map((location) => location.id));
  for (const later of now.locations) {
    if (!before.has(later.id)) differences.push({ id: later.id, title: later.title, change: 'added', layer: later.layer });
  }
  return differences;
}

const WORDS: Record<LocationChange, string> = {
  added: 'added since',
  removed: 'removed since',
  moved: 'moved since',
  changed: 'changed since',
};

export function changeInWords(change: LocationChange): string {
  return WORDS[change];
}

/** "3 locations differ: Cafe (moved since), Bakery (added since), …" */
export function differenceSummary(differences: readonly LocationDifference[], shown = 3): string {
  if (differences.length === 0) return 'The locations are the same as in the current map.';
  const head = differences.slice(0, shown).map((difference) => `${difference.title} (${WORDS[difference.change]})`);
  const more = differences.length > shown ? `, and ${differences.length - shown} more` : '';
  return `${differences.length} ${differences.length === 1 ? 'location differs' : 'locations differ'} from the current map: ${head.join(', ')}${more}.`;
}
