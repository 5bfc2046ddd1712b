/**
 * From a file's plan (events/map-import.ts, what a parser found, in the file's own terms) to the
 * edits that bring it into a map as the map is now, and the preview the endpoint answers.
 * Pure and deterministic: the same plan against the same document gives the same edits, so a
 * preview shows exactly what an apply records.
 *
 * What it decides: which floors and groups are the map's own (by id or name) and which are
 * new; each location's id (the file's when safe and unique, else made from its title); whether
 * a row adds a location or changes an existing one (same id: only the fields the file has);
 * where it sits (pixels as they are, fractions of its floor's size, latitude/longitude through
 * its floor's calibration or on a geographic floor made for them); which region it stands for.
 * Every row left out, and every field not taken, says why in a problem.
 */
import { basemapFloorAround, boundsAround, MERCATOR_LIMIT } from './basemap-bounds.js';
import { elementIdFor, isSvgElementId } from './element-id.js';
import { floorToGeo, isProjectableCalibration, projectToFloor, type LatLng } from './geo-calibration.js';
import type { ImportPreview, ImportPlan, ImportProblem, PlannedFields, PlannedFloor, PlannedLocation } from './map-import.js';
import {
  ElementId,
  GeoCalibration,
  isBasemapCalibration,
  locationFields,
  MapDocumentInput,
  MAX_GROUPS,
  MAX_LAYERS,
  MAX_LOCATIONS,
  MARKER_TYPES,
  type Group,
  type Layer,
  type LayerFile,
  type Location,
  type MapDocument,
} from './map-document.js';
import { IMPORT_CHUNK, IMPORT_CHUNK_CHARACTERS, type LocationPatch, type MapEdit } from './map-edits.js';
import type { z } from 'zod';
import { truncateText } from './safe-text.js';

/** Problems a preview lists at most (`problemCount` says how many there were). */
export const MAX_LISTED_PROBLEMS = 1_000;
/** Rows a preview shows as they will be. */
export const SAMPLE_ROWS = 20;
const MAX_GROUPS_PER_LOCATION = 50;

/** Colours for groups the file gives none (distinct at a glance, readable on light and dark). */
export const GROUP_PALETTE = ['#4f46e5', '#0891b2', '#16a34a', '#ca8a04', '#dc2626', '#9333ea', '#db2777', '#ea580c', '#0d9488', '#2563eb', '#65a30d', '#7c3aed'];

/** A floor's regions: SVG element ids, with their titles when known. */
export type FloorRegions = ReadonlySet<string> | ReadonlyMap<string, string>;

export interface PlanOptions {
  /** The file's name as the uploader gave it (the import event records it). */
  sourceName: string;
  /**
   * The regions of a floor: an existing floor by its layer id, a new one by its planned key.
   * Locations whose id or title is a region's id (or title) link to it.
   */
  regionsOf?: (floor: string) => FloorRegions | null | undefined;
  /**
   * The floor for latitude/longitude points no floor of the map places; by default a floor on
   * the street basemap fitted to them (events/basemap-bounds.ts `basemapFloorAround`).
   */
  geographicFloor?: (points: LatLng[], size: Size) => PlannedFloor;
  /** A planned floor's drawing size (an uploaded attachment measured by the server); null: not uploaded. */
  drawingSize?: (floor: PlannedFloor) => { width: number; height: number } | null;
}

/** A drawing to store on apply, and the floor (layer id) it is for. */
export interface PlannedFile {
  layer: string;
  floorKey: string;
  drawing: Extract<NonNullable<PlannedFloor['drawing']>, { kind: 'attachment' } | { kind: 'generated' }>;
  /** Whether the floor exists already (its drawing then changes with a LayerFileReplaced edit). */
  existing: boolean;
}

export interface PlannedImport {
  edits: MapEdit[];
  preview: Omit<ImportPreview, 'revision'>;
  files: PlannedFile[];
}

type Size = { width: number; height: number };

/** A map's floor as the planner sees it: an existing one, or one the import makes. */
interface Floor {
  id: string;
  name: string;
  key: string | null;
  size: Size;
  geo: GeoCalibration | null;
  existing: boolean;
  /** The key `regionsOf` knows it by. */
  regionsKey: string;
  /** On the street basemap: it shows every place (but the poles), not only its drawing's. */
  basemap?: boolean;
}

/** An id made from text: letters and digits, dashes between, at most 56 characters (room for "-123"). */
export function slugId(text: string, fallback: string): string {
  const base = text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 56)
    .replace(/-+$/, '');
  return base || fallback;
}

/** `base`, or `base-2`, `base-3`… whichever is not taken; taken from then on. */
function uniqueId(base: string, taken: Set<string>): string {
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  taken.add(id);
  return id;
}

const isElementId = (id: string) => ElementId.safeParse(id).success;
const lower = (text: string) => text.trim().toLowerCase();

/** What some fields must be, in words (their schemas' own messages are a developer's). */
const FIELD_RULES: Partial<Record<string, string>> = {
  zoom: 'must be a number from 0.1 to 64',
  marker: `must be one of ${MARKER_TYPES.join(', ')}`,
  hidden: 'must be yes or no',
};

