/**
 * A Mapplic map (its JSON: `mapwidth`, `mapheight`, `levels[]` with their `map` drawings and
 * `locations[]`, `categories[]` or `groups[]`, and on geographic maps `topLat`, `leftLng`,
 * `bottomLat`, `rightLng`) read as an import plan: levels become floors (their drawings taken
 * from the files uploaded alongside, by name), categories become groups with their colours,
 * every location field is mapped (server/import/mapplic-location.ts).
 *
 * Geographic bounds: Mapplic's latlngToPos (mapplic.js 4.x to 7.x, "Web Mercator (EPSG:3857)")
 * places longitude linearly between leftLng and rightLng and latitude in Web Mercator up from
 * bottomLat, at the scale the map's width gives; topLat is not read. The floor is calibrated
 * the same way, so a lat/lng lands where Mapplic drew it.
 *
 * A file that is not a Mapplic map is refused in words (refusal.ts); everything else a file
 * gets wrong is a problem of the plan, and the rest is imported.
 */
import type { GeoCalibration } from '../../events/map-document.js';
import type { ImportPlan, ImportProblem, PlannedFloor, PlannedGroup, PlannedLocation } from '../../events/map-import.js';
import { normaliseColour } from './css-colour.js';
import { importRefusal } from './refusal.js';
import { booleanOf, newReading, numberOf, readMapplicLocation, reportIgnored, textOf, type MapplicReading } from './mapplic-location.js';
import { truncateText } from '../../events/safe-text.js';

