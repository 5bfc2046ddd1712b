/**
 * Mapplic's locations CSV (what its CSV option loads and its builder exports: columns named
 * as a location's fields, `id,title,about,description,category,x,y,fill,pin,level,link,
 * thumbnail,zoom,lat,lng…`, comma- or semicolon-separated) read as an import plan, with the
 * same mapping as a Mapplic JSON's locations: fractional x/y, `level` naming the floor,
 * categories making groups, ids such as `de-by` kept so they link to the drawing's regions of
 * the same id.
 */
import Papa from 'papaparse';
import type { MapDocument } from '../../events/map-document.js';
import type { ImportPlan, PlannedFloor, PlannedLocation } from '../../events/map-import.js';
import { newReading, readMapplicLocation, reportIgnored, textOf } from './mapplic-location.js';
import { importRefusal } from './refusal.js';
import { truncateText } from '../../events/safe-text.js';

/** What the parser reads of the endpoint's input (ImportInput, server/import/parsers.ts). */
export interface MapplicCsvInput {
  text: string;
  filename: string;
  attachments: Map<string, Buffer>;
  /** The map as it is, to tell floors it has from floors the file makes. */
  document?: Pick<MapDocument, 'layers'> | null;
}

/** Columns only Mapplic's CSV has (a plain table of places has none of them). */
const MAPPLIC_ONLY = ['pin', 'fill', 'level', 'category', 'action'];

/** Columns Mapfold's own export (and other tables) have and Mapplic's never does. */
const NOT_MAPPLIC = ['floor', 'groups', 'layer', 'address'];

/**
 * Whether a table's header row is Mapplic's: its id and title, x/y or lat/lng, one of its own
 * columns, and none of Mapfold's export (which is read as a table, its columns mapped).
 */
export function isMapplicCsvHeader(headers: readonly string[]): boolean {
  const names = new Set(headers.map((header) => header.trim().toLowerCase()));
  const placed = (names.has('x') && names.has('y')) || (names.has('lat') && names.has('lng'));
  return names.has('id') && names.has('title') && placed && MAPPLIC_ONLY.some((name) => names.has(name)) && !NOT_MAPPLIC.some((name) => names.has(name));
}

const DRAWING = /\.(svg|png|jpe?g|gif|webp)$/i;
const baseName = (name: string) => name.split(/[\\/]/).pop()!;
const stem = (name: string) => baseName(name).replace(/\.[^.]+$/, '').toLowerCase();

/** A Mapplic locations CSV as an import plan. */
export function parseMapplicCsv(input: MapplicCsvInput): ImportPlan {
  const parsed = Papa.parse<Record<string, string>>(input.text.replace(/^\uFEFF/, ''), {
    header: true,
    skipEmptyLines: 'greedy',
    transformHeader: (header) => header.trim().toLowerCase(),
  });
  const layers = input.document?.layers ?? [];
  const reading = newReading(input.document ? layers.some((layer) => layer.geo) : true);
  for (const error of parsed.errors) {
    reading.problems.push({
      row: typeof error.row === 'number' ? error.row + 1 : null,
      field: null,
      message: error.code === 'TooFewFields' || error.code === 'TooManyFields'
        ? `This row has ${error.code === 'TooFewFields' ? 'fewer' : 'more'} cells than the header has columns; check its quotes and separators.`
        : `The table could not be read here (${error.message}).`,
    });
  }
  const headers = parsed.meta.fields ?? [];
  if (!headers.includes('id') && !headers.includes('title')) {
    throw importRefusal('mapplic-csv', 'it has neither an "id" nor a "title" column', 'The first row must name the columns, as Mapplic writes them: id, title, x, y, level, category…');
  }
  if (parsed.data.length === 0) throw importRefusal('mapplic-csv', 'it has a header row and no rows under it', 'Add one row per location under the header.');

  const locations: PlannedLocation[] = [];
  const levelKeys: string[] = [];
  parsed.data.forEach((raw, index) => {
    const level = textOf(raw.level) || null;
    if (level && !levelKeys.includes(level)) levelKeys.push(level);
    const location = readMapplicLocation(reading, raw, index + 1, level);
    if (location) locations.push(location);
  });
  if (headers.includes('level') && levelKeys.length > 0) reading.used.add('level');

  // Floors the rows name; a drawing uploaded alongside under the level's name becomes its drawing.
  const drawings = [...input.attachments.keys()].filter((name) => DRAWING.test(name));
  const existing = (key: string) => layers.some((layer) => layer.id === key || layer.name.toLowerCase() === key.toLowerCase());
  const floors: PlannedFloor[] = levelKeys.map((key) => {
    const drawing = drawings.find((name) => stem(name) === key.toLowerCase());
    if (!drawing && !existing(key)) {
      reading.problems.push({
        row: locations.find((location) => location.floor === key)?.row ?? null, field: 'level',
        message: `The map has no floor “${key}”: one is made for it, without a drawing. Upload its drawing named ${key}.svg alongside the CSV (or import the Mapplic JSON first) so x/y land on it.`,
      });
    }
    return { key, name: truncateText(key, 100), drawing: drawing ? { kind: 'attachment', name: drawing } : null };
  });
  // No levels at all and one drawing alongside: the rows go on a floor drawn by it (a CSV on its own SVG).
  if (levelKeys.length === 0 && drawings.length === 1) {
    const drawing = drawings[0]!;
    const key = stem(drawing) || 'map';
    floors.push({ key, name: truncateText(baseName(drawing).replace(/\.[^.]+$/, ''), 100) || 'Map', drawing: { kind: 'attachment', name: drawing } });
    for (const location of locations) if (location.position?.kind !== 'geo') location.floor = key;
  }

  const groupKeys = [...reading.groupKeys];
  if (groupKeys.length > 0 && groupKeys.every((key) => /^\d+$/.test(key))) {
    reading.problems.push({
      row: null, field: 'category',
      message: `The categories are numbers (${groupKeys.slice(0, 6).join(', ')}${groupKeys.length > 6 ? ', …' : ''}), Mapplic’s ids for categories defined in its JSON: the groups are named by them. Rename them in the editor, or import the Mapplic JSON with its categories first.`,
    });
  }
  const ignored = reportIgnored(reading);
  return {
    format: 'mapplic-csv',
    floors,
    groups: groupKeys.map((key) => ({ key, name: truncateText(key, 100), color: null })),
    locations,
    columns: { used: headers.filter((header) => reading.used.has(header)), ignored },
    mapping: null,
    problems: reading.problems,
  };
}
