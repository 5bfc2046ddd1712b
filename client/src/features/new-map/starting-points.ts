/**
 * Where a new map starts (issue 4): blank, an uploaded floor plan or image, a file of places
 * imported through the server (issue 15), a street map (issue 29: one floor on the street
 * basemap), or a built-in map.
 * Pure helpers, shared by the page and its tests.
 */
import { mercatorBoundsFor, type LatLngBox } from '../../../../events/basemap-bounds';
import { emptyMapDocument, type LayerFile, type MapDocument } from '../../../../events/map-document';
import { truncateText } from '../../../../events/safe-text';
import type { UploadedFile } from '../../lib/upload/upload-api';

export type StartingPointId = 'blank' | 'upload' | 'import' | 'street' | 'world' | 'us-states';

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
  { id: 'street', title: 'Street map', summary: 'Your places on a map of real streets and towns.', placeholder: 'e.g. Our stores' },
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

/** What a street map first shows: the part of the world the visitor's time zone is in. */
export interface StreetMapArea extends LatLngBox {
  /** Said under the card: "The map opens on {name}". */
  name: string;
}

const WORLD: StreetMapArea = { name: 'the whole world', north: 75, south: -58, west: -180, east: 180 };
const AREAS: Record<string, StreetMapArea> = {
  Europe: { name: 'Europe', north: 71, south: 34, west: -25, east: 45 },
  Africa: { name: 'Africa', north: 38, south: -36, west: -20, east: 52 },
  Asia: { name: 'Asia', north: 56, south: -11, west: 25, east: 150 },
  Australia: { name: 'Australia and New Zealand', north: -9, south: -48, west: 110, east: 180 },
  NorthAmerica: { name: 'North America', north: 60, south: 14, west: -130, east: -60 },
  SouthAmerica: { name: 'South America', north: 13, south: -56, west: -82, east: -34 },
};
/** South America's zones among the America/… ones (the rest are North and Central America and the Caribbean). */
const SOUTH_AMERICA =
  /^America\/(Argentina\/.*|Buenos_Aires|Sao_Paulo|Santiago|Punta_Arenas|Lima|Bogota|Caracas|La_Paz|Montevideo|Asuncion|Guayaquil|Cayenne|Paramaribo|Guyana|Belem|Fortaleza|Recife|Maceio|Bahia|Manaus|Cuiaba|Campo_Grande|Porto_Velho|Boa_Vista|Rio_Branco|Araguaina|Santarem|Noronha|Eirunepe)$/;

/** The area a street map opens on for a time zone (`Europe/Berlin`); the world when it says nothing. */
export function streetMapArea(timeZone: string | undefined): StreetMapArea {
  const zone = timeZone ?? '';
  if (zone.startsWith('America/')) return SOUTH_AMERICA.test(zone) ? AREAS.SouthAmerica! : AREAS.NorthAmerica!;
  if (/^(Australia\/|Pacific\/(Auckland|Chatham)$|Antarctica\/Macquarie$)/.test(zone)) return AREAS.Australia!;
  const continent = zone.split('/')[0]!;
  return continent === 'Europe' || continent === 'Africa' || continent === 'Asia' ? AREAS[continent]! : WORLD;
}

/** The visitor's time zone, if the browser tells it. */
export function visitorTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/**
 * A street map: one floor on the street basemap, no drawing, its Web Mercator bounds the area
 * widened to the map's size (its units as long across as down), for places added or imported.
 */
export function documentForStreetMap(area: LatLngBox = WORLD): MapDocument {
  const document = emptyMapDocument();
  const geo = mercatorBoundsFor(area, document.settings.size);
  document.layers = [{ id: 'map', name: 'Map', file: null, geo, basemap: true }];
  document.settings = { ...document.settings, defaultLayer: 'map' };
  return document;
}
