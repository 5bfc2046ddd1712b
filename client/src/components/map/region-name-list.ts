/**
 * Which regions show a name, and which: every shown region location of the floor, by its label
 * (else its title), unless its marker is set to "No marker". The map (map-renderer.tsx) and
 * its pictures (export/export-picture.ts) read the same list.
 */
import type { MapDocument } from './types';

export interface RegionNameEntry {
  /** The location's id. */
  id: string;
  /** The drawing's element id it stands for. */
  element: string;
  name: string;
}

export function regionNamesOf(document: MapDocument, layerId: string, visible: ReadonlySet<string> | null = null): RegionNameEntry[] {
  const names: RegionNameEntry[] = [];
  for (const location of document.locations) {
    if (location.layer !== layerId || !location.element || location.hidden || location.marker === 'hidden') continue;
    if (visible && !visible.has(location.id)) continue;
    const name = (location.label || location.title).trim();
    if (name) names.push({ id: location.id, element: location.element, name });
  }
  return names;
}
