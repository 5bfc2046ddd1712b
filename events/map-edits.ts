/**
 * Fine-grained edits of a map document, recorded as events on the map's stream. One pure
 * `applyEdit` serves the projections and the client (which applies its own edits at once, then
 * the server's order). Edits to different things merge; for one field the last write wins.
 *
 * `checkEdit` says what is wrong with an edit against a document (for `invalid-argument`,
 * naming the field); `applyEdit` assumes a checked edit and never throws.
 */
import { z } from 'zod';
import {
  BASEMAP_NEEDS_MERCATOR,
  ElementId,
  GeoCalibration,
  isBasemapCalibration,
  Group,
  groupFields,
  Layer,
  LayerFile,
  Location,
  locationFields,
  MapDocument,
  MapDocumentInput,
  MAX_GROUPS,
  MAX_LAYERS,
  MAX_LOCATIONS,
  Point,
  RecordedLayer,
  RecordedLayerFile,
  RegionStyles,
  Settings,
  type MapDocument as Document,
} from './map-document.js';
import { isProjectableCalibration, UNPROJECTABLE } from './geo-calibration.js';
import { applyPathsEdit, checkPathNetwork, missingEntrance, PathsEdit, withoutLayer, type PathNetwork } from './path-network.js';

/** What an update changes: any fields of a location but its id, with no defaults filled in. */
export const LocationPatch = z.object(locationFields).partial().strict();
export const GroupPatch = z.object(groupFields).partial().strict();

/** Locations, updates and ids one import event carries at most: a big import is a batch of them in one append. */
export const IMPORT_CHUNK = 5_000;
/**
 * Characters of JSON one import event carries at most (its locations or updates): 4 million,
 * at most 12 MB of UTF-8, under KurrentDB's 16 MB per event. A store chain's 5,000 rows are
 * about 1.6 million; rows with long descriptions make more, smaller events.
 */
export const IMPORT_CHUNK_CHARACTERS = 4_000_000;

/** The file an import came from, as its event records it (for the history and the audit log). */
export const ImportSource = z.object({
  format: z.enum(['mapfold', 'mapplic', 'mapplic-csv', 'csv', 'geojson', 'kml', 'store-locator', 'svg']),
  /** The file's name as the uploader gave it. */
  name: z.string().max(200),
  /** The columns' mapping the import used (CSV kinds): remembered for the map's next import. */
  mapping: z.record(z.string().max(40), z.string().max(200)).nullable().default(null),
  /**
   * The import is a sync of the map's data source (issue 30 item 4, events/map-data-source.ts):
   * history and timeline say "Sync from {name}: 3 added, 2 changed, 1 removed".
   */
  sync: z.literal(true).optional(),
  /**
   * The source's values the owner chose for fields edited in Mapfold (overridden, issue 30
   * item 4: `resolveSyncOverride`): recorded as an import of the source, so it is one step to
   * undo, and history keeps the map's value it replaced.
   */
  overrides: z.literal(true).optional(),
});
export type ImportSource = z.infer<typeof ImportSource>;

/**
 * The edits an editor makes, their layers and documents taken as `document` says: as anyone
 * may set them now (a floor's drawing one of the product's own files), or as recorded.
 */
