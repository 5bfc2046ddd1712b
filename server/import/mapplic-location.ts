/**
 * One Mapplic location (a `levels[].locations[]` entry of a Mapplic JSON, or a row of its
 * CSV) read as a planned location: every field Mapplic has mapped to Mapfold's, what has no
 * home reported once (never dropped without a word), problems in the uploader's words.
 *
 * Mapplic's conventions, from its own source (mapplic.js 4.x–7.x): `x`/`y` are fractions (0 to
 * 1) of the map, often written as strings; `lat`/`lng`, when both are set, replace `x`/`y`;
 * `category` is one id, a comma-separated list or an array; `pin` is a list of CSS classes
 * (`hidden`, `pin-label`, `pin-md`, `circle`, …); `fill` colours the marker and the region.
 */
import type { ImportProblem, PlannedFields, PlannedLocation, SourcePosition } from '../../events/map-import.js';
import { normaliseColour } from './css-colour.js';
import { truncateText } from '../../events/safe-text.js';

/** What reading a file's locations gathered beyond the locations themselves. */
export interface MapplicReading {
  problems: ImportProblem[];
  /** The location fields the file had that were read. */
  used: Set<string>;
  /** Fields with no home in Mapfold, with a few of their values, each reported once. */
  ignored: Map<string, Set<string>>;
  /** The row each id was first seen on (Mapplic shows only the first of an id). */
  seenIds: Map<string, number>;
  /** The first row whose x/y were read as pixels, reported once. */
  pixelRow: number | null;
  /** Group keys the locations name, to make groups the file never defined. */
  groupKeys: Set<string>;
  /** Whether the map's floors are calibrated (lat/lng then win over x/y, as in Mapplic). */
  calibrated: boolean;
}

export function newReading(calibrated: boolean): MapplicReading {
  return { problems: [], used: new Set(), ignored: new Map(), seenIds: new Map(), pixelRow: null, groupKeys: new Set(), calibrated };
}

/** Why a Mapplic field has no home in Mapfold, for the problem that reports it. */
const IGNORED_WHY: Record<string, string> = {
  action: 'what a click does in Mapplic (tooltip, lightbox, open-link…); a Mapfold location always opens its card, with its link',
  style: 'Mapplic style classes; set the location’s colour or its group instead',
  reveal: 'Mapplic’s reveal-on-zoom; Mapfold shows every marker',
  'pin classes': 'marker looks Mapplic draws with CSS classes (sizes, pulse, custom icons); the marker type was kept, the looks were not',
  hide: 'Mapplic’s hidden-from-list flag',
};

/** Keys the parser handles itself (the floor, Mapplic's own runtime leftovers in saved files are not among them). */
const CONSUMED = new Set(['level']);

/** A value as text: strings trimmed, numbers and booleans written out; anything else has none. */
export function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return String(value);
  return undefined;
}

/** A number as Mapplic files write them: `0.4049`, `"0.4049"`, `" 2 "`, or with a decimal comma (`"0,4049"`). */
export function numberOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  const text = textOf(value);
  if (!text) return null;
  const normal = /^-?\d+,\d+$/.test(text) ? text.replace(',', '.') : text;
  const parsed = Number(normal);
  return Number.isFinite(parsed) ? parsed : null;
}

/** `true`/`"true"`/`"1"`/`"yes"` and their opposites; anything else unknown. */
export function booleanOf(value: unknown): boolean | undefined {
  const text = textOf(value)?.toLowerCase();
  if (text === undefined || text === '') return undefined;
  if (['true', '1', 'yes', 'y'].includes(text)) return true;
  if (['false', '0', 'no', 'n'].includes(text)) return false;
  return undefined;
}

/** Mapplic's `category`: one id, ids separated by commas, or an array of ids. */
export function categoriesOf(value: unknown): string[] {
  const parts = Array.isArray(value) ? value.map(textOf) : (textOf(value) ?? '').split(',');
  return [...new Set(parts.map((part) => part?.trim() ?? '').filter((part) => part !== ''))];
}

function ignore(reading: MapplicReading, key: string, value: string) {
  const values = reading.ignored.get(key) ?? new Set<string>();
  if (values.size < 5 && value !== '') values.add(value.length > 40 ? `${truncateText(value, 40)}…` : value);
  reading.ignored.set(key, values);
}

