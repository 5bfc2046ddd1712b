/**
 * Undo for fine-grained edits: the edits that take a document back from after `edit` to before
 * it. Computed against the document the edit was applied to, at the moment it was made; undo
 * later replays them against whatever the document is then (a collaborator may have changed
 * it), skipping what no longer applies, so undo only ever takes back one's own changes.
 */
import type { Location, MapDocument } from './map-document.js';
import { applyEdit, checkEdit, IMPORT_CHUNK, type MapEdit } from './map-edits.js';
import { applyPathsEdit, isEmptyPathsEdit, pathsEditBetween, withoutLayer } from './path-network.js';

/** Entrances the removal of path points took off locations, given back. */
function entrancesBack(before: MapDocument, removedNodes: ReadonlySet<string>): MapEdit[] {
  if (removedNodes.size === 0) return [];
  return before.locations
    .filter((l) => l.entrances.some((id) => removedNodes.has(id)))
    .map((l): MapEdit => ({ type: 'LocationUpdated', id: l.id, changes: { entrances: l.entrances } }));
}

/** The previous values of the fields a patch sets. */
function previousValues<T extends object>(current: T, patch: { [K in keyof T]?: T[K] | undefined }): Partial<T> {
  const previous: Partial<T> = {};
  for (const key of Object.keys(patch) as (keyof T)[]) {
    if (patch[key] !== undefined) previous[key] = current[key];
  }
  return previous;
}