function documentEdits(schemas: { layer: typeof Layer | typeof RecordedLayer; file: typeof LayerFile | typeof RecordedLayerFile; document: typeof MapDocument | typeof MapDocumentInput }) {
  return [
    z.object({ type: z.literal('LocationAdded'), location: Location }),
    z.object({ type: z.literal('LocationUpdated'), id: ElementId, changes: LocationPatch }),
    z.object({ type: z.literal('LocationMoved'), id: ElementId, position: Point, layer: ElementId.optional() }),
    z.object({ type: z.literal('LocationRemoved'), id: ElementId }),
    z.object({ type: z.literal('LayerAdded'), layer: schemas.layer }),
    z.object({ type: z.literal('LayerRenamed'), id: ElementId, name: Layer.shape.name }),
    z.object({ type: z.literal('LayersReordered'), order: z.array(ElementId).max(100) }),
    z.object({ type: z.literal('LayerFileReplaced'), id: ElementId, file: schemas.file.nullable() }),
    /** A floor's latitude/longitude calibration set (two pinned points, an import) or taken off. */
    z.object({ type: z.literal('LayerCalibrated'), id: ElementId, geo: GeoCalibration.nullable() }),
    /** Removing a layer removes the locations on it; the event names them for the record. */
    z.object({ type: z.literal('LayerRemoved'), id: ElementId, removedLocations: z.array(ElementId).default([]) }),
    z.object({ type: z.literal('GroupAdded'), group: Group }),
    z.object({ type: z.literal('GroupUpdated'), id: ElementId, changes: GroupPatch }),
    z.object({ type: z.literal('GroupRemoved'), id: ElementId }),
    z.object({ type: z.literal('SettingsChanged'), settings: Settings }),
    z.object({ type: z.literal('RegionStylesChanged'), regions: RegionStyles }),
    z.object({ type: z.literal('DocumentImported'), document: schemas.document }),
    /**
     * A file's floors, groups and locations merged into the map (POST /api/maps/{id}/import):
     * new floors and groups first, then new locations, then changes to existing ones (rows whose
     * id matched). One event per {@link IMPORT_CHUNK} items, all in one append.
     */
    z.object({
      type: z.literal('ImportApplied'),
      source: ImportSource,
      /** Which of the import's events this is, when it took several (history says "part 2 of 5"). */
      part: z.object({ number: z.number().int().min(1), of: z.number().int().min(2) }).optional(),
      layers: z.array(schemas.layer).max(100).default([]),
      groups: z.array(Group).max(200).default([]),
      locations: z.array(Location).max(IMPORT_CHUNK).default([]),
      updates: z.array(z.object({ id: ElementId, changes: LocationPatch })).max(IMPORT_CHUNK).default([]),
      /** Locations the import takes off the map (a sync: their key left the source), after the rest. */
      removed: z.array(ElementId).max(IMPORT_CHUNK).optional(),
    }),
    /** Many locations removed at once (undoing an import, a bulk delete). */
    z.object({ type: z.literal('LocationsRemoved'), ids: z.array(ElementId).min(1).max(IMPORT_CHUNK) }),
    /** The path network changed: nodes, edges and connectors put whole or removed (path-network.ts). */
    PathsEdit,
  ] as const;
}

/** What an editor may send (and `editMap` accepts): every edit but the ones only the product records. */
export const DocumentEdit = z.discriminatedUnion('type', [...documentEdits({ layer: Layer, file: LayerFile, document: MapDocumentInput })]);
export type DocumentEdit = z.infer<typeof DocumentEdit>;

/**
 * Every change of a map's document on its stream, as recorded: the editors' edits, and a
 * restore of an earlier version (recorded by `restoreMapHistory` alone, with the document it
 * brings back, so the log reads as what happened and every reader applies it like any edit).
 * Read as recorded: an edit that set a floor's drawing to another site's file, when that was
 * still accepted, reads as one that took the drawing off.
 */
export const MapEdit = z.discriminatedUnion('type', [
  ...documentEdits({ layer: RecordedLayer, file: RecordedLayerFile, document: MapDocument }),
  z.object({ type: z.literal('MapRestored'), historyId: z.string().min(1).max(64), revision: z.string().regex(/^\d+$/), document: MapDocument }),
]);
export type MapEdit = z.infer<typeof MapEdit>;
export type MapEditType = MapEdit['type'];

/** An edit an editor may send (not one only the product records). */
export function isDocumentEdit(edit: MapEdit): edit is DocumentEdit {
  return edit.type !== 'MapRestored';
}
export const MAP_EDIT_TYPES: ReadonlySet<string> = new Set(MapEdit.options.map((option) => option.shape.type.value));

/** The fields a patch sets (an absent field leaves the value as it is). */
/**
 * A geocoded location given a new position by hand (its latitude and longitude typed in, or
 * moved by an update) is known exactly from then on, unless the update says otherwise (an
 * import's update placing it again by its address).
 */
function handPlaced(location: Location, changes: z.infer<typeof LocationPatch>): { precision?: 'exact' } {
  if (changes.position === undefined || changes.position === null || changes.precision !== undefined) return {};
  return location.precision && location.precision !== 'exact' ? { precision: 'exact' } : {};
}

function definedOnly<T extends object>(patch: T): { [K in keyof T]-?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as { [K in keyof T]-?: Exclude<T[K], undefined> };
}

const has = <T extends { id: string }>(items: readonly T[], id: string) => items.some((item) => item.id === id);

/** What is wrong with applying `edit` to `document` ("field: problem"), or null. */
/**
 * A region (a shape of a floor's drawing) stands for one location: linking it to a second would
 * colour, name and open it for two. Answers why when another location of `layer` has it.
 */
function regionTaken(document: Document, layer: string, element: string, self: string, field: string): string | null {
  const other = document.locations.find((l) => l.id !== self && l.layer === layer && l.element === element);
  return other ? `${field}: the region ${element} is the location “${other.title}” already. A region stands for one location: unlink it there first, or choose another region.` : null;
}