/** Marker classes that choose a marker type, and classes that only style one (kept quietly as the type). */
const MARKER_CLASSES: Record<string, 'circle' | 'dot' | 'label' | 'thumbnail' | 'hidden'> = {
  hidden: 'hidden',
  'pin-label': 'label', 'pin-text': 'label',
  'pin-image': 'thumbnail', 'pin-thumb': 'thumbnail', 'pin-thumbnail': 'thumbnail',
  'pin-dot': 'dot', dot: 'dot',
  'pin-circle': 'circle', circle: 'circle',
};
const PLAIN_PIN_CLASSES = new Set(['', 'default', 'pin', 'marker', 'pin-classic', 'pin-marker']);

/**
 * The marker for Mapplic's `pin` classes: hidden wins (Mapplic draws nothing), then a label
 * (when there is one to show), a thumbnail, a dot, a circle; the plain pin otherwise. Classes
 * that only style a marker are reported once.
 */
export function markerOf(pin: string, hasLabel: boolean, reading: MapplicReading): NonNullable<PlannedFields['marker']> {
  const classes = pin.split(/\s+/).filter(Boolean);
  const kinds = new Set(classes.map((name) => MARKER_CLASSES[name.toLowerCase()]).filter(Boolean));
  for (const name of classes) {
    if (!MARKER_CLASSES[name.toLowerCase()] && !PLAIN_PIN_CLASSES.has(name.toLowerCase())) ignore(reading, 'pin classes', name);
  }
  if (kinds.has('hidden')) return 'hidden';
  if (kinds.has('label') && hasLabel) return 'label';
  if (kinds.has('thumbnail')) return 'thumbnail';
  if (kinds.has('dot')) return 'dot';
  if (kinds.has('circle')) return 'circle';
  return 'pin';
}

/** Web addresses only: a file path next to the Mapplic JSON means nothing once it is on another site. */
function addressOf(reading: MapplicReading, row: number, field: string, value: unknown): string | undefined {
  const text = textOf(value);
  if (!text) return undefined;
  const address = text.startsWith('//') ? `https:${text}` : text;
  if (/^https?:\/\/\S+$/i.test(address) && address.length <= 2000) return address;
  reading.problems.push({
    row, field,
    message: /^(javascript|data|vbscript):/i.test(address)
      ? `“${truncateText(text, 60)}” is not a web address; it was left out.`
      : `“${truncateText(text, 80)}” is a file next to the Mapplic map, not a web address; it was left out. Upload the picture and set it in the editor, or give its full https:// address.`,
  });
  return undefined;
}

/** Text cut to what a Mapfold location holds, saying so. */
function limited(reading: MapplicReading, row: number, field: string, value: unknown, max: number): string | undefined {
  const text = textOf(value);
  if (text === undefined) return undefined;
  if (text.length <= max) return text;
  reading.problems.push({ row, field, message: `Longer than the ${max} characters a location’s ${field} holds; the rest was cut.` });
  return truncateText(text, max);
}

/** Where the file puts the location: lat/lng (as Mapplic, winning over x/y on a calibrated map), else x/y. */
function positionOf(reading: MapplicReading, row: number, raw: Record<string, unknown>): SourcePosition | null {
  const lat = numberOf(raw.lat);
  const lng = numberOf(raw.lng);
  const x = numberOf(raw.x);
  const y = numberOf(raw.y);
  const hasXY = x !== null && y !== null;
  if (lat !== null && lng !== null && (reading.calibrated || !hasXY)) {
    if (lat >= -90 && lat <= 90 && lng >= -540 && lng <= 540) return { kind: 'geo', lat, lng };
    reading.problems.push({ row, field: 'lat', message: `${lat}, ${lng} is not a place on Earth (latitude −90 to 90, longitude −180 to 180); the location has no position.` });
    return null;
  }
  if ((x === null) !== (y === null)) {
    reading.problems.push({ row, field: x === null ? 'x' : 'y', message: 'Only one of x and y is given; the location has no position (place it in the editor).' });
    return null;
  }
  if (!hasXY) return null;
  if (x > 1 || y > 1 || x < 0 || y < 0) {
    reading.pixelRow ??= row;
    return { kind: 'pixel', x, y };
  }
  return { kind: 'fraction', x, y };
}

/** Fields this maps (the rest of a location's keys are reported as ignored). */
const MAPPED = new Set([
  'id', 'title', 'about', 'description', 'category', 'x', 'y', 'lat', 'lng', 'fill', 'color', 'pin', 'label',
  'link', 'image', 'thumbnail', 'zoom', 'phone', 'hours',
]);

/**
 * A Mapplic location as a planned one, on `floor` (a level's id); null (with a problem) when
 * it has neither an id nor a title to be known by.
 */