/** What the parser reads of the endpoint's input (ImportInput, server/import/parsers.ts). */
export interface MapplicInput {
  text: string;
  filename: string;
  /** Files uploaded alongside, by the name they were uploaded with. */
  attachments: Map<string, Buffer>;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether parsed JSON is a Mapplic map (levels, or Mapplic's size with locations or categories). */
export function isMapplicMap(value: unknown): boolean {
  if (!isObject(value)) return false;
  if (Array.isArray(value.levels)) return true;
  return 'mapwidth' in value && (Array.isArray(value.locations) || Array.isArray(value.categories) || Array.isArray(value.groups));
}

const MAP_KEYS = new Set(['mapwidth', 'mapheight', 'levels', 'categories', 'groups', 'locations', 'topLat', 'leftLng', 'bottomLat', 'rightLng']);
const LEVEL_KEYS = new Set(['id', 'title', 'map', 'locations']);
const GROUP_KEYS = new Set(['id', 'title', 'name', 'color', 'legend']);
const DRAWING = /\.(svg|png|jpe?g|gif|webp)$/i;


const RADIANS = Math.PI / 180;
const mercatorY = (lat: number) => Math.log(Math.tan(Math.PI / 4 + (lat * RADIANS) / 2));
const mercatorLat = (y: number) => (2 * Math.atan(Math.exp(y)) - Math.PI / 2) / RADIANS;

/** The floors' calibration from Mapplic's bounds, as its latlngToPos reads them; null (with a problem) when they cannot be used. */
function calibrationOf(data: Json, size: { width: number; height: number } | null, problems: ImportProblem[]): GeoCalibration | null {
  const keys = ['topLat', 'leftLng', 'bottomLat', 'rightLng'] as const;
  const given = keys.filter((key) => textOf(data[key]));
  if (given.length === 0) return null;
  const top = numberOf(data.topLat);
  const west = numberOf(data.leftLng);
  const south = numberOf(data.bottomLat);
  const east = numberOf(data.rightLng);
  if (given.length < 4 || west === null || south === null || east === null) {
    problems.push({ row: null, field: 'topLat', message: `The map gives only some of topLat, leftLng, bottomLat and rightLng (${given.join(', ')}), so its floors are not calibrated: latitude/longitude go on a geographic floor.` });
    return null;
  }
  const spanRadians = (east - west) * RADIANS;
  // Mapplic's scale: the map's width spans the longitudes; its height climbs from bottomLat at the same scale.
  const north = size ? mercatorLat(mercatorY(south) + (size.height / size.width) * spanRadians) : top;
  if (north === null || !(east > west) || !(north > south) || south < -85.05 || north > 85.06 || west < -540 || east > 540) {
    problems.push({ row: null, field: 'topLat', message: `The bounds (${given.map((key) => `${key} ${textOf(data[key])}`).join(', ')}) do not make a map north up with west on the left, so its floors are not calibrated.` });
    return null;
  }
  if (top !== null && Math.abs(north - top) > 0.01 * (north - south)) {
    problems.push({
      row: null, field: 'topLat',
      message: `Mapplic places latitudes up from bottomLat at the scale of the map's width (Web Mercator) and does not read topLat: the map's top edge is at ${north.toFixed(4)}° where topLat says ${top}°. Positions follow Mapplic.`,
    });
  }
  return { kind: 'bounds', projection: 'mercator', north: Math.min(north, 85.05), south, west, east };
}

/** The uploaded file a level's `map` names, by its file name (case ignored), or null. */
function attachmentFor(map: string, attachments: Map<string, Buffer>): string | null {
  const wanted = map.split(/[?#]/)[0]!.split(/[\\/]/).pop()!.toLowerCase();
  for (const name of attachments.keys()) {
    if (name.split(/[\\/]/).pop()!.toLowerCase() === wanted) return name;
  }
  return null;
}

function floorOf(level: Json, index: number, size: { width: number; height: number } | null, geo: GeoCalibration | null, input: MapplicInput, problems: ImportProblem[], ignored: Set<string>): PlannedFloor {
  const key = textOf(level.id) || `level-${index + 1}`;
  const name = truncateText(textOf(level.title) || key, 100);
  for (const [field, value] of Object.entries(level)) if (!LEVEL_KEYS.has(field) && textOf(value)) ignored.add(`level.${field}`);
  const floor: PlannedFloor = { key, name, drawing: null, ...(size ? { size } : {}), ...(geo ? { geo } : {}) };
  const map = textOf(level.map);
  if (!map) {
    problems.push({ row: null, field: 'map', message: `The level “${name}” names no drawing; its floor was made without one (add one in the editor).` });
    return floor;
  }
  const fileName = map.split(/[?#]/)[0]!.split(/[\\/]/).pop()!;
  const attachment = attachmentFor(map, input.attachments);
  if (attachment && DRAWING.test(attachment)) return { ...floor, drawing: { kind: 'attachment', name: attachment } };
  if (attachment) {
    problems.push({ row: null, field: 'map', message: `“${attachment}” (the drawing of level “${name}”) is not an SVG or an image (PNG, JPEG, GIF, WebP); the floor was made without a drawing.` });
  } else if (/^(https?:)?\/\//i.test(map)) {
    problems.push({ row: null, field: 'map', message: `The drawing of level “${name}” is on another site (${map.slice(0, 120)}), which the import does not fetch: download ${fileName} and upload it alongside the JSON. The floor was made without a drawing.` });
  } else {
    problems.push({ row: null, field: 'map', message: `Upload ${fileName} (the drawing of level “${name}”) alongside the JSON to use it as the floor’s drawing; the floor was made without one.` });
  }
  return floor;
}

function groupsOf(data: Json, problems: ImportProblem[], ignored: Set<string>): PlannedGroup[] {
  const list = Array.isArray(data.groups) ? data.groups : Array.isArray(data.categories) ? data.categories : [];
  const groups: PlannedGroup[] = [];
  list.forEach((entry, index) => {
    if (!isObject(entry)) return;
    for (const [field, value] of Object.entries(entry)) if (!GROUP_KEYS.has(field) && textOf(value)) ignored.add(`category.${field}`);
    const key = textOf(entry.id) || textOf(entry.title) || textOf(entry.name);
    if (!key) {
      problems.push({ row: null, field: 'categories', message: `Category ${index + 1} has neither an id nor a title; it was left out.` });
      return;
    }
    const name = truncateText(textOf(entry.title) || textOf(entry.name) || key, 100);
    const colourText = textOf(entry.color);
    const color = normaliseColour(colourText);
    if (colourText && !color) problems.push({ row: null, field: 'color', message: `The colour “${colourText}” of category “${name}” is not one this reads (write it like #4d5e6d); the group got none.` });
    const legend = booleanOf(entry.legend);
    groups.push({ key, name, color, ...(legend === undefined ? {} : { legend }) });
  });
  return groups;
}

/** Groups the locations name that the file never defined: made by name, so nothing is lost. */
function undefinedGroups(reading: MapplicReading, groups: PlannedGroup[]): PlannedGroup[] {
  const known = new Set(groups.flatMap((group) => [group.key, group.name]));
  const missing = [...reading.groupKeys].filter((key) => !known.has(key));
  if (missing.length > 0) {
    reading.problems.push({
      row: null, field: 'category',
      message: `Locations name ${missing.length === 1 ? 'a category' : 'categories'} the file does not define (${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', …' : ''}); ${missing.length === 1 ? 'a group was' : 'groups were'} made named by ${missing.length === 1 ? 'it' : 'them'}, without a colour.`,
    });
  }
  return missing.map((key) => ({ key, name: truncateText(key, 100), color: null }));
}

/** A Mapplic JSON map as an import plan. */
export function parseMapplicJson(input: MapplicInput): ImportPlan {
  let data: unknown;
  try {
    data = JSON.parse(input.text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw importRefusal('mapplic', `it is not valid JSON (${(error as Error).message})`, 'Export it again from Mapplic, or check it in a JSON validator.');
  }
  if (!isMapplicMap(data) || !isObject(data)) {
    throw importRefusal('mapplic', 'it has no "levels"', 'Upload the JSON file Mapplic reads (with mapwidth, mapheight and levels).');
  }
  const problems: ImportProblem[] = [];
  const ignoredStructure = new Set<string>();
  const width = numberOf(data.mapwidth);
  const height = numberOf(data.mapheight);
  const size = width !== null && height !== null && width > 0 && height > 0 && width <= 100_000 && height <= 100_000 ? { width, height } : null;
  if (!size) problems.push({ row: null, field: 'mapwidth', message: 'The map gives no usable mapwidth and mapheight: positions are placed on the size of each floor’s drawing.' });
  const geo = calibrationOf(data, size, problems);
  const reading = newReading(geo !== null);
  reading.problems = problems;

  const levels = (Array.isArray(data.levels) ? data.levels : []).filter(isObject);
  const floors = levels.map((level, index) => floorOf(level, index, size, geo, input, problems, ignoredStructure));
  if (floors.length === 0) floors.push({ key: 'map', name: 'Map', drawing: null, ...(size ? { size } : {}), ...(geo ? { geo } : {}) });
  const floorKeys = new Set(floors.map((floor) => floor.key));
  const groups = groupsOf(data, problems, ignoredStructure);

  const locations: PlannedLocation[] = [];
  let row = 0;
  levels.forEach((level, index) => {
    for (const raw of Array.isArray(level.locations) ? level.locations : []) {
      row++;
      if (!isObject(raw)) continue;
      const location = readMapplicLocation(reading, raw, row, floors[index]!.key);
      if (location) locations.push(location);
    }
  });
  // Mapplic 6+ also reads a map-wide list, each location naming its level (the first one by default).
  for (const raw of Array.isArray(data.locations) ? data.locations : []) {
    row++;
    if (!isObject(raw)) continue;
    const levelKey = textOf(raw.level);
    let floor = floors[0]!.key;
    if (levelKey && floorKeys.has(levelKey)) floor = levelKey;
    else if (levelKey) problems.push({ row, field: 'level', message: `There is no level “${levelKey}”; the location was put on “${floors[0]!.name}”.` });
    const location = readMapplicLocation(reading, raw, row, floor);
    if (location) locations.push(location);
  }

  if (!geo) {
    const geographic = locations.filter((location) => location.position?.kind === 'geo');
    for (const location of geographic) location.floor = null;
    if (geographic.length > 0) {
      problems.push({ row: geographic[0]!.row, field: 'lat', message: `${geographic.length} location${geographic.length === 1 ? ' has' : 's have'} latitude/longitude but the map has no topLat/leftLng/bottomLat/rightLng to place ${geographic.length === 1 ? 'it' : 'them'} on its levels: ${geographic.length === 1 ? 'it goes' : 'they go'} on a geographic floor.` });
    }
  }
  const settings = Object.keys(data).filter((key) => !MAP_KEYS.has(key) && textOf(data[key]) !== '');
  if (settings.length > 0) {
    problems.push({ row: null, field: null, message: `Mapplic’s display settings were not imported (${settings.slice(0, 12).join(', ')}${settings.length > 12 ? ', …' : ''}): set the map’s look in the editor.` });
  }
  const allGroups = [...groups, ...undefinedGroups(reading, groups)];
  const ignored = [...reportIgnored(reading), ...ignoredStructure];
  for (const key of ignoredStructure) problems.push({ row: null, field: key, message: `“${key}” was not imported: no field of a Mapfold floor or group holds it.` });
  return {
    format: 'mapplic',
    floors,
    groups: allGroups,
    locations,
    columns: { used: [...reading.used], ignored },
    mapping: null,
    problems,
  };
}
