/**
 * The regions a floor's drawing offers as locations: the server's preview of them (the floor's
 * SVG sent to the import), their titles (the drawing's, else the text inside the shape), the
 * filter by words or pattern, and the edits that make the ticked ones locations.
 */
import { ElementId, Location, type MapDocument } from '../../../../../events/map-document';
import type { MapEdit } from '../../../../../events/map-edits';
import type { ImportPreview } from '../../../../../events/map-import';
import { ApiError } from '../../../lib/api';
import { sendImport } from '../../../lib/import/import-api';
import { newElementId } from '../ids';

export interface RegionsFloor {
  id: string;
  name: string;
  /** Where its SVG is served (`/files/{id}`). */
  url: string;
}

export type Region = ImportPreview['regions'][number];

/** A region as the dialog offers it: its title, and where the title came from. */
export interface OfferedRegion extends Region {
  /** The title read from the text inside the shape on the map, when the drawing gave none. */
  fromText: boolean;
  /** Named: by a person (its id, a title, a label) or by the text inside it. */
  named: boolean;
}

/** The floor's drawing as a file to send, and the server's preview of its regions on that floor. */
export async function previewRegions(mapId: string, floor: RegionsFloor, signal?: AbortSignal): Promise<{ file: File; preview: ImportPreview }> {
  let response: Response;
  try {
    response = await fetch(floor.url, { credentials: 'same-origin', ...(signal ? { signal } : {}) });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError('internal', 'The drawing of this floor could not be loaded. Check your connection and try again.', 0);
  }
  if (!response.ok) throw new ApiError('not-found', `The drawing of this floor could not be loaded (${response.status}).`, response.status);
  const file = new File([await response.blob()], `${floor.name || 'floor'}.svg`, { type: 'image/svg+xml' });
  const preview = await sendImport({ mapId, files: [file], layer: floor.id }, signal ? { signal } : {});
  return { file, preview };
}

/**
 * The regions with their titles: the server's (from the drawing's own titles and labels, or a
 * reading of the id), or, where that is only the id as it stands, the text inside the shape.
 */
export function offeredRegions(regions: readonly Region[], texts: ReadonlyMap<string, string> | null): OfferedRegion[] {
  return regions.map((region) => {
    // The server read the text inside the shape from the file already.
    if (region.fromText) return { ...region, fromText: true, named: true };
    const text = region.title === region.id ? texts?.get(region.id) : undefined;
    return text ? { ...region, title: text, fromText: true, named: true } : { ...region, fromText: false, named: region.selected };
  });
}

/**
 * Whether a region's title or id matches what the filter says: words anywhere, or a pattern with
 * `*` (any characters) and `?` (one), matched from the start (`H8*`, `shop-?`).
 */
export function matchesPattern(region: Pick<Region, 'id' | 'title'>, pattern: string): boolean {
  const words = pattern.trim().toLowerCase();
  if (!words) return true;
  if (!/[*?]/.test(words)) return region.title.toLowerCase().includes(words) || region.id.toLowerCase().includes(words);
  const source = words.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  const expression = new RegExp(`^${source}$`, 'i');
  return expression.test(region.title) || expression.test(region.id);
}

/** The edits that make a location of each ticked region of the floor, in the list's order. */
export function regionLocationEdits(document: MapDocument, floorId: string, regions: readonly OfferedRegion[], ticked: ReadonlySet<string>, newId: () => string = () => newElementId('loc')): MapEdit[] {
  const taken = new Set(document.locations.map((location) => location.id));
  const linked = new Set(document.locations.filter((location) => location.layer === floorId && location.element).map((location) => location.element!));
  const edits: MapEdit[] = [];
  for (const region of regions) {
    if (!ticked.has(region.id) || region.linked || linked.has(region.id)) continue;
    // The region's id is the location's when it can be one and is free.
    const id = ElementId.safeParse(region.id).success && !taken.has(region.id) ? region.id : newId();
    taken.add(id);
    linked.add(region.id);
    edits.push({ type: 'LocationAdded', location: Location.parse({ id, title: region.title.slice(0, 200) || region.id, layer: floorId, position: null, element: region.id }) });
  }
  return edits;
}
