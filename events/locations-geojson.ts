/**
 * A map's locations as GeoJSON (RFC 7946): every location with a position on a calibrated floor
 * (one whose latitude/longitude are known, events/geo-calibration.ts) as a Point, its fields as
 * properties. Other tools (QGIS, web maps, another Mapfold map through its import) read it; a
 * floor nobody calibrated has no place on the globe, so its locations are left out.
 */
import { floorToGeo } from './geo-calibration.js';
import { joinGroupNames } from './group-list.js';
import type { Location, LocationPrecision, MapDocument } from './map-document.js';

/** A location's fields as a feature's properties (the names the import's guess maps to the same fields). */
export interface LocationProperties {
  id: string;
  title: string;
  about: string;
  description: string;
  /** The floor's name. */
  floor: string;
  /** Group names, as a CSV cell writes them (events/group-list.ts), so a name holding `;` or `,` reads back whole. */
  groups: string;
  link: string | null;
  phone: string;
  hours: string;
  image: string | null;
  thumbnail: string | null;
  color: string | null;
  marker: Location['marker'];
  label: string;
  zoom: number | null;
  element: string | null;
  hidden: boolean;
  /** How a geocoded position was found; null when placed by hand or by given coordinates. */
  precision: LocationPrecision | null;
}

export interface LocationFeature {
  type: 'Feature';
  id: string;
  geometry: { type: 'Point'; coordinates: [number, number] };
  properties: LocationProperties;
}

export interface LocationFeatureCollection {
  type: 'FeatureCollection';
  features: LocationFeature[];
}

/** Up to 7 decimals (about a centimetre), as RFC 7946 advises against needless precision. */
const degrees = (value: number) => Math.round(value * 1e7) / 1e7;

/** The map's located locations on calibrated floors, as a FeatureCollection of Points. */
export function exportGeoJson(document: MapDocument): LocationFeatureCollection {
  const groupName = new Map(document.groups.map((g) => [g.id, g.name]));
  const layers = new Map(document.layers.map((l) => [l.id, l]));
  const features: LocationFeature[] = [];
  for (const location of document.locations) {
    const layer = layers.get(location.layer);
    if (!layer?.geo || !location.position) continue;
    const size = { width: layer.file?.width ?? document.settings.size.width, height: layer.file?.height ?? document.settings.size.height };
    const place = floorToGeo(layer.geo, size, location.position);
    if (!place) continue;
    features.push({
      type: 'Feature',
      id: location.id,
      geometry: { type: 'Point', coordinates: [degrees(place.lng), degrees(place.lat)] },
      properties: {
        id: location.id,
        title: location.title,
        about: location.about,
        description: location.description,
        floor: layer.name,
        groups: joinGroupNames(location.groups.map((g) => groupName.get(g) ?? g)),
        link: location.link,
        phone: location.phone,
        hours: location.hours,
        image: location.image,
        thumbnail: location.thumbnail,
        color: location.color,
        marker: location.marker,
        label: location.label,
        zoom: location.zoom,
        element: location.element,
        hidden: location.hidden,
        precision: location.precision ?? null,
      },
    });
  }
  return { type: 'FeatureCollection', features };
}