export function checkEdit(document: Document, edit: MapEdit): string | null {
  switch (edit.type) {
    case 'LocationAdded': {
      const { location } = edit;
      if (has(document.locations, location.id)) return `location.id: a location with the id ${location.id} exists already`;
      if (document.locations.length >= MAX_LOCATIONS) return `location: a map has at most ${MAX_LOCATIONS} locations`;
      if (!has(document.layers, location.layer)) return `location.layer: there is no layer ${location.layer}`;
      const missing = location.groups.find((group) => !has(document.groups, group));
      if (missing) return `location.groups: there is no group ${missing}`;
      const entrance = entranceMissing(document.paths, location.entrances);
      if (entrance) return `location.entrances: there is no path point ${entrance}`;
      return location.element ? regionTaken(document, location.layer, location.element, location.id, 'location.element') : null;
    }
    case 'LocationUpdated': {
      if (!has(document.locations, edit.id)) return `id: there is no location ${edit.id}`;
      const { layer, groups, entrances } = edit.changes;
      if (layer !== undefined && !has(document.layers, layer)) return `changes.layer: there is no layer ${layer}`;
      const missing = groups?.find((group) => !has(document.groups, group));
      if (missing) return `changes.groups: there is no group ${missing}`;
      const entrance = entrances ? entranceMissing(document.paths, entrances) : null;
      if (entrance) return `changes.entrances: there is no path point ${entrance}`;
      if (edit.changes.element === undefined && layer === undefined) return null;
      const current = document.locations.find((l) => l.id === edit.id)!;
      const element = edit.changes.element === undefined ? current.element : edit.changes.element;
      return element ? regionTaken(document, layer ?? current.layer, element, edit.id, 'changes.element') : null;
    }
    case 'PathsEdited':
      return checkPathNetwork(applyPathsEdit(document.paths, edit).network, new Set(document.layers.map((l) => l.id)));
    case 'LocationMoved': {
      const moved = document.locations.find((l) => l.id === edit.id);
      if (!moved) return `id: there is no location ${edit.id}`;
      if (edit.layer === undefined || edit.layer === moved.layer) return null;
      if (!has(document.layers, edit.layer)) return `layer: there is no layer ${edit.layer}`;
      return moved.element ? regionTaken(document, edit.layer, moved.element, moved.id, 'layer') : null;
    }
    case 'LocationRemoved':
      return has(document.locations, edit.id) ? null : `id: there is no location ${edit.id}`;
    case 'LayerAdded':
      if (has(document.layers, edit.layer.id)) return `layer.id: a layer with the id ${edit.layer.id} exists already`;
      if (edit.layer.geo && !isProjectableCalibration(edit.layer.geo)) return `layer.geo: ${UNPROJECTABLE}`;
      return document.layers.length >= MAX_LAYERS ? `layer: a map has at most ${MAX_LAYERS} layers` : null;
    case 'LayerCalibrated':
      if (edit.geo && !isProjectableCalibration(edit.geo)) return `geo: ${UNPROJECTABLE}`;
      if (document.layers.find((l) => l.id === edit.id)?.basemap && !isBasemapCalibration(edit.geo)) return `geo: ${BASEMAP_NEEDS_MERCATOR}`;
      return has(document.layers, edit.id) ? null : `id: there is no layer ${edit.id}`;
    case 'LayerRenamed':
    case 'LayerFileReplaced':
      return has(document.layers, edit.id) ? null : `id: there is no layer ${edit.id}`;
    case 'ImportApplied':
      return checkImport(document, edit);
    case 'LocationsRemoved': {
      const ids = new Set(document.locations.map((l) => l.id));
      const missing = edit.ids.find((id) => !ids.has(id));
      if (missing) return `ids: there is no location ${missing}`;
      // Each id once: the maps list counts the locations an event removes by its ids.
      const named = new Set<string>();
      for (const [index, id] of edit.ids.entries()) {
        if (named.has(id)) return `ids.${index}: names the location ${id} twice`;
        named.add(id);
      }
      return null;
    }
    case 'LayersReordered': {
      const current = document.layers.map((l) => l.id).sort();
      const proposed = [...edit.order].sort();
      return current.length === proposed.length && current.every((id, i) => id === proposed[i])
        ? null
        : 'order: must name every layer exactly once';
    }
    case 'LayerRemoved':
      if (!has(document.layers, edit.id)) return `id: there is no layer ${edit.id}`;
      return document.layers.length <= 1 ? 'id: a map keeps at least one layer' : null;
    case 'GroupAdded':
      if (has(document.groups, edit.group.id)) return `group.id: a group with the id ${edit.group.id} exists already`;
      return document.groups.length >= MAX_GROUPS ? `group: a map has at most ${MAX_GROUPS} groups` : null;
    case 'GroupUpdated':
    case 'GroupRemoved':
      return has(document.groups, edit.id) ? null : `id: there is no group ${edit.id}`;
    case 'SettingsChanged':
      return edit.settings.defaultLayer && !has(document.layers, edit.settings.defaultLayer)
        ? `settings.defaultLayer: there is no layer ${edit.settings.defaultLayer}`
        : null;
    case 'RegionStylesChanged':
    case 'DocumentImported':
    case 'MapRestored':
      return null;
    default: {
      const unreachable: never = edit;
      return unreachable;
    }
  }
}

