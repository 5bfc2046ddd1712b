/**
 * The Texas stores the basemap and store-locator tests put on their maps: the 102 US rows of
 * test/fixtures/import/csv/starbucks-directory-excerpt.csv (a public Starbucks directory; they
 * are all in Texas), as locations on a floor wherever a projection places them: on a floor laid
 * on the street basemap by Web Mercator bounds around Texas ({@link TEXAS}, basemap-viewer),
 * or on the built-in United States map (store-locator).
 */
import { readFileSync } from 'node:fs';
import { LOCATION_DEFAULTS } from '../../../events/compact-locations.js';
import { projectToFloor } from '../../../events/geo-calibration.js';
import { emptyMapDocument, type GeoCalibration, type Location, type MapDocument } from '../../../events/map-document.js';

/** Texas, in Web Mercator bounds, on a {@link TEXAS_SIZE} floor. */
export const TEXAS: GeoCalibration = { kind: 'bounds', projection: 'mercator', north: 36.6, south: 25.7, west: -106.8, east: -93.4 };
export const TEXAS_SIZE = { width: 1000, height: 800 };

/** A CSV's rows (quoted fields with commas and newlines), as records by header. */
export function readCsv(file: string): Record<string, string>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const text = readFileSync(file, 'utf8');
  const endField = () => {
    row.push(field);
    field = '';
  };
  const endRow = () => {
    endField();
    rows.push(row);
    row = [];
  };
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') endField();
    else if (char === '\n') endRow();
    else if (char !== '\r') field += char;
  }
  if (field || row.length) endRow();
  const [header, ...body] = rows;
  return body.map((cells) => Object.fromEntries(header!.map((name, index) => [name, cells[index] ?? ''])));
}

/** The directory's US rows (Texas). */
export function texasStoreRows(): Record<string, string>[] {
  return readCsv('test/fixtures/import/csv/starbucks-directory-excerpt.csv').filter((row) => row.Country === 'US');
}

export interface StorePlacing {
  /** The floor they go on. */
  layer: string;
  /** Where the floor puts a place. */
  geo: GeoCalibration;
  size: { width: number; height: number };
  /** A store's groups (none by default). */
  groups?: (row: Record<string, string>) => string[];
  /** Fields every store gets (opening hours, say). */
  extra?: Partial<Location>;
}

/** The stores as locations (`store-1`, `store-2`…), named, addressed and phoned as the directory has them. */
export function texasStores({ layer, geo, size, groups = () => [], extra = {} }: StorePlacing, rows = texasStoreRows()): Location[] {
  return rows.map((row, index) => ({
    ...LOCATION_DEFAULTS,
    id: `store-${index + 1}`,
    title: row['Store Name']!,
    about: `${row['Street Address']}, ${row.City}, ${row['State/Province']}`,
    phone: row['Phone Number']!,
    ...extra,
    groups: groups(row),
    entrances: [],
    layer,
    position: projectToFloor(geo, size, { lat: Number(row.Latitude), lng: Number(row.Longitude) })!,
  })) as Location[];
}

/** Dallas's stores' pins, and the others'. */
export const DALLAS_PINS = '#db2777';
export const ELSEWHERE_PINS = '#16a34a';

/**
 * The stores on a floor on the street basemap around Texas (grouped Dallas and elsewhere), and
 * a drawn floor beside it (the head office, its reception): the basemap viewer's map.
 */
export function texasBasemapDocument(): { document: MapDocument; count: number; dallas: string } {
  const rows = texasStoreRows();
  const base = emptyMapDocument();
  const locations = texasStores({ layer: 'texas', geo: TEXAS, size: TEXAS_SIZE, groups: (row) => [row.City === 'Dallas' ? 'dallas' : 'elsewhere'] }, rows);
  const document = {
    ...base,
    settings: { ...base.settings, size: TEXAS_SIZE, defaultLayer: 'texas' },
    layers: [
      { id: 'texas', name: 'Texas', file: null, geo: TEXAS, basemap: true },
      { id: 'office', name: 'Head office', file: null },
    ],
    groups: [
      { id: 'dallas', name: 'Dallas', color: DALLAS_PINS, legend: true },
      { id: 'elsewhere', name: 'Elsewhere in Texas', color: ELSEWHERE_PINS, legend: true },
    ],
    locations: [...locations, { ...LOCATION_DEFAULTS, id: 'desk', title: 'Reception', groups: [], entrances: [], layer: 'office', position: { x: 500, y: 400 } }],
  } as MapDocument;
  const dallas = rows.find((row) => row.City === 'Dallas')!['Store Name']!;
  return { document, count: rows.length + 1, dallas };
}