/** The plain words of a field's refusal ("must be at most 500 characters"). */
function reason(field: string, error: z.ZodError): string {
  const rule = FIELD_RULES[field];
  if (rule) return rule;
  const message = error.issues[0]?.message ?? '';
  return /^(must|is) /.test(message) ? message : 'is not valid here';
}

const FIELD_WORDS: Record<string, string> = {
  title: 'title', about: 'short text', description: 'description', image: 'image', thumbnail: 'thumbnail', link: 'link',
  phone: 'phone', hours: 'hours', zoom: 'zoom', marker: 'marker', color: 'colour', label: 'label', hidden: 'hidden',
};

function quoteValue(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 60 ? `“${truncateText(text, 57)}…”` : `“${text}”`;
}

/** The document a Mapfold JSON brings, checked as anything given now is; or the problem in plain words. */
function replacement(plan: ImportPlan): { document: MapDocument } | { problem: string } {
  const parsed = MapDocumentInput.safeParse(plan.replaces);
  if (parsed.success) return { document: parsed.data };
  const issue = parsed.error.issues[0]!;
  const where = issue.path.length > 0 ? `${issue.path.join('.')} ` : '';
  return { problem: `The map in the file cannot be used: ${where}${issue.message}. Export it again from Mapfold, or fix that part of the file.` };
}

function replacementImport(plan: ImportPlan, document: MapDocument): PlannedImport {
  const base = basePreview(plan);
  const checked = replacement(plan);
  if ('problem' in checked) {
    const problems = [...plan.problems, { row: null, field: null, message: checked.problem }];
    return { edits: [], files: [], preview: { ...base, problems: problems.slice(0, MAX_LISTED_PROBLEMS), problemCount: problems.length, replaces: true } };
  }
  const next = checked.document;
  const before = new Set(document.locations.map((l) => l.id));
  const layerName = new Map(next.layers.map((l) => [l.id, l.name]));
  const groupName = new Map(next.groups.map((g) => [g.id, g.name]));
  return {
    edits: [{ type: 'DocumentImported', document: next }],
    files: [],
    preview: {
      ...base,
      counts: { layers: next.layers.length, locations: next.locations.length, groups: next.groups.length, regionsLinked: next.locations.filter((l) => l.element).length, updated: next.locations.filter((l) => before.has(l.id)).length, skipped: 0 },
      problems: plan.problems.slice(0, MAX_LISTED_PROBLEMS),
      problemCount: plan.problems.length,
      sample: next.locations.slice(0, SAMPLE_ROWS).map((l, index) => ({
        row: index + 1, id: l.id, title: l.title, floor: layerName.get(l.layer) ?? l.layer, groups: l.groups.map((g) => groupName.get(g) ?? g),
        lat: null, lng: null, x: l.position?.x ?? null, y: l.position?.y ?? null, region: l.element, update: before.has(l.id), skipped: null,
      })),
      floors: next.layers.map((layer) => ({
        id: layer.id, name: layer.name, new: !document.layers.some((l) => l.id === layer.id),
        locations: next.locations.filter((l) => l.layer === layer.id && !before.has(l.id)).length,
        updated: next.locations.filter((l) => l.layer === layer.id && before.has(l.id)).length,
      })),
      replaces: true,
    },
  };
}

function basePreview(plan: ImportPlan): Omit<ImportPreview, 'revision'> {
  const available = [...new Set([...plan.columns.used, ...plan.columns.ignored])];
  return {
    format: plan.format,
    counts: { layers: 0, locations: 0, groups: 0, regionsLinked: 0, updated: 0, skipped: 0 },
    columns: { used: [...plan.columns.used], ignored: [...plan.columns.ignored] },
    mapping: plan.mapping,
    availableColumns: available,
    problems: [],
    problemCount: 0,
    sample: [],
    floors: [],
    removedFloor: null,
    regions: [],
    replaces: false,
    ...(plan.geocoding ? { geocoding: plan.geocoding } : {}),
  };
}

/**
 * The planned floor, its calibration left off (and said so) unless every reader takes it and
 * it puts places somewhere: a calibration of Infinity or NaN (a drawing fitted to shapes that
 * span nothing) or a Mercator one beyond the poles' cut would place nothing, or place at NaN.
 */
function withUsableCalibration(planned: PlannedFloor, problem: (row: number | null, field: string | null, message: string) => void): PlannedFloor {
  if (!planned.geo || (GeoCalibration.safeParse(planned.geo).success && isProjectableCalibration(planned.geo))) return planned;
  problem(null, 'floor', `The floor “${planned.name}” could not be calibrated from the file (its latitudes and longitudes span nothing that can be drawn): it is made without a calibration.`);
  const { geo: _unusable, ...rest } = planned;
  return rest;
}