/** What is wrong with an import against the document (sets, not scans: an import may bring 100,000 locations). */
function checkImport(document: Document, edit: Extract<MapEdit, { type: 'ImportApplied' }>): string | null {
  const layers = new Set(document.layers.map((l) => l.id));
  for (const [index, layer] of edit.layers.entries()) {
    if (layers.has(layer.id)) return `layers.${index}.id: a layer with the id ${layer.id} exists already`;
    layers.add(layer.id);
  }
  if (layers.size > MAX_LAYERS) return `layers: a map has at most ${MAX_LAYERS} layers`;
  const unprojectable = edit.layers.findIndex((layer) => layer.geo && !isProjectableCalibration(layer.geo));
  if (unprojectable >= 0) return `layers.${unprojectable}.geo: ${UNPROJECTABLE}`;
  const groups = new Set(document.groups.map((g) => g.id));
  for (const [index, group] of edit.groups.entries()) {
    if (groups.has(group.id)) return `groups.${index}.id: a group with the id ${group.id} exists already`;
    groups.add(group.id);
  }
  if (groups.size > MAX_GROUPS) return `groups: a map has at most ${MAX_GROUPS} groups`;
  const locations = new Set(document.locations.map((l) => l.id));
  for (const [index, location] of edit.locations.entries()) {
    if (locations.has(location.id)) return `locations.${index}.id: a location with the id ${location.id} exists already`;
    if (!layers.has(location.layer)) return `locations.${index}.layer: there is no layer ${location.layer}`;
    const missing = location.groups.find((group) => !groups.has(group));
    if (missing) return `locations.${index}.groups: there is no group ${missing}`;
    const entrance = entranceMissing(document.paths, location.entrances);
    if (entrance) return `locations.${index}.entrances: there is no path point ${entrance}`;
    locations.add(location.id);
  }
  if (locations.size > MAX_LOCATIONS) return `locations: a map has at most ${MAX_LOCATIONS} locations`;
  for (const [index, update] of edit.updates.entries()) {
    if (!locations.has(update.id)) return `updates.${index}.id: there is no location ${update.id}`;
    const { layer, groups: named } = update.changes;
    if (layer !== undefined && !layers.has(layer)) return `updates.${index}.changes.layer: there is no layer ${layer}`;
    const missing = named?.find((group) => !groups.has(group));
    if (missing) return `updates.${index}.changes.groups: there is no group ${missing}`;
    const entrance = update.changes.entrances ? entranceMissing(document.paths, update.changes.entrances) : null;
    if (entrance) return `updates.${index}.changes.entrances: there is no path point ${entrance}`;
  }
  const removed = new Set<string>();
  for (const [index, id] of (edit.removed ?? []).entries()) {
    if (!locations.has(id) || removed.has(id)) return `removed.${index}: there is no location ${id} to remove`;
    removed.add(id);
  }
  return null;
}

/** The first entrance the network lacks (most locations name none: no set is built for them). */
function entranceMissing(network: PathNetwork, entrances: readonly string[]): string | null {
  return entrances.length === 0 ? null : missingEntrance(new Set(network.nodes.map((n) => n.id)), entrances);
}

/** Locations without the entrances that went with removed path points. */
function withoutEntrances(locations: Document['locations'], removedNodes: ReadonlySet<string>): Document['locations'] {
  if (removedNodes.size === 0) return locations;
  return locations.map((l) =>
    l.entrances.some((id) => removedNodes.has(id)) ? { ...l, entrances: l.entrances.filter((id) => !removedNodes.has(id)) } : l,
  );
}

function withoutRemoved(locations: Document['locations'], removed: readonly string[] | undefined): Document['locations'] {
  if (!removed || removed.length === 0) return locations;
  const gone = new Set(removed);
  return locations.filter((l) => !gone.has(l.id));
}

