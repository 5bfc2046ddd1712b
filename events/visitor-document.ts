/**
 * What a visitor may see of a map: the stored document with everything "Hidden from visitors"
 * taken out. Every public surface is built from this one function's answer (the public JSON,
 * the `/m/{id}` page and its data block, so embeds and the pictures a visitor saves, and the
 * insights beacon's check of which locations may be counted: server/public-maps/
 * public-map-cache.ts), so no surface can forget a rule of its own.
 *
 * Taken out:
 * - hidden locations, whole (title, text, position, region, groups, entrances);
 * - groups that only hidden locations belong to: their names and colours would show in the
 *   viewer's filters and legend, and say what the hidden places are ("Staff only"). Groups
 *   nobody belongs to stay as the owner made them (they tell nothing hidden).
 *
 * Nothing else in a document points at a location (paths are points and links on the floors;
 * locations name their entrances, not the other way round), and the rest is what the viewer
 * draws. The answer is a valid map document (`MapDocument` parses it: the explorer opens it in
 * the editor), the same object when nothing is hidden (a 100,000-location map is not copied).
 *
 * Pure, no zod: it runs on the read model's rows as stored, once per published revision.
 */
import type { MapDocument } from './map-document.js';

/**
 * Bumped whenever what visitors are given changes: public answers' ETags carry it, so a copy a
 * browser or a CDN kept under the older rules is never revalidated as still good (a 304 would
 * keep it, hidden locations and all).
 */
export const VISITOR_DOCUMENT_VERSION = 1;

interface LocationLike {
  id?: unknown;
  hidden?: unknown;
  groups?: unknown;
}

/** A location marked "Hidden from visitors". */
function isHidden(location: unknown): boolean {
  return typeof location === 'object' && location !== null && (location as LocationLike).hidden === true;
}

function groupsOf(location: unknown): readonly unknown[] {
  const groups = typeof location === 'object' && location !== null ? (location as LocationLike).groups : undefined;
  return Array.isArray(groups) ? groups : [];
}

/** The document as visitors may see it (see the file's comment). */
export function visitorDocument(document: MapDocument): MapDocument {
  const locations: unknown = (document as { locations?: unknown } | null)?.locations;
  if (!Array.isArray(locations) || !locations.some(isHidden)) return document;
  const shown: unknown[] = [];
  const hiddenGroups = new Set<unknown>();
  const shownGroups = new Set<unknown>();
  for (const location of locations) {
    if (isHidden(location)) {
      for (const group of groupsOf(location)) hiddenGroups.add(group);
    } else {
      shown.push(location);
      for (const group of groupsOf(location)) shownGroups.add(group);
    }
  }
  const groups: unknown = (document as { groups?: unknown }).groups;
  const keptGroups = Array.isArray(groups)
    ? groups.filter((group) => {
        const id = typeof group === 'object' && group !== null ? (group as { id?: unknown }).id : undefined;
        return !hiddenGroups.has(id) || shownGroups.has(id);
      })
    : groups;
  return { ...document, locations: shown as MapDocument['locations'], groups: keptGroups as MapDocument['groups'] };
}

/**
 * The ids of the hidden locations (none, for most maps): the insights beacon counts no open of
 * and no directions to them, while answering as it answers for any id, so a beacon can neither
 * fill a hidden location's numbers nor tell whether an id is one.
 */
export function hiddenLocationIds(document: MapDocument): Set<string> {
  const ids = new Set<string>();
  const locations: unknown = (document as { locations?: unknown } | null)?.locations;
  if (!Array.isArray(locations)) return ids;
  for (const location of locations) {
    const id = (location as LocationLike | null)?.id;
    if (isHidden(location) && typeof id === 'string') ids.add(id);
  }
  return ids;
}