export function readMapplicLocation(reading: MapplicReading, raw: Record<string, unknown>, row: number, floor: string | null): PlannedLocation | null {
  for (const [key, value] of Object.entries(raw)) {
    if (CONSUMED.has(key)) continue;
    const present = value !== undefined && value !== null && textOf(value) !== '';
    if (MAPPED.has(key)) {
      if (present) reading.used.add(key);
    } else if (present) ignore(reading, key, textOf(value) ?? (Array.isArray(value) ? 'a list' : 'an object'));
  }
  const id = textOf(raw.id) || null;
  const title = limited(reading, row, 'title', raw.title, 200) || id;
  if (!title) {
    reading.problems.push({ row, field: 'title', message: 'This location has neither an id nor a title; it was left out.' });
    return null;
  }
  if (id !== null) {
    const first = reading.seenIds.get(id);
    if (first === undefined) reading.seenIds.set(id, row);
    else {
      reading.problems.push({
        row, field: 'id',
        message: `The id “${id}” was already used on row ${first}: Mapplic showed only the first; this one is imported too, under a new id.`,
      });
    }
  }

  const fields: PlannedFields = { title };
  const about = limited(reading, row, 'about', raw.about, 500);
  if (about) fields.about = about;
  const description = limited(reading, row, 'description', raw.description, 20_000);
  if (description) fields.description = description;
  // Mapplic 7 draws a label that is a picture's address as the marker's picture.
  const labelImage = /^(https?:)?\/\//i.test(textOf(raw.label) ?? '') ? addressOf(reading, row, 'label', raw.label) : undefined;
  const label = labelImage ? undefined : limited(reading, row, 'label', raw.label, 60);
  if (label) fields.label = label;
  const phone = limited(reading, row, 'phone', raw.phone, 40);
  if (phone) fields.phone = phone;
  const hours = limited(reading, row, 'hours', raw.hours, 500);
  if (hours) fields.hours = hours;
  const link = addressOf(reading, row, 'link', raw.link);
  if (link) fields.link = link;
  const image = addressOf(reading, row, 'image', raw.image);
  if (image) fields.image = image;
  const thumbnail = addressOf(reading, row, 'thumbnail', raw.thumbnail) ?? labelImage;
  if (thumbnail) fields.thumbnail = thumbnail;

  const zoomText = textOf(raw.zoom);
  if (zoomText) {
    const zoom = numberOf(raw.zoom);
    if (zoom !== null && zoom >= 0.1 && zoom <= 64) fields.zoom = zoom;
    else reading.problems.push({ row, field: 'zoom', message: `“${zoomText}” is not a zoom Mapfold can use (a number from 0.1 to 64); the location opens at the map’s zoom.` });
  }

  const colourText = textOf(raw.fill) || textOf(raw.color);
  if (colourText) {
    const colour = normaliseColour(colourText);
    if (colour) fields.color = colour;
    else reading.problems.push({ row, field: textOf(raw.fill) ? 'fill' : 'color', message: `“${colourText.slice(0, 40)}” is not a colour this reads (write it like #4d5e6d); the location takes its group’s colour.` });
  }

  const pin = textOf(raw.pin);
  if (pin !== undefined && pin !== '') fields.marker = markerOf(pin, Boolean(fields.label), reading);
  if (labelImage && fields.marker !== 'hidden') fields.marker = 'thumbnail';

  const groups = categoriesOf(raw.category);
  for (const group of groups) reading.groupKeys.add(group);

  return { row, id, fields, floor, position: positionOf(reading, row, raw), groups, element: null };
}

/** The ignored fields, each named once in `columns.ignored` and explained once in a problem. */
export function reportIgnored(reading: MapplicReading): string[] {
  const names: string[] = [];
  for (const [key, values] of reading.ignored) {
    names.push(key);
    const seen = values.size > 0 ? ` (${[...values].map((value) => `“${value}”`).join(', ')})` : '';
    const why = IGNORED_WHY[key] ?? 'no field of a Mapfold location holds it';
    reading.problems.push({ row: null, field: key, message: `“${key}”${seen} was not imported: ${why}.` });
  }
  if (reading.pixelRow !== null) {
    reading.problems.push({
      row: reading.pixelRow, field: 'x',
      message: 'Some x/y values are outside 0 to 1. Mapplic reads x and y as fractions of the map’s width and height, so these were read as pixels of the map instead; check where they landed.',
    });
  }
  return names;
}
