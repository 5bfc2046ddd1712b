/**
 * Where a new map starts (issue 4): blank, an uploaded floor plan or image, a file of places
 * imported through the server (issue 15), or a built-in map.
 * Pure helpers, shared by the page and its tests.
 */
import { emptyMapDocument, type LayerFile, type MapDocument } from '../../../../events/map-document';
import { truncateText } from '../../../../events/safe-text';
import type { UploadedFile } from '../../lib/upload/upload-api';

export type StartingPointId = 'blank' | 'upload' | 'import' | 'world' | 'us-states';

export interface StartingPoint {
  id: StartingPointId;
  title: string;
  /** What the card says under its title. */
  summary: string;
  /** An example title for a map made from it. */
  placeholder: string;
  /** A built-in map's id on the server (`/api/templates/{id}`). */
  template?: 'world' | 'us-states';
}

export const STARTING_POINTS: readonly StartingPoint[] = [
  { id: 'blank', title: 'Blank', summary: 'An empty floor. Add a plan and places later.', placeholder: 'e.g. Head office, floor 2' },
  { id: 'upload', title: 'Upload a plan', summary: 'An SVG drawing or a PNG, JPEG or WebP image.', placeholder: 'e.g. Riverside Mall, ground floor' },
  { id: 'import', title: 'Import a file', summary: 'Your places from a CSV, Mapplic, GeoJSON or KML file, previewed first.', placeholder: 'e.g. Our stores' },
  { id: 'world', title: 'World countries', summary: 'Every country a clickable region.', placeholder: 'e.g. Our offices worldwide', template: 'world' },
  { id: 'us-states', title: 'US states', summary: 'All 50 states and DC, each one clickable.', placeholder: 'e.g. Sales regions', template: 'us-states' },
];

/** A file's name without its extension and path, tidied for a title or a layer name: `riverside-ground_2.svg` → `Riverside ground 2`. */
export function nameFromFile(fileName: string, max = 100): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const stem = base.replace(/\.[A-Za-z0-9]{1,5}$/, '');
  const words = truncateText(stem.replace(/[_-]+/g, ' ').replace(/\s+/g, ' ').trim(), max).trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A blank map whose single floor shows the uploaded file, sized to it. */
export function documentForUpload(file: UploadedFile, fileName: string): MapDocument {
  const document = emptyMapDocument();
  const layerFile: LayerFile = { kind: file.kind, url: file.url, width: file.width, height: file.height };
  const [ground] = document.layers;
  document.layers = [{ id: ground!.id, name: nameFromFile(fileName) || 'Floor plan', file: layerFile }];
  document.settings = { ...document.settings, size: { width: file.width, height: file.height } };
  return document;
}
