/**
 * Locations as CSV: export a map's locations with every field, so the file imports into a blank
 * map (POST /api/maps/{id}/import) with nothing lost, creating the floors and groups it names.
 * Pure (papaparse runs in the browser and in Node). Reading a CSV is the import endpoint's
 * (server/import/table-plan.ts), which takes the injection guard off with {@link fromCell}.
 */
import Papa from 'papaparse';
import type { Layer, Location, MapDocument } from './map-document.js';
import { floorToGeo } from './geo-calibration.js';
import { joinGroupNames } from './group-list.js';

/**
 * The export's columns, in order; each is the name of the import field it fills
 * (events/map-import.ts IMPORT_FIELDS), so the import's guess maps every one to itself.
 * `floor` is the floor's name; `lat`/`lng` are given where the floor is calibrated (`x`/`y`,
 * exact in the floor's units, are what a round trip places the location by).
 */
export const CSV_COLUMNS = [
  'id', 'title', 'about', 'description', 'floor', 'x', 'y', 'lat', 'lng', 'element', 'zoom', 'marker', 'color', 'label', 'groups',
  'link', 'phone', 'hours', 'image', 'thumbnail', 'hidden', 'precision',
] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];

/** A plain number (a coordinate, a zoom) is data to any spreadsheet, even with a leading minus. */
const PLAIN_NUMBER = /^[-+]?\d+(\.\d+)?(e[-+]?\d+)?$/i;
/** What spreadsheets run as a formula (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A cell as written: one a spreadsheet would run as a formula gets a leading apostrophe. */
export function toCell(value: string): string {
  return FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
}

/** A cell as read back: the apostrophe {@link toCell} put before a formula-like value taken off. */
export function fromCell(value: string): string {
  return value.startsWith("'") && FORMULA_START.test(value.slice(1)) && !PLAIN_NUMBER.test(value.slice(1)) ? value.slice(1) : value;
}

/** Up to 7 decimals (about a centimetre): enough for a place, without float noise. */
const degrees = (value: number) => String(Math.round(value * 1e7) / 1e7);

/** The map's locations as CSV, one row each, with the header {@link CSV_COLUMNS}. */
export function exportLocationsCsv(document: MapDocument): string {
  const groupName = new Map(document.groups.map((g) => [g.id, g.name]));
  const layers = new Map(document.layers.map((l) => [l.id, l]));
  const placeOf = (layer: Layer | undefined, location: Location) => {
    if (!layer?.geo || !location.position) return null;
    const size = { width: layer.file?.width ?? document.settings.size.width, height: layer.file?.height ?? document.settings.size.height };
    return floorToGeo(layer.geo, size, location.position);
  };
  const rows = document.locations.map((l): string[] => {
    const layer = layers.get(l.layer);
    const place = placeOf(layer, l);
    const row: Record<CsvColumn, string> = {
      id: l.id,
      title: l.title,
      about: l.about,
      description: l.description,
      floor: layer?.name ?? l.layer,
      x: l.position ? String(l.position.x) : '',
      y: l.position ? String(l.position.y) : '',
      lat: place ? degrees(place.lat) : '',
      lng: place ? degrees(place.lng) : '',
      element: l.element ?? '',
      zoom: l.zoom === null ? '' : String(l.zoom),
      marker: l.marker,
      color: l.color ?? '',
      label: l.label,
      groups: joinGroupNames(l.groups.map((g) => groupName.get(g) ?? g)),
      link: l.link ?? '',
      phone: l.phone,
      hours: l.hours,
      image: l.image ?? '',
      thumbnail: l.thumbnail ?? '',
      hidden: l.hidden ? 'yes' : 'no',
      // How a geocoded position was found ('' when placed by hand or by given coordinates).
      precision: l.position ? (l.precision ?? '') : '',
    };
    return CSV_COLUMNS.map((column) => toCell(row[column]));
  });
  return Papa.unparse({ fields: [...CSV_COLUMNS], data: rows }, { newline: '\r\n' });
}