/** The document after a (checked) edit. Pure: returns a new document, shares what is unchanged. */
export function applyEdit(document: Document, edit: MapEdit): Document {
  switch (edit.type) {
    case 'LocationAdded':
      return { ...document, locations: [...document.locations, edit.location] };
    case 'LocationUpdated':
      return {
        ...document,
        locations: document.locations.map((l) => (l.id === edit.id ? { ...l, ...definedOnly(edit.changes), ...handPlaced(l, edit.changes) } : l)),
      };
    case 'LocationMoved':
      return {
        ...document,
        // Moved by hand, a geocoded location's position is known exactly from then on.
        locations: document.locations.map((l) =>
          l.id === edit.id ? { ...l, position: edit.position, layer: edit.layer ?? l.layer, ...(l.precision && l.precision !== 'exact' ? { precision: 'exact' as const } : {}) } : l,
        ),
      };
    case 'LocationRemoved':
      return { ...document, locations: document.locations.filter((l) => l.id !== edit.id) };
    case 'LayerAdded':
      return { ...document, layers: [...document.layers, edit.layer] };
    case 'LayerRenamed':
      return { ...document, layers: document.layers.map((l) => (l.id === edit.id ? { ...l, name: edit.name } : l)) };
    case 'LayersReordered': {
      const byId = new Map(document.layers.map((l) => [l.id, l]));
      return { ...document, layers: edit.order.flatMap((id) => byId.get(id) ?? []) };
    }
    case 'LayerFileReplaced':
      return { ...document, layers: document.layers.map((l) => (l.id === edit.id ? { ...l, file: edit.file } : l)) };
    case 'LayerCalibrated':
      return {
        ...document,
        layers: document.layers.map((l) => {
          if (l.id !== edit.id) return l;
          const { geo: _old, ...rest } = l;
          return edit.geo ? { ...rest, geo: edit.geo } : rest;
        }),
      };
    case 'ImportApplied': {
      const updates = new Map(edit.updates.map((update) => [update.id, update.changes]));
      const locations = updates.size === 0
        ? document.locations
        : document.locations.map((l) => {
            const changes = updates.get(l.id);
            return changes ? { ...l, ...definedOnly(changes) } : l;
          });
      return {
        ...document,
        layers: edit.layers.length > 0 ? [...document.layers, ...edit.layers] : document.layers,
        groups: edit.groups.length > 0 ? [...document.groups, ...edit.groups] : document.groups,
        locations: withoutRemoved(edit.locations.length > 0 ? [...locations, ...edit.locations] : locations, edit.removed),
        settings: document.settings.defaultLayer === null && edit.layers[0] ? { ...document.settings, defaultLayer: edit.layers[0].id } : document.settings,
      };
    }
    case 'LocationsRemoved': {
      const removed = new Set(edit.ids);
      return { ...document, locations: document.locations.filter((l) => !removed.has(l.id)) };
    }
    case 'LayerRemoved': {
      const layers = document.layers.filter((l) => l.id !== edit.id);
      const defaultLayer = document.settings.defaultLayer === edit.id ? (layers[0]?.id ?? null) : document.settings.defaultLayer;
      // The floor's path points go with it, and the links, connector stops and entrances on them.
      const paths = withoutLayer(document.paths, edit.id);
      return {
        ...document,
        layers,
        locations: withoutEntrances(document.locations.filter((l) => l.layer !== edit.id), paths.removedNodes),
        settings: { ...document.settings, defaultLayer },
        paths: paths.network,
      };
    }
    case 'PathsEdited': {
      const paths = applyPathsEdit(document.paths, edit);
      return { ...document, paths: paths.network, locations: withoutEntrances(document.locations, paths.removedNodes) };
    }
    case 'GroupAdded':
      return { ...document, groups: [...document.groups, edit.group] };
    case 'GroupUpdated':
      return { ...document, groups: document.groups.map((g) => (g.id === edit.id ? { ...g, ...definedOnly(edit.changes) } : g)) };
    case 'GroupRemoved':
      return {
        ...document,
        groups: document.groups.filter((g) => g.id !== edit.id),
        locations: document.locations.map((l) => (l.groups.includes(edit.id) ? { ...l, groups: l.groups.filter((g) => g !== edit.id) } : l)),
      };
    case 'SettingsChanged':
      return { ...document, settings: edit.settings };
    case 'RegionStylesChanged':
      return { ...document, styles: { ...document.styles, regions: edit.regions } };
    case 'DocumentImported':
    case 'MapRestored':
      return edit.document;
    default: {
      const unreachable: never = edit;
      return unreachable;
    }
  }
}
