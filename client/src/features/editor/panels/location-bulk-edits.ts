/**
 * The edits the locations list's bulk actions give for the selected locations, made of the
 * edit kinds that exist (events/map-edits.ts): a bulk delete is `LocationsRemoved` (one edit,
 * one event, one entry in the history: "removed 56 locations"); putting locations in a group,
 * taking them out, or moving them to a floor is one `LocationUpdated` each, given in one call so
 * the editor makes them one undo step. Locations the action would not change get no edit.
 */
import type { MapDocument } from '../../../../../events/map-document';
import { locationFields } from '../../../../../events/map-document';
import { IMPORT_CHUNK, type MapEdit } from '../../../../../events/map-edits';

type Location = MapDocument['locations'][number];

/** The selected locations, in the order given (the list's); ids of locations no longer there are left out. */
export function selectedLocations(locations: readonly Location[], ids: ReadonlySet<string>): Location[] {
  return ids.size === 0 ? [] : locations.filter((location) => ids.has(location.id));
}

/** One `LocationsRemoved` per {@link IMPORT_CHUNK} ids (the most one edit names): one save, one undo step. */
export function removalEdits(locations: readonly Location[]): MapEdit[] {
  const edits: MapEdit[] = [];
  for (let start = 0; start < locations.length; start += IMPORT_CHUNK) {
    edits.push({ type: 'LocationsRemoved', ids: locations.slice(start, start + IMPORT_CHUNK).map((location) => location.id) });
  }
  return edits;
}

/** How many of the locations are in the group. */
export function countInGroup(locations: readonly Location[], groupId: string): number {
  let count = 0;
  for (const location of locations) if (location.groups.includes(groupId)) count += 1;
  return count;
}

export interface GroupChange {
  edits: MapEdit[];
  /** Locations left out of the group because they are in as many groups as a location may be. */
  full: number;
}

/** Puts every location in the group (`add`) or takes every one out of it. */
export function groupEdits(locations: readonly Location[], groupId: string, add: boolean): GroupChange {
  const edits: MapEdit[] = [];
  let full = 0;
  for (const location of locations) {
    const member = location.groups.includes(groupId);
    if (member === add) continue;
    const groups = add ? [...location.groups, groupId] : location.groups.filter((id) => id !== groupId);
    if (!locationFields.groups.safeParse(groups).success) {
      full += 1;
      continue;
    }
    edits.push({ type: 'LocationUpdated', id: location.id, changes: { groups } });
  }
  return { edits, full };
}

/**
 * Moves every location to the floor, at the same spot (as a location's own Floor field does);
 * the ones there already stay as they are.
 */
export function floorEdits(locations: readonly Location[], layerId: string): MapEdit[] {
  return locations.filter((location) => location.layer !== layerId).map((location): MapEdit => ({ type: 'LocationUpdated', id: location.id, changes: { layer: layerId } }));
}

/** "Café Noir", "Café Noir and Müller Bäckerei", "Café Noir, Müller Bäckerei and 54 more": the first few, for a confirmation. */
export function namesInWords(locations: readonly Location[], shown = 3): string {
  const quote = (location: Location) => `“${location.title}”`;
  if (locations.length <= shown) {
    const names = locations.map(quote);
    return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
  }
  return `${locations.slice(0, shown).map(quote).join(', ')} and ${(locations.length - shown).toLocaleString('en')} more`;
}