/** The edits and preview of importing `plan` into `document`. */
export function planImport(document: MapDocument, plan: ImportPlan, options: PlanOptions): PlannedImport {
  if (plan.replaces !== undefined) return replacementImport(plan, document);

  const preview = basePreview(plan);
  const problems: ImportProblem[] = [...plan.problems];
  const problem = (row: number | null, field: string | null, message: string) => problems.push({ row, field, message });
  const settingsSize = document.settings.size;

  // ---- floors ------------------------------------------------------------------------------
  const floors: Floor[] = document.layers.map((layer) => ({
    id: layer.id,
    name: layer.name,
    key: null,
    size: layer.file ? { width: layer.file.width, height: layer.file.height } : settingsSize,
    geo: layer.geo ?? null,
    existing: true,
    regionsKey: layer.id,
    basemap: layer.basemap === true && isBasemapCalibration(layer.geo),
  }));
  const floorById = new Map(floors.map((f) => [f.id, f]));
  const floorByName = new Map<string, Floor>();
  for (const f of floors) if (!floorByName.has(lower(f.name))) floorByName.set(lower(f.name), f);
  const takenLayerIds = new Set(floors.map((f) => f.id));
  const newLayers: Layer[] = [];
  const files: PlannedFile[] = [];
  const extraEdits: MapEdit[] = [];
  const floorByKey = new Map<string, Floor>();
  /** Existing floors given bounds fitted to the file's drawing (a street map's regions). */
  const fittedByFile = new Set<Floor>();
  const layerInUse = (id: string) => document.locations.some((l) => l.layer === id) || document.paths.nodes.some((node) => node.layer === id);
  const plannedByKey = new Map(plan.floors.map((f) => [f.key, f]));
  // The floor a new map starts with, still untouched: the import's own floors take its place
  // unless the file puts something on it (a location with a position, a floor of that name).
  const starter = starterFloor(document);
  let starterNeeded = starter !== null && plan.targetFloor === starter.id;
  /** Whether one of the file's floors is the starter floor (matched by its id or name). */
  let starterMatched = false;

  const sizeOfPlanned = (planned: PlannedFloor): Size | null => {
    const drawing = planned.drawing;
    if (drawing?.kind === 'stored' || drawing?.kind === 'generated') return { width: drawing.width, height: drawing.height };
    if (drawing?.kind === 'attachment') {
      const measured = options.drawingSize?.(planned) ?? null;
      if (measured) return measured;
      problem(null, null, `The floor “${planned.name}” uses the drawing “${drawing.name}”, which was not uploaded with the file: upload it alongside to show the floor's plan. The floor is made without a drawing for now.`);
    }
    return planned.size ?? null;
  };

  /** The map's floor for a planned one: matched by id or name, or made. */
  const floorFor = (given: PlannedFloor): Floor | null => {
    const known = floorByKey.get(given.key);
    if (known) return known;
    const planned = withUsableCalibration(given, problem);
    const match = floorById.get(planned.key) ?? floorByName.get(lower(planned.name)) ?? floorByName.get(lower(planned.key));
    const drawing = planned.drawing && planned.drawing.kind !== 'stored' ? planned.drawing : null;
    if (match) {
      floorByKey.set(planned.key, match);
      if (match.id === starter?.id) starterNeeded = starterMatched = true;
      if (match.existing) {
        const layer = document.layers.find((l) => l.id === match.id)!;
        // An existing floor takes the file's drawing and calibration only where it has none.
        if (!layer.file && planned.drawing) {
          const size = sizeOfPlanned(planned);
          if (planned.drawing.kind === 'stored') {
            extraEdits.push({ type: 'LayerFileReplaced', id: match.id, file: { kind: planned.drawing.type, url: planned.drawing.url, width: planned.drawing.width, height: planned.drawing.height } });
          } else if (drawing && size) files.push({ layer: match.id, floorKey: planned.key, drawing, existing: true });
          if (size) match.size = size;
          // Its regions are then the file's drawing's: a new map's first floor, "Ground floor",
          // given a Mapplic mall's "Ground floor" drawing links that floor's shops to it.
          match.regionsKey = planned.key;
        }
        if (!layer.geo && planned.geo) {
          extraEdits.push({ type: 'LayerCalibrated', id: match.id, geo: planned.geo });
          match.geo = planned.geo;
        } else if (match.basemap && planned.basemap && planned.geo && isBasemapCalibration(planned.geo) && planned.geo !== layer.geo && !layerInUse(match.id)) {
          // A street map nothing is on yet, its drawing made in bounds fitted to the file's shapes
          // (server/import/basemap-drawing.ts): those bounds, kept (not fitted again to the points).
          extraEdits.push({ type: 'LayerCalibrated', id: match.id, geo: planned.geo });
          match.geo = planned.geo;
          fittedByFile.add(match);
        }
      }
      return match;
    }
    if (floors.length >= MAX_LAYERS) {
      problem(null, 'floor', `The floor “${planned.name}” was not made: a map has at most ${MAX_LAYERS} floors. Its locations are left out.`);
      return null;
    }
    const id = uniqueId(slugId(isElementId(planned.key) ? planned.key : planned.name, 'floor'), takenLayerIds);
    const name = truncateText(planned.name.trim(), 100).trim() || id;
    let file: LayerFile | null = null;
    let drawn = false;
    if (planned.drawing?.kind === 'stored') {
      file = { kind: planned.drawing.type, url: planned.drawing.url, width: planned.drawing.width, height: planned.drawing.height };
      drawn = true;
    } else if (drawing && (drawing.kind === 'generated' || options.drawingSize?.(planned))) {
      files.push({ layer: id, floorKey: planned.key, drawing, existing: false });
      drawn = true;
    }
    // A floor without a drawing is shown at the map's size (the editor and viewer have no other):
    // fractions and calibrated places are laid out on that, or they would sit elsewhere once stored.
    const measured = sizeOfPlanned(planned);
    const size = drawn && measured ? measured : settingsSize;
    // A basemap floor only on the bounds a basemap takes (a drawing under it is its regions).
    const basemap = planned.basemap === true && isBasemapCalibration(planned.geo);
    const layer: Layer = { id, name, file, ...(planned.geo ? { geo: planned.geo } : {}), ...(basemap ? { basemap: true } : {}) };
    newLayers.push(layer);
    const floor: Floor = { id, name, key: planned.key, size, geo: planned.geo ?? null, existing: false, regionsKey: planned.key, basemap };
    floors.push(floor);
    floorById.set(id, floor);
    if (!floorByName.has(lower(name))) floorByName.set(lower(name), floor);
    floorByKey.set(planned.key, floor);
    return floor;
  };
  for (const planned of plan.floors) floorFor(planned);

  /** A location's floor: the planned floor its key names, an existing one by id or name, or a new one named so. */
  const floorOfKey = (key: string): Floor | null => {
    const planned = plannedByKey.get(key);
    if (planned) return floorFor(planned);
    return floorByKey.get(key) ?? floorById.get(key) ?? floorByName.get(lower(key)) ?? floorFor({ key, name: key, drawing: null });
  };
  const defaultFloor = (): Floor | null => {
    const target = plan.targetFloor ?? document.settings.defaultLayer ?? document.layers[0]?.id;
    return (target && floorById.get(target)) || floors[0] || null;
  };

  // ---- groups ------------------------------------------------------------------------------
  const groupIds = new Set(document.groups.map((g) => g.id));
  const groupByKey = new Map<string, string>();
  for (const g of document.groups) {
    groupByKey.set(lower(g.id), g.id);
    if (!groupByKey.has(lower(g.name))) groupByKey.set(lower(g.name), g.id);
  }
  const newGroups: Group[] = [];
  let groupLimitSaid = false;
  const makeGroup = (name: string, color: string | null, legend?: boolean, key?: string): string | null => {
    if (groupIds.size >= MAX_GROUPS) {
      if (!groupLimitSaid) problem(null, 'groups', `Some groups were not made (“${name}” and any after it): a map has at most ${MAX_GROUPS} groups. Locations keep their other groups.`);
      groupLimitSaid = true;
      return null;
    }
    const cleanName = truncateText(name.trim(), 100).trim() || 'Group';
    const id = uniqueId(slugId(key && isElementId(key) ? key : cleanName, 'group'), groupIds);
    const valid = color && /^#[0-9a-fA-F]{6}$/.test(color) ? color.toLowerCase() : null;
    if (color && !valid) problem(null, 'color', `The group “${cleanName}” has the colour ${quoteValue(color)}, which is not a colour like #4f46e5: it gets one of the palette's.`);
    const group: Group = { id, name: cleanName, color: valid ?? GROUP_PALETTE[(document.groups.length + newGroups.length) % GROUP_PALETTE.length]!, legend: legend ?? true };
    newGroups.push(group);
    groupByKey.set(lower(id), id);
    if (!groupByKey.has(lower(cleanName))) groupByKey.set(lower(cleanName), id);
    return id;
  };
  const plannedGroupId = new Map<string, string | null>();
  for (const g of plan.groups) {
    const existing = groupByKey.get(lower(g.key)) ?? groupByKey.get(lower(g.name));
    const id = existing ?? makeGroup(g.name || g.key, g.color, g.legend, g.key);
    plannedGroupId.set(g.key, id);
    if (!plannedGroupId.has(g.name)) plannedGroupId.set(g.name, id);
  }
  const groupOf = (name: string): string | null => {
    if (plannedGroupId.has(name)) return plannedGroupId.get(name)!;
    return groupByKey.get(lower(name)) ?? makeGroup(name, null);
  };

  // ---- regions -----------------------------------------------------------------------------
  const regionCache = new Map<string, { ids: Map<string, string>; titles: Map<string, string> } | null>();
  const regionsOfFloor = (floor: Floor) => {
    if (regionCache.has(floor.regionsKey)) return regionCache.get(floor.regionsKey)!;
    const found = options.regionsOf?.(floor.regionsKey) ?? null;
    let entry: { ids: Map<string, string>; titles: Map<string, string> } | null = null;
    if (found && found.size > 0) {
      entry = { ids: new Map(), titles: new Map() };
      for (const item of found instanceof Map ? found.entries() : [...(found as ReadonlySet<string>)].map((id) => [id, ''] as const)) {
        const [id, title] = item as [string, string];
        entry.ids.set(lower(id), id);
        if (title && !entry.titles.has(lower(title))) entry.titles.set(lower(title), id);
      }
    }
    regionCache.set(floor.regionsKey, entry);
    return entry;
  };
  const regionFor = (floor: Floor, id: string | null, title: string | undefined): string | null => {
    const regions = regionsOfFloor(floor);
    if (!regions) return null;
    if (id) {
      // A file's code (`01`) names the region a drawing holds as `id="01"`, read as elementIdFor's reference.
      const byId = regions.ids.get(lower(id)) ?? regions.ids.get(lower(elementIdFor(id)));
      if (byId) return byId;
    }
    if (title) return regions.ids.get(lower(title)) ?? regions.titles.get(lower(title)) ?? null;
    return null;
  };

  // ---- ids ---------------------------------------------------------------------------------
  const existingLocations = new Map(document.locations.map((l) => [l.id, l]));
  const takenIds = new Set(existingLocations.keys());
  // Ids the file gives are kept first, so an id made from a title never takes one a later row names.
  const fileIdOwner = new Map<string, number>();
  for (const location of plan.locations) {
    if (location.id && isElementId(location.id) && !fileIdOwner.has(location.id)) fileIdOwner.set(location.id, location.row);
  }
  for (const id of fileIdOwner.keys()) takenIds.add(id);

  // ---- geographic positions without a calibrated floor ---------------------------------------
  const inside = (floor: Floor, point: LatLng): boolean => {
    // A basemap shows the whole world, as far as Web Mercator goes.
    if (floor.basemap) return Math.abs(point.lat) <= MERCATOR_LIMIT;
    const projected = projectToFloor(floor.geo!, floor.size, point);
    if (!projected) return false;
    // A little beyond the edge still reads as on the drawing (a store across the street from a mall's plan).
    const marginX = floor.size.width * 0.05;
    const marginY = floor.size.height * 0.05;
    return projected.x >= -marginX && projected.x <= floor.size.width + marginX && projected.y >= -marginY && projected.y <= floor.size.height + marginY;
  };
  /** The calibrated floor a point with no floor named goes on: the default floor first, then any, where it falls on the drawing. */
  const calibratedFloorFor = (point: LatLng): Floor | null => {
    const first = defaultFloor();
    const candidates = first?.geo ? [first, ...floors.filter((f) => f !== first && f.geo)] : floors.filter((f) => f.geo);
    return candidates.find((floor) => inside(floor, point)) ?? null;
  };
  const implicitFloor = new Map<number, Floor | null>();
  const uncalibratedPoints: LatLng[] = [];
  const pointsOnBasemap = new Map<Floor, LatLng[]>();
  const floorOfRow = (location: PlannedLocation): Floor | null => (location.floor !== null ? floorOfKey(location.floor) : null);
  plan.locations.forEach((location, index) => {
    if (location.position?.kind !== 'geo') return;
    const point = location.position;
    if (!Number.isFinite(point.lat) || !Number.isFinite(point.lng) || Math.abs(point.lat) > 90 || Math.abs(point.lng) > 540) return;
    let floor: Floor | null;
    if (location.floor !== null) floor = floorOfRow(location);
    else {
      floor = calibratedFloorFor(point);
      implicitFloor.set(index, floor);
    }
    if (!floor?.geo) uncalibratedPoints.push(point);
    else if (floor.basemap && floor.existing) (pointsOnBasemap.get(floor) ?? pointsOnBasemap.set(floor, []).get(floor)!).push(point);
  });
  // A basemap floor nothing is on yet (a new street map) is fitted to the points the file puts on it.
  for (const [floor, points] of pointsOnBasemap) {
    if (fittedByFile.has(floor) || layerInUse(floor.id)) continue;
    const geo = boundsAround(points, floor.size);
    extraEdits.push({ type: 'LayerCalibrated', id: floor.id, geo });
    floor.geo = geo;
  }
  let geographic: Floor | null = null;
  if (uncalibratedPoints.length > 0) {
    const planned = options.geographicFloor?.(uncalibratedPoints, settingsSize) ?? basemapFloorAround(uncalibratedPoints, settingsSize);
    // Its key may repeat a floor of the file's: the geographic floor is a floor of its own.
    geographic = floorFor(plannedByKey.has(planned.key) ? { ...planned, key: `${planned.key}-geographic` } : planned);
  }

  // ---- locations ---------------------------------------------------------------------------
  const added: Location[] = [];
  const updates: Array<{ id: string; changes: z.infer<typeof LocationPatch> }> = [];
  const updatedIds = new Set<string>();
  let skipped = plan.leftOut ?? 0;
  let regionsLinked = 0;
  const sample: ImportPreview['sample'] = [];
  let limitSaid = false;

  for (const [index, row] of plan.locations.entries()) {
    const skip = (field: string | null, message: string) => {
      skipped++;
      problem(row.row, field, message);
      if (sample.length < SAMPLE_ROWS) sample.push(skippedRow(row, message));
    };
    const fileId = row.id?.trim() || null;
    const isUpdate = fileId !== null && existingLocations.has(fileId) && fileIdOwner.get(fileId) === row.row && !updatedIds.has(fileId);

    // Fields, each checked on its own: a bad one is left out, the row kept.
    const fields: PlannedFields = {};
    for (const [name, value] of Object.entries(row.fields) as Array<[keyof PlannedFields, unknown]>) {
      if (value === undefined) continue;
      const schema = locationFields[name] as z.ZodType;
      const checked = schema.safeParse(value);
      if (checked.success) (fields as Record<string, unknown>)[name] = checked.data;
      else if (name !== 'title') problem(row.row, name, `The ${FIELD_WORDS[name] ?? name} ${quoteValue(value)} was left out: it ${reason(name, checked.error)}.`);
      else if (typeof value === 'string' && value.trim().length > 200) {
        (fields as Record<string, unknown>).title = truncateText(value.trim(), 200);
        problem(row.row, 'title', `The title was cut to 200 characters.`);
      }
    }
    if (!isUpdate && !fields.title) {
      skip('title', fileId ? `Row ${row.row} (id ${quoteValue(fileId)}) has no title: fill in its name, or choose the column that holds names.` : `Row ${row.row} has no title: fill in its name, or choose the column that holds names.`);
      continue;
    }

    // Floor.
    let floor: Floor | null;
    if (row.position?.kind === 'geo') floor = row.floor !== null ? floorOfRow(row) : (implicitFloor.get(index) ?? null);
    else floor = row.floor !== null ? floorOfRow(row) : isUpdate ? null : defaultFloor();
    if (row.position?.kind === 'geo' && !floor?.geo) floor = geographic;
    // On the starter floor by default and without a place: it may go to the file's first floor instead.
    const unplacedByDefault = row.floor === null && row.position === null && !isUpdate;
    if (floor && floor.id === starter?.id && !unplacedByDefault) starterNeeded = true;
    if (!floor && !isUpdate) {
      skip('floor', `Row ${row.row} names the floor ${quoteValue(row.floor ?? '')}, which could not be made: a map has at most ${MAX_LAYERS} floors.`);
      continue;
    }
    const current = isUpdate ? existingLocations.get(fileId)! : null;
    const positionFloor = floor ?? (current ? floorById.get(current.layer)! : null);

    // Position.
    let position: { x: number; y: number } | null | undefined;
    let geoPoint: LatLng | null = null;
    const source = row.position;
    if (source) {
      if (source.kind === 'geo') {
        geoPoint = { lat: source.lat, lng: source.lng };
        const projected = positionFloor?.geo ? projectToFloor(positionFloor.geo, positionFloor.size, geoPoint) : null;
        if (!Number.isFinite(source.lat) || !Number.isFinite(source.lng) || Math.abs(source.lat) > 90 || Math.abs(source.lng) > 540) {
          skip('lat', `Row ${row.row} has the latitude/longitude ${source.lat}, ${source.lng}, which is not a place on Earth: latitude runs from -90 to 90, longitude from -180 to 180.`);
          continue;
        }
        if (!projected) {
          skip('lat', `Row ${row.row} at ${source.lat}, ${source.lng} lies outside what the floor “${positionFloor?.name ?? ''}” shows: put it on another floor, or calibrate the floor to cover it.`);
          continue;
        }
        position = projected;
      } else if (!Number.isFinite(source.x) || !Number.isFinite(source.y)) {
        skip('x', `Row ${row.row} has a position that is not a number: give x and y as numbers.`);
        continue;
      } else if (source.kind === 'fraction') {
        const size = positionFloor?.size ?? settingsSize;
        position = { x: source.x * size.width, y: source.y * size.height };
      } else position = { x: source.x, y: source.y };
    }

    // Groups.
    let groups: string[] | undefined;
    if (row.groups.length > 0) {
      groups = [...new Set(row.groups.map((name) => groupOf(name)).filter((id): id is string => id !== null))];
      if (groups.length > MAX_GROUPS_PER_LOCATION) {
        problem(row.row, 'groups', `Row ${row.row} is in ${groups.length} groups; a location is in at most ${MAX_GROUPS_PER_LOCATION}: the first ${MAX_GROUPS_PER_LOCATION} are kept.`);
        groups = groups.slice(0, MAX_GROUPS_PER_LOCATION);
      }
    }

    // Region.
    let element: string | null | undefined;
    if (row.drawnRegion) element = row.drawnRegion;
    else if (row.element) {
      const checked = locationFields.element.safeParse(row.element);
      // A file's own id of a region ("11", a FIPS code) names the path a drawing made from it
      // under elementIdFor's id (a GeoJSON's floor): linked to that when the floor has it.
      const made = checked.success ? null : elementIdFor(row.element);
      if (checked.success) element = checked.data;
      else if (made && positionFloor && regionsOfFloor(positionFloor)?.ids.get(lower(made)) === made) element = made;
      else problem(row.row, 'element', `The region ${quoteValue(row.element)} was left out: it is not an SVG element id (letters, digits, -, _, . or :, starting with a letter).`);
    }
    if (element === undefined && positionFloor && !(current?.element)) {
      element = regionFor(positionFloor, fileId, fields.title ?? current?.title) ?? undefined;
    }
    // Whatever a parser or a drawing offered, a location names only an id its readers take.
    if (element && !isSvgElementId(element)) {
      problem(row.row, 'element', `The region ${quoteValue(element)} was left out: it is not an SVG element id (letters, digits, -, _, . or :, starting with a letter).`);
      element = undefined;
    }
    if (element && positionFloor) regionsLinked++;

    if (isUpdate && current) {
      const changes: z.infer<typeof LocationPatch> = { ...fields };
      // A position found from an address does not move one placed by hand or by coordinates.
      const placedBetter = row.precision !== undefined && current.position !== null && (current.precision === undefined || current.precision === null || current.precision === 'exact');
      if (placedBetter) position = undefined;
      if (position !== undefined) changes.position = position;
      if (floor && floor.id !== current.layer) changes.layer = floor.id;
      if (groups !== undefined) changes.groups = groups;
      if (element !== undefined) changes.element = element;
      // A position the file gives replaces a geocoded one, and how precise that was.
      if (position) {
        if (row.precision) changes.precision = row.precision;
        else if (current.precision) changes.precision = null;
      }
      updates.push({ id: current.id, changes });
      updatedIds.add(current.id);
      if (sample.length < SAMPLE_ROWS) sample.push(sampleRow(row.row, current.id, changes.title ?? current.title, floorById.get(changes.layer ?? current.layer)?.name ?? current.layer, groups ?? current.groups, geoPoint, position ?? current.position, element ?? current.element, true));
      continue;
    }

    if (existingLocations.size + added.length >= MAX_LOCATIONS) {
      skipped++;
      const full = `Left out: the map is full (${MAX_LOCATIONS.toLocaleString('en')} locations).`;
      if (!limitSaid) problem(row.row, null, `Row ${row.row} and the rows after it were left out: a map holds at most ${MAX_LOCATIONS.toLocaleString('en')} locations. Split the file over several maps.`);
      else problems.push({ row: row.row, field: null, message: full });
      if (sample.length < SAMPLE_ROWS) sample.push(skippedRow(row, full));
      limitSaid = true;
      continue;
    }
    let id: string;
    if (fileId && isElementId(fileId) && fileIdOwner.get(fileId) === row.row && !existingLocations.has(fileId)) id = fileId;
    else {
      id = uniqueId(slugId(fields.title!, 'location'), takenIds);
      if (fileId) {
        const why = !isElementId(fileId) ? 'is not a usable id (1 to 64 letters, digits, - or _)' : 'appears more than once in the file';
        problem(row.row, 'id', `The id ${quoteValue(fileId)} ${why}: this location gets the id “${id}”.`);
      }
    }
    const location: Location = {
      id,
      title: fields.title!,
      about: fields.about ?? '',
      description: fields.description ?? '',
      image: fields.image ?? null,
      thumbnail: fields.thumbnail ?? null,
      link: fields.link ?? null,
      phone: fields.phone ?? '',
      hours: fields.hours ?? '',
      layer: floor!.id,
      entrances: [],
      position: position ?? null,
      element: element ?? null,
      zoom: fields.zoom ?? null,
      marker: fields.marker ?? 'pin',
      color: fields.color ?? null,
      label: fields.label ?? '',
      groups: groups ?? [],
      hidden: fields.hidden ?? false,
      ...(row.precision && position ? { precision: row.precision } : {}),
    };
    added.push(location);
    if (sample.length < SAMPLE_ROWS) sample.push(sampleRow(row.row, id, location.title, floor!.name, location.groups, geoPoint ?? (floor!.geo && location.position ? floorToGeo(floor!.geo, floor!.size, location.position) : null), location.position, location.element, false));
  }

  // The untouched starter floor gives way to the file's floors: what would have waited on it unplaced goes to the first of them.
  let removedFloor: { id: string; name: string } | null = null;
  const firstNew = newLayers[0];
  if (starter && !starterNeeded && firstNew) {
    removedFloor = { id: starter.id, name: starter.name };
    for (const [index, location] of added.entries()) if (location.layer === starter.id) added[index] = { ...location, layer: firstNew.id };
    for (const row of sample) if (row.skipped === null && !row.update && row.floor === starter.name) row.floor = firstNew.name;
  }

  // The file's floors keep the file's order when the starter floor is one of them: a Mapplic
  // mall's "Ground Floor" comes between its basement and first floor, not before both.
  const order = starterMatched ? fileFloorOrder(plan.floors, floorByKey, floors) : null;
  if (order) {
    extraEdits.push({ type: 'LayersReordered', order });
    const rank = new Map(order.map((id, index) => [id, index]));
    floors.sort((a, b) => rank.get(a.id)! - rank.get(b.id)!);
  }

  // Where the locations land, floor by floor, in the map's order (the starter floor gone).
  const landed = new Map<string, { locations: number; updated: number }>();
  const tally = (layer: string) => landed.get(layer) ?? landed.set(layer, { locations: 0, updated: 0 }).get(layer)!;
  for (const location of added) tally(location.layer).locations++;
  for (const update of updates) tally(update.changes.layer ?? existingLocations.get(update.id)!.layer).updated++;
  const landing: ImportPreview['floors'] = floors
    .filter((floor) => floor.id !== removedFloor?.id && (!floor.existing || landed.has(floor.id)))
    .map((floor) => ({ id: floor.id, name: floor.name, new: !floor.existing, ...(landed.get(floor.id) ?? { locations: 0, updated: 0 }) }));

  // Sample rows name groups by name.
  const groupName = new Map([...document.groups, ...newGroups].map((g) => [g.id, g.name]));
  for (const row of sample) row.groups = row.groups.map((g) => groupName.get(g) ?? g);

  // ---- edits -------------------------------------------------------------------------------
  const edits: MapEdit[] = [];
  const source = { format: plan.format, name: truncateText(options.sourceName, 200), mapping: plan.mapping ? sourceMapping(plan.mapping) : null };
  const locationChunks = importChunks(added);
  const updateChunks = importChunks(updates);
  const chunks = Math.max(locationChunks.length, updateChunks.length, newLayers.length + newGroups.length > 0 ? 1 : 0);
  for (let chunk = 0; chunk < chunks; chunk++) {
    edits.push({
      type: 'ImportApplied',
      source,
      ...(chunks > 1 ? { part: { number: chunk + 1, of: chunks } } : {}),
      layers: chunk === 0 ? newLayers : [],
      groups: chunk === 0 ? newGroups : [],
      locations: locationChunks[chunk] ?? [],
      updates: updateChunks[chunk] ?? [],
    });
  }
  if (removedFloor) edits.push({ type: 'LayerRemoved', id: removedFloor.id, removedLocations: [] });
  edits.push(...extraEdits);

  // `linked`: a location stands for the region already, before this import (the parser knows
  // which floor's locations count; else any location of the map naming it).
  const regions = (plan.regions ?? []).map((region) => ({ ...region, linked: region.linked ?? document.locations.some((l) => l.element === region.id) }));
  return {
    edits,
    files,
    preview: {
      ...preview,
      counts: { layers: newLayers.length, locations: added.length, groups: newGroups.length, regionsLinked, updated: updates.length, skipped },
      problems: problems.slice(0, MAX_LISTED_PROBLEMS),
      problemCount: problems.length,
      sample,
      floors: landing,
      removedFloor: removedFloor?.name ?? null,
      regions,
    },
  };
}

