/**
 * Where a new map starts (issue 4): blank, an uploaded floor plan or image, or a built-in map.
 * Pure helpers, shared by the page and its tests.
 */
import { emptyMapDocument, type LayerFile, type MapDocument } from '../../../../events/map-document';
import type { UploadedFile } from './api/new-map-api';

export type StartingPointId = 'blank' | 'upload' | 'world' | 'us-states';

export interface StartingPoint {
  id: StartingPointId;
  title: string;
  /** What the card says under its title. */
  summary: string;
  /** A built-in map's id on the server (`/api/templates/{id}`). */
  template?: 'world' | 'us-states';
}

export const STARTING_POINTS: readonly StartingPoint[] = [
  { id: 'blank', title: 'Blank', summary: 'An empty floor. Add a plan and places later.' },
  { id: 'upload', title: 'Upload a plan', summary: 'An SVG drawing or a PNG, JPEG or WebP image.' },
  { id: 'world', title: 'World countries', summary: 'Every country a clickable region.', template: 'world' },
  { id: 'us-states', title: 'US states', summary: 'All 50 states and DC, each one clickable.', template: 'us-states' },
];

/** File types the file picker offers (the server decides by the content in the end). */
export const ACCEPT = '.svg,.png,.jpg,.jpeg,.webp,image/svg+xml,image/png,image/jpeg,image/webp';

/** The upload limit before the server has said (UPLOAD_LIMIT's default). */
export const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) {
    const mb = bytes / (1024 * 1024);
    return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
  }
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

/** The server's own words for a file over the limit, so the message is the same either way. */
export function tooLargeMessage(maxBytes: number): string {
  return `The file is too large (the limit is ${formatBytes(maxBytes)}).`;
}

/** A file's name without its extension and path, tidied for a title or a layer name: `riverside-ground_2.svg` → `Riverside ground 2`. */
export function nameFromFile(fileName: string, max = 100): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const stem = base.replace(/\.[A-Za-z0-9]{1,5}$/, '');
  const words = stem.replace(/[_-]+/g, ' ').replace(/\s+/g, ' ').trim().slice(0, max).trim();
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
