/**
 * Import files as map builders have them, generated: GeoJSON, KML, CSV, Mapplic JSON and SVG
 * whose places carry legal but awkward ids and names (awkward-text.ts), some equal to ids the
 * map has already. Each file is written from one list of places, so a failing case shrinks to
 * the one place that broke it. Used by test/server/core-contract.property.test.ts.
 */
import fc from 'fast-check';
import { awkwardFileId } from './awkward-text.js';

export const FILE_FORMATS = ['geojson', 'kml', 'csv', 'mapplic', 'svg'] as const;
export type FileFormat = (typeof FILE_FORMATS)[number];

/**
 * Shapes a place may have. `line` and `degenerate` (a line of two identical points) are drawn
 * but are no places; `degenerate` is behind a flag while issue 26's degenerate-calibration bug
 * is open (see the test).
 */
export type Shape = 'point' | 'polygon' | 'line' | 'degenerate';

export interface PlaceSeed {
  /** The file's id for it; `existing` takes the id of something the map has (picked at run time). */
  id: { fresh: string | number | null } | { existing: number };
  name: string;
  group: string | null;
  /** 0 to 1 across the file's area (lat/lng, fractions or pixels, as the format says). */
  u: number;
  v: number;
  shape: Shape;
}

export interface FileSeed {
  format: FileFormat;
  /** The file's own name for its floor (a KML Document's, an SVG's title, a Mapplic level's). */
  floorName: string;
  floorId: string;
  /** Where on Earth its places are: a campus (a few hundred metres) or a continent. */
  area: { lat: number; lng: number; span: number };
  places: PlaceSeed[];
  /** The SVG's viewBox size. */
  size: { width: number; height: number };
  /** A CSV's places by latitude/longitude, or by x/y fractions with a floor column. */
  columns: 'latlng' | 'xy';
  /** The floor the file names is one the map has (its id, or its name), picked at run time; else `floorName`. */
  sameFloor: { existing: number; byName: boolean } | null;
}

const unit = fc.double({ min: 0, max: 1, noNaN: true });

/** `text` is what names in the file are drawn from (awkward-text.ts fileText). */
export function fileSeed(options: { text: fc.Arbitrary<string>; shapes: readonly Shape[]; viewBoxes: ReadonlyArray<{ width: number; height: number }> }): fc.Arbitrary<FileSeed> {
  const awkwardText = options.text;
  const place: fc.Arbitrary<PlaceSeed> = fc.record({
    id: fc.oneof({ weight: 4, arbitrary: awkwardFileId.map((fresh) => ({ fresh })) }, { weight: 1, arbitrary: fc.nat(50).map((existing) => ({ existing })) }),
    name: awkwardText,
    group: fc.option(awkwardText, { nil: null, freq: 2 }),
    u: unit,
    v: unit,
    shape: fc.constantFrom(...options.shapes),
  });
  return fc.record({
    format: fc.constantFrom(...FILE_FORMATS),
    floorName: awkwardText,
    floorId: awkwardText,
    area: fc.record({
      lat: fc.double({ min: -60, max: 70, noNaN: true }),
      lng: fc.double({ min: -170, max: 170, noNaN: true }),
      span: fc.constantFrom(0.003, 0.5, 20),
    }),
    places: fc.array(place, { minLength: 1, maxLength: 6 }),
    size: fc.constantFrom(...options.viewBoxes),
    columns: fc.constantFrom('latlng' as const, 'xy' as const),
    sameFloor: fc.option(fc.record({ existing: fc.nat(), byName: fc.boolean() }), { nil: null }),
  });
}

/** A place with its id worked out (`existing` replaced by one of the map's ids, or dropped when it has none). */
export interface Place extends Omit<PlaceSeed, 'id'> {
  id: string | number | null;
}

/** The seed with its floor named as one of the map's (`layers`) when it says so. */
export function resolveFloor(seed: FileSeed, layers: ReadonlyArray<{ id: string; name: string }>): FileSeed {
  const layer = seed.sameFloor && layers.length > 0 ? layers[seed.sameFloor.existing % layers.length]! : null;
  if (!layer) return seed;
  return { ...seed, floorId: layer.id, floorName: seed.sameFloor!.byName ? layer.name : seed.floorName };
}

