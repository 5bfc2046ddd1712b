/**
 * Rows of a table (a CSV, a store-locator list flattened) to an import plan through a column
 * mapping: one planned location per row, its fields, floor, groups and position in the file's
 * own terms. Shared by every tabular format, so a column means the same wherever it comes from.
 */
import { splitGroupNames } from '../../events/group-list.js';
import { fromCell } from '../../events/locations-csv.js';
import { IMPORT_FIELDS, type ColumnMapping, type ImportField, type ImportFormat, type ImportPlan, type ImportProblem, type PlannedAddress, type PlannedFields, type PlannedLocation } from '../../events/map-import.js';
import { LOCATION_PRECISIONS, MARKER_TYPES, type LocationPrecision } from '../../events/map-document.js';
import { syncKeyId } from '../../events/map-data-source.js';
import { guessMapping, mappingFits, normaliseColumn } from './column-mapping.js';
import { addContactFields } from './contact-fields.js';
import type { ImportInput } from './import-input.js';
import { importRefusal } from './refusal.js';

export interface Table {
  columns: string[];
  rows: string[][];
}

const YES = /^(yes|true|1|y|x|hidden)$/i;
const NO = /^(no|false|0|n|)$/i;

/** A number as people write it: "52.52", "52,52" (a decimal comma), " 13.4 ". */
export function readNumber(cell: string): number | null {
  const text = cell.trim();
  if (text === '') return null;
  const normal = /^[-+]?\d+,\d+$/.test(text) ? text.replace(',', '.') : text;
  const value = Number(normal);
  return Number.isFinite(value) ? value : Number.NaN;
}

/** A link as people write it: "www.example.com" is the web address they mean. */
function readLink(cell: string): string {
  const text = cell.trim();
  return /^www\./i.test(text) ? `https://${text}` : text;
}

