/**
 * A location of a map document with every field at its default, for tests that build maps by
 * hand: `location({ id: 'cafe', title: 'Café Noir', groups: ['food'] })` on the ground floor.
 */
import { LOCATION_DEFAULTS } from '../../../events/compact-locations';
import type { MapDocument } from '../../../events/map-document';

export type LocationInput = Partial<MapDocument['locations'][number]> & { id: string; title: string };

export function location(input: LocationInput): MapDocument['locations'][number] {
  return {
    ...LOCATION_DEFAULTS,
    groups: [],
    entrances: [],
    layer: 'ground',
    position: { x: 100, y: 100 },
    ...input,
  };
}