/** The edits that undo `edit`, made against `before` (the document it was applied to). */
export function invertEdit(before: MapDocument, edit: MapEdit): MapEdit[] {
  switch (edit.type) {
    case 'LocationAdded':
      return [{ type: 'LocationRemoved', id: edit.location.id }];
    case 'LocationUpdated': {
      const location = before.locations.find((l) => l.id === edit.id);
      return location ? [{ type: 'LocationUpdated', id: edit.id, changes: previousValues<Omit<Location, 'id'>>(location, edit.changes) }] : [];
    }
    case 'LocationMoved': {
      const location = before.locations.find((l) => l.id === edit.id);
      if (!location) return [];
      // A location that had no position goes back to having none.
      if (!location.position) return [{ type: 'LocationUpdated', id: edit.id, changes: { position: null, layer: location.layer } }];
      return [{ type: 'LocationMoved', id: edit.id, position: location.position, layer: location.layer }];
    }
    case 'LocationRemoved': {
      const location = before.locations.find((l) => l.id === edit.id);
      return location ? [{ type: 'LocationAdded', location }] : [];
    }
    case 'LayerAdded':
      return [{ type: 'LayerRemoved', id: edit.layer.id, removedLocations: [] }];
    case 'LayerRenamed': {
      const layer = before.layers.find((l) => l.id === edit.id);
      return layer ? [{ type: 'LayerRenamed', id: edit.id, name: layer.name }] : [];
    }
    case 'LayersReordered':
      return [{ type: 'LayersReordered', order: before.layers.map((l) => l.id) }];
    case 'LayerFileReplaced': {
      const layer = before.layers.find((l) => l.id === edit.id);
      return layer ? [{ type: 'LayerFileReplaced', id: edit.id, file: layer.file }] : [];
    }
    case 'LayerCalibrated': {
      const layer = before.layers.find((l) => l.id === edit.id);
      return layer ? [{ type: 'LayerCalibrated', id: edit.id, geo: layer.geo ?? null }] : [];
    }
    case 'ImportApplied': {
      // Changed locations get their old values back, new ones go (in chunks), then the new groups and floors.
      const byId = new Map(before.locations.map((l) => [l.id, l]));
      const restored = edit.updates.flatMap((update): MapEdit[] => {
        const location = byId.get(update.id);
        return location ? [{ type: 'LocationUpdated', id: update.id, changes: previousValues<Omit<Location, 'id'>>(location, update.changes) }] : [];
      });
      const added = edit.locations.map((l) => l.id);
      const removals: MapEdit[] = [];
      for (let start = 0; start < added.length; start += IMPORT_CHUNK) removals.push({ type: 'LocationsRemoved', ids: added.slice(start, start + IMPORT_CHUNK) });
      // Locations a sync removed come back, as they were.
      const gone = new Set(edit.removed ?? []);
      const back = gone.size === 0 ? [] : before.locations.filter((l) => gone.has(l.id)).map((location): MapEdit => ({ type: 'LocationAdded', location }));
      return [
        ...back,
        ...restored,
        ...removals,
        ...edit.groups.map((g): MapEdit => ({ type: 'GroupRemoved', id: g.id })),
        ...edit.layers.map((l): MapEdit => ({ type: 'LayerRemoved', id: l.id, removedLocations: [] })),
        ...(edit.layers.length > 0 && before.settings.defaultLayer === null ? [{ type: 'SettingsChanged', settings: before.settings } as MapEdit] : []),
      ];
    }
    case 'LocationsRemoved': {
      const removed = new Set(edit.ids);
      return before.locations.filter((l) => removed.has(l.id)).map((location): MapEdit => ({ type: 'LocationAdded', location }));
    }
    case 'LayerRemoved': {
      const layer = before.layers.find((l) => l.id === edit.id);
      if (!layer) return [];
      // Back come the layer, in its place, the default-layer setting, the locations on it and its paths.
      const paths = withoutLayer(before.paths, edit.id);
      const pathsBack = pathsEditBetween(paths.network, before.paths);
      return [
        { type: 'LayerAdded', layer },
        { type: 'LayersReordered', order: before.layers.map((l) => l.id) },
        { type: 'SettingsChanged', settings: before.settings },
        ...before.locations.filter((l) => l.layer === edit.id).map((location): MapEdit => ({ type: 'LocationAdded', location })),
        ...(isEmptyPathsEdit(pathsBack) ? [] : [pathsBack]),
        ...entrancesBack(before, paths.removedNodes).filter((u) => before.locations.find((l) => l.id === (u as { id: string }).id)?.layer !== edit.id),
      ];
    }
    case 'PathsEdited': {
      const after = applyPathsEdit(before.paths, edit);
      return [pathsEditBetween(after.network, before.paths), ...entrancesBack(before, after.removedNodes)];
    }
    case 'GroupAdded':
      return [{ type: 'GroupRemoved', id: edit.group.id }];
    case 'GroupUpdated': {
      const group = before.groups.find((g) => g.id === edit.id);
      return group ? [{ type: 'GroupUpdated', id: edit.id, changes: previousValues(group, edit.changes) }] : [];
    }
    case 'GroupRemoved': {
      const group = before.groups.find((g) => g.id === edit.id);
      if (!group) return [];
      return [
        { type: 'GroupAdded', group },
        ...before.locations
          .filter((l) => l.groups.includes(edit.id))
          .map((location): MapEdit => ({ type: 'LocationUpdated', id: location.id, changes: { groups: location.groups } })),
      ];
    }
    case 'SettingsChanged':
      return [{ type: 'SettingsChanged', settings: before.settings }];
    case 'RegionStylesChanged':
      return [{ type: 'RegionStylesChanged', regions: before.styles.regions }];
    case 'DocumentImported':
    case 'MapRestored':
      return [{ type: 'DocumentImported', document: before }];
    default: {
      const unreachable: never = edit;
      return unreachable;
    }
  }
}

/**
 * Applies a batch of edits, skipping the ones that no longer fit the document, and answers the
 * new document, the edits that did apply, and the edits that undo them (in the order to apply).
 */
export function applyEdits(document: MapDocument, edits: readonly MapEdit[]): { document: MapDocument; applied: MapEdit[]; inverse: MapEdit[] } {
  let current = document;
  const applied: MapEdit[] = [];
  const inverse: MapEdit[][] = [];
  for (const edit of edits) {
    const prepared: MapEdit =
      edit.type === 'LayerRemoved' ? { ...edit, removedLocations: current.locations.filter((l) => l.layer === edit.id).map((l) => l.id) } : edit;
    if (checkEdit(current, prepared)) continue;
    inverse.push(invertEdit(current, prepared));
    current = applyEdit(current, prepared);
    applied.push(prepared);
  }
  return { document: current, applied, inverse: inverse.reverse().flat() };
}
