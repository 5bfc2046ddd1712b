/**
 * The 25,000-store chain fixture (test/fixtures/import/csv/store-chain-25k.csv.gz, real GeoNames
 * places; see SOURCES.md there) for tests and benches of big maps: the CSV's text, and stores
 * whose place is known, to check coordinates after an import.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

export const STORE_CHAIN_FILE = new URL('../fixtures/import/csv/store-chain-25k.csv.gz', import.meta.url);
export const STORE_CHAIN_ROWS = 25_000;

/** Stores by id with their name, country, latitude, longitude and category, as the CSV gives them. */
export const KNOWN_STORES = [
  { id: 'S00001', name: 'Shanghai', country: 'China', lat: 31.22222, lng: 121.45806, category: 'Flagship' },
  { id: 'S00020', name: 'New York City', country: 'United States', lat: 40.71427, lng: -74.00597, category: 'Flagship' },
  { id: 'S00049', name: 'Sydney', country: 'Australia', lat: -33.86785, lng: 151.20732, category: 'Flagship' },
  { id: 'S00141', name: 'Paris', country: 'France', lat: 48.85341, lng: 2.3488, category: 'Flagship' },
  { id: 'S03736', name: 'Reykjavík', country: 'Iceland', lat: 64.13548, lng: -21.89541, category: 'Superstore' },
  { id: 'S25000', name: 'Sarasota Springs', country: 'United States', lat: 27.30894, lng: -82.47954, category: 'Store' },
] as const;

let cached: string | undefined;

/** The fixture's CSV text (1.7 MB), read once per process. */
export function storeChainCsv(): string {
  cached ??= gunzipSync(readFileSync(STORE_CHAIN_FILE)).toString('utf8');
  return cached;
}
