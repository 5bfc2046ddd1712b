/**
 * A location of a map document with every field at its default, for tests that build maps by
 * hand: `location({ id: 'cafe', title: 'Café Noir', groups: ['food'] })` on the ground floor.
 */
import type { MapDocument } from '../../../events/map-document';

export type LocationInput = Partial<MapDocument['locations'][number]> & { id: string; title: string };

export function location(input: LocationInput): MapDocument['locations'][number] {
  return {
    about: '',
    description: '',
    image: null,
    thumbnail: null,
    link: null,
    phone: '',
    hours: '',
    layer: 'ground',
    position: { x: 100, y: 100 },
    element: null,
    zoom: null,
    marker: 'pin',
    color: null,
    label: '',
    groups: [],
    hidden: false,
    entrances: [],
    ...input,
  };
}
