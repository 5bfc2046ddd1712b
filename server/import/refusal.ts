/**
 * Refusals of an import in the user's words (issue 15, item 6): what the file was taken for,
 * what is wrong, and what to do, never a schema's jargon. Thrown as invalid-argument, as the
 * app's other refusals are, so the editor shows the message where the user is looking.
 */
import { DomainError } from '../../events/errors.js';
import { IMPORT_FORMAT_NAMES, type ImportFormat } from '../../events/map-import.js';

/** "The file was read as GeoJSON, but it holds no features. Export the layer again…". */
export function importRefusal(format: ImportFormat | null, wrong: string, todo: string): DomainError {
  const taken = format ? `The file was read as ${IMPORT_FORMAT_NAMES[format]}, but ${wrong}.` : `${wrong.charAt(0).toUpperCase()}${wrong.slice(1)}.`;
  return new DomainError('invalid-argument', `${taken} ${todo}`);
}

/** The kinds of file the import reads, in words, for "what to do". */
export const READABLE_KINDS =
  'Import a CSV or TSV table of locations, a Mapplic map (JSON or CSV), GeoJSON, KML or KMZ, a store-locator list (JSON), an SVG drawing, or a Mapfold map exported as JSON.';