export function resolvePlaces(seed: FileSeed, existingIds: readonly string[]): Place[] {
  return seed.places.map((place) => ({
    ...place,
    id: 'fresh' in place.id ? place.id.fresh : existingIds.length > 0 ? existingIds[place.id.existing % existingIds.length]! : null,
  }));
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;
function lngLat(seed: FileSeed, place: Place, du = 0, dv = 0): [number, number] {
  return [round(seed.area.lng + (place.u + du) * seed.area.span), round(Math.max(-85, Math.min(85, seed.area.lat + (place.v + dv) * seed.area.span * 0.6)))];
}
/** A small square (a region) at the place, its side a tenth of the area. */
function ring(seed: FileSeed, place: Place): Array<[number, number]> {
  const d = 0.1;
  return [lngLat(seed, place), lngLat(seed, place, d, 0), lngLat(seed, place, d, d), lngLat(seed, place, 0, d), lngLat(seed, place)];
}
function line(seed: FileSeed, place: Place): Array<[number, number]> {
  return place.shape === 'degenerate' ? [lngLat(seed, place), lngLat(seed, place)] : [lngLat(seed, place), lngLat(seed, place, 0.1, 0.05)];
}

function geometryOf(seed: FileSeed, place: Place): object {
  switch (place.shape) {
    case 'point':
      return { type: 'Point', coordinates: lngLat(seed, place) };
    case 'polygon':
      return { type: 'Polygon', coordinates: [ring(seed, place)] };
    case 'line':
    case 'degenerate':
      return { type: 'LineString', coordinates: line(seed, place) };
  }
}

function geoJson(seed: FileSeed, places: readonly Place[]): string {
  return JSON.stringify({
    type: 'FeatureCollection',
    name: seed.floorName,
    features: places.map((place) => ({
      type: 'Feature',
      ...(place.id !== null ? { id: place.id } : {}),
      properties: { name: place.name, ...(place.group !== null ? { category: place.group } : {}) },
      geometry: geometryOf(seed, place),
    })),
  });
}

const xml = (text: string | number) => String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const coordinates = (points: ReadonlyArray<[number, number]>) => points.map(([lng, lat]) => `${lng},${lat}`).join(' ');

function kml(seed: FileSeed, places: readonly Place[]): string {
  const placemarks = places.map((place) => {
    const shape =
      place.shape === 'point'
        ? `<Point><coordinates>${coordinates([lngLat(seed, place)])}</coordinates></Point>`
        : place.shape === 'polygon'
          ? `<Polygon><outerBoundaryIs><LinearRing><coordinates>${coordinates(ring(seed, place))}</coordinates></LinearRing></outerBoundaryIs></Polygon>`
          : `<LineString><coordinates>${coordinates(line(seed, place))}</coordinates></LineString>`;
    const data = place.group !== null ? `<ExtendedData><Data name="category"><value>${xml(place.group)}</value></Data></ExtendedData>` : '';
    return `<Placemark${place.id !== null ? ` id="${xml(place.id)}"` : ''}><name>${xml(place.name)}</name>${data}${shape}</Placemark>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>${xml(seed.floorName)}</name>${placemarks.join('')}</Document></kml>\n`;
}

const cell = (value: string | number | null) => `"${String(value ?? '').replace(/"/g, '""')}"`;

/**
 * A store list: id, name, category and latitude/longitude (polygons and lines are points here);
 * or a floor plan's list: x and y as fractions of the floor, and the floor by id or name.
 */
function csv(seed: FileSeed, places: readonly Place[]): string {
  if (seed.columns === 'xy') {
    const floor = seed.sameFloor?.byName ? seed.floorName : seed.floorId;
    const rows = places.map((place) => [cell(place.id), cell(place.name), cell(place.group), cell(round(place.u)), cell(round(place.v)), cell(floor)].join(','));
    return ['id,title,category,x,y,floor', ...rows].join('\r\n') + '\r\n';
  }
  const rows = places.map((place) => {
    const [lng, lat] = lngLat(seed, place);
    return [cell(place.id), cell(place.name), cell(place.group), cell(lat), cell(lng)].join(',');
  });
  return ['id,name,category,latitude,longitude', ...rows].join('\r\n') + '\r\n';
}

/** A Mapplic map: one level (no drawing), categories, locations at fractions of the map. */
function mapplic(seed: FileSeed, places: readonly Place[]): string {
  const groups = [...new Set(places.flatMap((place) => (place.group !== null ? [place.group] : [])))];
  return JSON.stringify({
    mapwidth: seed.size.width,
    mapheight: seed.size.height,
    categories: groups.map((group, i) => ({ id: group, title: group, color: ['#e11d48', '#2563eb', 'rgb(10, 200, 30)', 'purple'][i % 4] })),
    levels: [
      {
        id: seed.floorId,
        title: seed.floorName,
        locations: places.map((place) => ({
          ...(place.id !== null ? { id: place.id } : {}),
          title: place.name,
          x: round(place.u),
          y: round(place.v),
          ...(place.group !== null ? { category: place.group } : {}),
        })),
      },
    ],
  });
}

/** A drawing whose shapes are regions: each place a rectangle (or a group of one) with its id and title. */
function svg(seed: FileSeed, places: readonly Place[]): string {
  const { width, height } = seed.size;
  const shapes = places.map((place) => {
    const x = round(place.u * width * 0.9);
    const y = round(place.v * height * 0.9);
    const id = place.id !== null ? ` id="${xml(place.id)}"` : '';
    const title = `<title>${xml(place.name)}</title>`;
    const rect = `<rect x="${x}" y="${y}" width="${round(width * 0.1)}" height="${round(height * 0.1)}"`;
    return place.shape === 'polygon' ? `<g${id}>${title}${rect}/></g>` : `${rect}${id}>${title}</rect>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}"><title>${xml(seed.floorName)}</title><g id="shops">${shapes.join('')}</g></svg>\n`;
}

/** The file's bytes, name and media type, as a browser would send them. */
export function writeFile(seed: FileSeed, places: readonly Place[]): { body: string; filename: string; contentType: string } {
  switch (seed.format) {
    case 'geojson':
      return { body: geoJson(seed, places), filename: 'places.geojson', contentType: 'application/geo+json' };
    case 'kml':
      return { body: kml(seed, places), filename: 'places.kml', contentType: 'application/vnd.google-earth.kml+xml' };
    case 'csv':
      return { body: csv(seed, places), filename: 'stores.csv', contentType: 'text/csv' };
    case 'mapplic':
      return { body: mapplic(seed, places), filename: 'mapplic.json', contentType: 'application/json' };
    case 'svg':
      return { body: svg(seed, places), filename: 'floor.svg', contentType: 'image/svg+xml' };
  }
}