function sampleRow(
  row: number, id: string, title: string, floor: string, groups: string[], geo: LatLng | null, position: { x: number; y: number } | null, region: string | null, update: boolean,
): ImportPreview['sample'][number] {
  return { row, id, title, floor, groups: [...groups], lat: geo?.lat ?? null, lng: geo?.lng ?? null, x: position?.x ?? null, y: position?.y ?? null, region, update, skipped: null };
}

/** A row left out, as the sample shows it: its number, its name if it has one, and why. */
function skippedRow(row: PlannedLocation, reason: string): ImportPreview['sample'][number] {
  const title = typeof row.fields.title === 'string' ? truncateText(row.fields.title.trim(), 200) : '';
  return { row: row.row, id: '', title, floor: '', groups: [], lat: null, lng: null, x: null, y: null, region: null, update: false, skipped: reason };
}

/**
 * The floor a new map starts with, while nothing has been done with it: the map's only floor,
 * with no drawing, calibration, location or path point. An import brings its own floors in its place.
 */
/**
 * The map's floors in the file's order (the file's floors first, as it lists them; any others
 * after, as they were), or null when that is the order they have already.
 */
function fileFloorOrder(planned: readonly PlannedFloor[], floorByKey: ReadonlyMap<string, Floor>, floors: readonly Floor[]): string[] | null {
  const order: string[] = [];
  for (const floor of planned) {
    const id = floorByKey.get(floor.key)?.id;
    if (id !== undefined && !order.includes(id)) order.push(id);
  }
  for (const floor of floors) if (!order.includes(floor.id)) order.push(floor.id);
  return order.every((id, index) => floors[index]!.id === id) ? null : order;
}

