/**
 * The parser of each import format: a file (ImportInput) to a plan (events/map-import.ts).
 * One line per format, each parser in a file of its own; every format has one (the type says so).
 */
import type { ImportFormat } from '../../events/map-import.js';
import { parseCsv } from './csv-import.js';
import { parseGeoJson } from './geojson.js';
import type { ImportParser } from './import-input.js';
import { parseKml } from './kml.js';
import { parseMapfold } from './mapfold-import.js';
import { parseMapplicCsv } from './mapplic-csv.js';
import { parseMapplicJson } from './mapplic-json.js';
import { parseStoreLocator } from './store-locator.js';
import { parseSvg } from './svg.js';

export type { ImportInput, ImportParser } from './import-input.js';

export const parsers: Record<ImportFormat, ImportParser> = {
  mapfold: parseMapfold,
  csv: parseCsv,
  'store-locator': parseStoreLocator,
  mapplic: parseMapplicJson,
  'mapplic-csv': parseMapplicCsv,
  svg: parseSvg,
  geojson: parseGeoJson,
  kml: parseKml,
};
