/**
 * KML placemarks (Google Earth, Google My Maps, store locators' exports), converted to GeoJSON
 * features by @tmcw/togeojson over @xmldom/xmldom's DOM and planned like GeoJSON's: a
 * placemark's name and description, its ExtendedData (Data and SchemaData) as columns, and its
 * style's colour (the icon's for a point, the fill's for a shape) as the location's colour.
 */
import { kml } from '@tmcw/togeojson';
import type { FeatureCollection, Geometry } from 'geojson';
import type { DomainError } from '../../events/errors.js';
import type { ImportPlan } from '../../events/map-import.js';
import { planFeatures, type GeoFeature } from './geo-features.js';
import type { ImportInput } from './import-input.js';
import { importRefusal } from './refusal.js';
import { truncateText } from '../../events/safe-text.js';
import { loadXmlDom } from '../content/lazy-libraries.js';

/** Properties togeojson writes from a placemark's style: how it is drawn, not data of the place. */
const STYLE_PROPERTIES = new Set([
  'styleUrl', 'styleHash', 'styleMap', 'icon', 'icon-color', 'icon-opacity', 'icon-scale', 'icon-heading', 'icon-offset', 'icon-offset-units',
  'label-color', 'label-opacity', 'label-scale', 'fill', 'fill-opacity', 'stroke', 'stroke-opacity', 'stroke-width',
]);

const refusal = (wrong: string, todo: string): DomainError => importRefusal('kml', wrong, todo);

/** The colour a placemark is drawn in: its icon's for a point, its fill's (else outline's) for a shape. */
function styleColour(properties: Record<string, unknown>, geometry: Geometry | null): string | null {
  const point = geometry?.type === 'Point' || geometry?.type === 'MultiPoint';
  const candidates = point ? ['icon-color', 'label-color'] : ['fill', 'stroke', 'icon-color'];
  for (const key of candidates) {
    const value = properties[key];
    if (typeof value === 'string' && /^#[0-9a-f]{6}$/i.test(value)) return value.toLowerCase();
  }
  return null;
}

/** The document's own name (its first <name> under Document or Folder), for the drawn floor. */
function documentName(document: { getElementsByTagName(name: string): ArrayLike<{ parentNode: unknown; textContent: string | null }> }): string {
  const names = document.getElementsByTagName('name');
  for (let i = 0; i < names.length; i++) {
    const parent = names[i]!.parentNode as { nodeName?: string } | null;
    if (parent?.nodeName === 'Document' || parent?.nodeName === 'Folder') return (names[i]!.textContent ?? '').trim();
  }
  return '';
}

export function parseKml(input: ImportInput): ImportPlan {
  // Entities are refused before parsing, as for SVG uploads: a few declared ones can expand to gigabytes.
  if (/<!ENTITY/i.test(input.text)) throw refusal('it declares XML entities (<!ENTITY …>), which are not accepted', 'Save it again without a DOCTYPE and import that.');
  let collection: FeatureCollection;
  let name: string;
  try {
    // A well-formedness error is thrown (and said in words below), not logged.
    const { DOMParser } = loadXmlDom();
    const document = new DOMParser({
      onError: (level, message) => {
        if (level === 'fatalError') throw new Error(message);
      },
    }).parseFromString(input.text, 'text/xml');
    collection = kml(document as unknown as Parameters<typeof kml>[0]) as FeatureCollection;
    name = documentName(document as unknown as Parameters<typeof documentName>[0]);
  } catch {
    throw refusal('it is not well-formed XML (it may be cut short)', 'Export it again from Google Earth or My Maps and import the whole file.');
  }
  if (collection.features.length === 0) {
    throw refusal('it holds no placemarks with a place', 'Export the layer with its placemarks (in My Maps: Export to KML, "Keep data up to date" unticked) and import that.');
  }
  const features: GeoFeature[] = collection.features.map((feature) => {
    const properties: Record<string, unknown> = { ...(feature.properties ?? {}) };
    // togeojson gives an HTML description as {"@type": "html", value}: the location's description takes the HTML (sanitised on apply).
    const description = properties.description;
    if (typeof description === 'object' && description !== null && 'value' in description) properties.description = (description as { value: unknown }).value;
    const colour = styleColour(properties, feature.geometry);
    if (colour && properties.color === undefined) properties.color = colour;
    return { type: 'Feature', id: feature.id, properties, geometry: feature.geometry };
  });
  const fromFile = input.filename.replace(/^.*[\\/]/, '').replace(/\.km[lz]$/i, '').trim();
  return planFeatures(features, input, { format: 'kml', name: truncateText(name || fromFile || 'Map', 100), hiddenColumns: STYLE_PROPERTIES });
}