function starterFloor(document: MapDocument): Layer | null {
  const [only, ...others] = document.layers;
  if (!only || others.length > 0 || only.file || only.geo) return null;
  if (document.locations.length > 0 || document.paths.nodes.some((node) => node.layer === only.id)) return null;
  return only;
}

/** The mapping as the import event records it (its keys at most 40 characters, values 200). */
function sourceMapping(mapping: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(mapping).filter((entry): entry is [string, string] => typeof entry[1] === 'string').map(([k, v]) => [truncateText(k, 40), truncateText(v, 200)]));
}

/**
 * The edits with the drawings stored on apply put on their floors: a new floor's `file` in the
 * first import event, an existing floor's through a LayerFileReplaced edit.
 */
export function withStoredFiles(edits: readonly MapEdit[], stored: ReadonlyMap<string, LayerFile>, plannedFiles: readonly PlannedFile[]): MapEdit[] {
  if (stored.size === 0) return [...edits];
  const result = edits.map((edit): MapEdit => {
    if (edit.type !== 'ImportApplied' || edit.layers.length === 0) return edit;
    return { ...edit, layers: edit.layers.map((layer) => (stored.has(layer.id) ? { ...layer, file: stored.get(layer.id)! } : layer)) };
  });
  for (const file of plannedFiles) {
    const stored_ = stored.get(file.layer);
    if (file.existing && stored_) result.push({ type: 'LayerFileReplaced', id: file.layer, file: stored_ });
  }
  return result;
}

/**
 * Items in runs of at most {@link IMPORT_CHUNK}, and of at most {@link IMPORT_CHUNK_CHARACTERS}
 * characters of JSON: each run is one event, and an event must stay well within what every
 * event store takes (KurrentDB refuses events over 16 MB; 5,000 locations with long
 * descriptions would be far more). An item bigger than the bound alone is a run of its own.
 */
export function importChunks<T>(items: readonly T[]): T[][] {
  const chunks: T[][] = [];
  let current: T[] = [];
  let characters = 0;
  for (const item of items) {
    const size = JSON.stringify(item).length;
    if (current.length > 0 && (current.length >= IMPORT_CHUNK || characters + size > IMPORT_CHUNK_CHARACTERS)) {
      chunks.push(current);
      current = [];
      characters = 0;
    }
    current.push(item);
    characters += size;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