/** A colour as people write it: "#ABC", "abcdef", "#aabbcc". */
function readColor(cell: string): string {
  const text = cell.trim().replace(/^#?/, '#');
  if (/^#[0-9a-fA-F]{3}$/.test(text)) return `#${[...text.slice(1)].map((c) => c + c).join('')}`.toLowerCase();
  return /^#[0-9a-fA-F]{6}$/.test(text) ? text.toLowerCase() : cell.trim();
}

/**
 * The mapping to use: the user's (`?mapping=`), else the map's last one when the file has all
 * its columns, else the guess. A user's mapping naming a column the file lacks is refused.
 */
export function chooseMapping(format: ImportFormat, columns: readonly string[], input: Pick<ImportInput, 'options' | 'rememberedMapping'>, rows: readonly (readonly string[])[] = []): ColumnMapping {
  const key = input.options.key;
  if (key !== undefined) {
    if (!columns.includes(key)) {
      throw importRefusal(format, `it has no key column “${key}” (its columns: ${columns.slice(0, 30).join(', ')})`, 'Name one of its columns as the key column.');
    }
    return withKey(chooseMapping(format, columns, { ...input, options: withoutKey(input.options) }, rows), key);
  }
  const given = input.options.columns;
  if (given && Object.keys(given).length > 0) {
    const missing = Object.entries(given).find(([, column]) => column !== undefined && !columns.includes(column));
    if (missing) {
      throw importRefusal(format, `the column mapping names the column “${missing[1]}” for ${missing[0]}, and the file has no such column (its columns: ${columns.slice(0, 30).join(', ')})`, 'Choose one of the file’s columns, or leave the field unmapped.');
    }
    return given;
  }
  if (input.rememberedMapping && mappingFits(input.rememberedMapping, columns)) return input.rememberedMapping;
  // The first rows are enough to tell degrees from pixels.
  return guessMapping(columns, rows.slice(0, 200));
}

/**
 * A keyed import's (a data source sync's) plan with each row's key made a stable location id
 * (events/map-data-source.ts syncKeyId): a key that is not a usable id is given the same id at
 * every sync, never a new one made up from the title.
 */
export function withStableKeyIds(plan: ImportPlan, options: { key?: string | undefined }): ImportPlan {
  if (options.key === undefined) return plan;
  return { ...plan, locations: plan.locations.map((location) => (location.id ? { ...location, id: syncKeyId(location.id) } : location)) };
}

/** The options without a key column. */
export function withoutKey(options: ImportInput['options']): ImportInput['options'] {
  const { key: _key, ...rest } = options;
  return rest;
}

/** The mapping with `key` as the id column, and no other field read from it. */
export function withKey(mapping: ColumnMapping, key: string): ColumnMapping {
  const others = Object.entries(mapping).filter(([field, column]) => field !== 'id' && column !== key);
  return { ...Object.fromEntries(others), id: key };
}

/**
 * A row's `precision` cell (as a Mapfold export writes it) for a row with a position: the
 * precision, or null for none; a word that is none of them is a problem and left out.
 */
export function readPrecision(text: string, row: number, hasPosition: boolean, problems: ImportProblem[]): LocationPrecision | null {
  const value = text.trim().toLowerCase();
  if (value === '' || !hasPosition) return null;
  if ((LOCATION_PRECISIONS as readonly string[]).includes(value)) return value as LocationPrecision;
  problems.push({ row, field: 'precision', message: `Row ${row}: the precision “${truncateCell(text)}” is none of ${LOCATION_PRECISIONS.join(', ')}, so it was left out.` });
  return null;
}

const truncateCell = (text: string) => (text.length > 40 ? `${text.slice(0, 40)}…` : text);

const PLACE_TITLE = new Set(['city', 'town', 'accentcity', 'cityname', 'locality', 'municipality', 'village']);

/** A row's postal address from its cells, or null when it gives none (no position from a floor or x/y either). */
export function addressOf(value: (field: ImportField) => string, titlePlace: 'city' | null = null): PlannedAddress | null {
  const street = [value('address'), value('address2')].map((part) => part.trim()).filter(Boolean).join(', ');
  const address: PlannedAddress = {
    street,
    city: value('city').trim() || (titlePlace ? value('title').trim() : ''),
    state: value('state').trim(),
    postcode: value('postcode').trim(),
    country: value('country').trim(),
  };
  if (!Object.values(address).some((part) => part !== '')) return null;
  // Only a country or region: the title may be the place itself (`name,country` lists of cities).
  const title = value('title').trim();
  if (!address.street && !address.city && !address.postcode && title) return { ...address, city: title, cityFromTitle: true };
  return address;
}

/** The plan of a table's rows read through `mapping`. */
export function planTable(format: ImportFormat, table: Table, mapping: ColumnMapping, problems: ImportProblem[] = []): ImportPlan {
  const { columns, rows } = table;
  const index = new Map(columns.map((column, i) => [column, i]));
  const col = (field: keyof ColumnMapping): number | null => {
    const name = mapping[field];
    return name !== undefined && index.has(name) ? index.get(name)! : null;
  };
  const at = Object.fromEntries(IMPORT_FIELDS.map((field) => [field, col(field)])) as Record<keyof ColumnMapping, number | null>;
  const used = new Set<string>(Object.values(mapping).filter((c): c is string => c !== undefined && index.has(c)));

  if (at.title === null && at.id === null) {
    problems.push({ row: null, field: 'title', message: `None of the columns looks like the locations' names (columns: ${columns.slice(0, 30).join(', ')}). Choose the column that holds them in the column mapping.` });
  }
  const hasLatLng = at.lat !== null && at.lng !== null;
  if ((at.lat === null) !== (at.lng === null)) {
    problems.push({ row: null, field: at.lat === null ? 'lng' : 'lat', message: `The file has a ${at.lat === null ? 'longitude' : 'latitude'} column but no ${at.lat === null ? 'latitude' : 'longitude'} column: choose both in the column mapping, or locations are placed without them.` });
  }

  const cell = (row: string[], i: number | null): string => (i === null ? '' : fromCell((row[i] ?? '').trim()));
  // x and y all between 0 and 1 are fractions of the floor (Mapplic's convention), not pixels.
  let fractional = false;
  if (at.x !== null && at.y !== null) {
    let any = false;
    fractional = rows.every((row) => {
      const x = readNumber(cell(row, at.x));
      const y = readNumber(cell(row, at.y));
      if (x === null || y === null) return true;
      any = true;
      return x >= 0 && x <= 1 && y >= 0 && y <= 1;
    }) && any;
    if (fractional) problems.push({ row: null, field: 'x', message: 'Every x and y is between 0 and 1: they are read as fractions of the floor’s width and height (as Mapplic writes them).' });
  }

  // A list of places whose name column is the place (`city`, `town`): the title is the city it is in.
  const titlePlace = mapping.title && !mapping.city && PLACE_TITLE.has(normaliseColumn(mapping.title)) ? 'city' : null;
  const locations: PlannedLocation[] = [];
  rows.forEach((row, i) => {
    const number = i + 1;
    const fields: PlannedFields = {};
    const text = (field: 'title' | 'about' | 'description' | 'phone' | 'hours' | 'label') => {
      const value = cell(row, at[field]);
      if (value !== '') fields[field] = value;
    };
    text('title');
    text('about');
    text('description');
    text('phone');
    text('hours');
    text('label');
    addContactFields(fields, (field) => cell(row, at[field]));
    for (const field of ['link', 'image', 'thumbnail'] as const) {
      const value = cell(row, at[field]);
      if (value !== '') fields[field] = readLink(value);
    }
    const color = cell(row, at.color);
    if (color) fields.color = readColor(color);
    const marker = cell(row, at.marker).toLowerCase();
    // Anything else is left to the planner, which says what a marker may be.
    if (marker) fields.marker = marker as (typeof MARKER_TYPES)[number];
    const zoom = readNumber(cell(row, at.zoom));
    if (zoom !== null && !Number.isNaN(zoom)) fields.zoom = zoom;
    else if (zoom !== null) problems.push({ row: number, field: 'zoom', message: `Row ${number}: the zoom “${cell(row, at.zoom)}” is not a number, so it was left out.` });
    const hidden = cell(row, at.hidden);
    if (at.hidden !== null) {
      if (YES.test(hidden)) fields.hidden = true;
      else if (NO.test(hidden)) fields.hidden = false;
      else problems.push({ row: number, field: 'hidden', message: `Row ${number}: hidden is “${hidden}”; write yes or no. The location is shown.` });
    }

    let position: PlannedLocation['position'] = null;
    const x = readNumber(cell(row, at.x));
    const y = readNumber(cell(row, at.y));
    const lat = hasLatLng ? readNumber(cell(row, at.lat)) : null;
    const lng = hasLatLng ? readNumber(cell(row, at.lng)) : null;
    if (x !== null && y !== null && !Number.isNaN(x) && !Number.isNaN(y)) position = { kind: fractional ? 'fraction' : 'pixel', x, y };
    else if (lat !== null && lng !== null && !Number.isNaN(lat) && !Number.isNaN(lng)) position = { kind: 'geo', lat, lng };
    else if (x !== null || y !== null || lat !== null || lng !== null) {
      const which = lat !== null || lng !== null ? 'latitude and longitude' : 'x and y';
      problems.push({ row: number, field: lat !== null || lng !== null ? 'lat' : 'x', message: `Row ${number}: the ${which} are not both numbers, so the location is imported without a position; give both as numbers (like 52.52 and 13.40).` });
    }

    const floor = cell(row, at.floor);
    const element = cell(row, at.element);
    const id = cell(row, at.id);
    // Without coordinates, its address is what geocoding places it by (events/geocoding.ts).
    // Not a row on a floor the file names or for a region: its floor or region places it.
    const address = position === null && !floor && !element ? addressOf((field) => cell(row, at[field]), titlePlace) : null;
    const precision = at.precision === null ? null : readPrecision(cell(row, at.precision), number, position !== null, problems);
    locations.push({
      row: number,
      id: id || null,
      fields,
      floor: floor || null,
      position,
      groups: at.groups === null ? [] : splitGroupNames(cell(row, at.groups)),
      element: element || null,
      ...(address ? { address } : {}),
      ...(precision ? { precision } : {}),
    });
  });

  return {
    format,
    floors: [],
    groups: [],
    locations,
    columns: { used: columns.filter((c) => used.has(c)), ignored: columns.filter((c) => !used.has(c)) },
    mapping,
    problems,
  };
}
