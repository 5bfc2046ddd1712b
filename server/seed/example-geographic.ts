/**
 * The geographic case study's example map: Brightline Solar's service territories and
 * installation offices across the United States, built from the US-states built-in map. States
 * the company serves are coloured by territory (each territory a group); every office is a pin
 * with its address, hours and phone. Deterministic, so seeding it twice gives the same document.
 */
import { geoAlbersUsa } from 'd3-geo';
import { MapDocument, type LayerFile, type MapDocument as Document } from '../../events/map-document.js';
import { builtInMap, builtInMapDocument, type BuiltInMap } from '../templates/built-in-maps.js';

export const GEOGRAPHIC_MAP_ID = 'example-geographic';
export const GEOGRAPHIC_TITLE = 'Brightline Solar service territories (example)';

/** Each territory: its group and the states (FIPS codes, the built-in map's `state-{fips}` ids) it covers. */
export const TERRITORIES = [
  { id: 'pacific', name: 'Pacific', color: '#0284c7', states: ['53', '41', '06', '32'] },
  { id: 'mountain', name: 'Mountain', color: '#7c3aed', states: ['04', '08', '49', '35', '16'] },
  { id: 'south-central', name: 'South Central', color: '#ea580c', states: ['48', '40', '22'] },
  { id: 'southeast', name: 'Southeast', color: '#16a34a', states: ['12', '13', '37', '45'] },
  { id: 'northeast', name: 'Northeast', color: '#db2777', states: ['36', '34', '25', '09', '42'] },
] as const;

type TerritoryId = (typeof TERRITORIES)[number]['id'];

interface Office {
  id: string;
  city: string;
  territory: TerritoryId;
  address: string;
  phone: string;
  /** Longitude, latitude. */
  at: [number, number];
  crews: number;
}

export const OFFICES: Office[] = [
  { id: 'seattle', city: 'Seattle, WA', territory: 'pacific', address: '1420 Westlake Ave N', phone: '+1 206 555 0110', at: [-122.33, 47.61], crews: 6 },
  { id: 'portland', city: 'Portland, OR', territory: 'pacific', address: '825 SE Water Ave', phone: '+1 503 555 0114', at: [-122.68, 45.52], crews: 4 },
  { id: 'sacramento', city: 'Sacramento, CA', territory: 'pacific', address: '2100 K St', phone: '+1 916 555 0121', at: [-121.49, 38.58], crews: 5 },
  { id: 'los-angeles', city: 'Los Angeles, CA', territory: 'pacific', address: '3250 E Olympic Blvd', phone: '+1 213 555 0126', at: [-118.24, 34.05], crews: 11 },
  { id: 'las-vegas', city: 'Las Vegas, NV', territory: 'pacific', address: '6450 S Durango Dr', phone: '+1 702 555 0131', at: [-115.14, 36.17], crews: 4 },
  { id: 'phoenix', city: 'Phoenix, AZ', territory: 'mountain', address: '4020 E University Dr', phone: '+1 602 555 0135', at: [-112.07, 33.45], crews: 9 },
  { id: 'salt-lake-city', city: 'Salt Lake City, UT', territory: 'mountain', address: '955 W 2100 S', phone: '+1 801 555 0142', at: [-111.89, 40.76], crews: 3 },
  { id: 'denver', city: 'Denver, CO', territory: 'mountain', address: '3801 Brighton Blvd', phone: '+1 303 555 0147', at: [-104.99, 39.74], crews: 7 },
  { id: 'albuquerque', city: 'Albuquerque, NM', territory: 'mountain', address: '2300 Menaul Blvd NE', phone: '+1 505 555 0152', at: [-106.65, 35.08], crews: 3 },
  { id: 'dallas', city: 'Dallas, TX', territory: 'south-central', address: '1700 Irving Blvd', phone: '+1 214 555 0158', at: [-96.8, 32.78], crews: 8 },
  { id: 'austin', city: 'Austin, TX', territory: 'south-central', address: '5200 E Ben White Blvd', phone: '+1 512 555 0163', at: [-97.74, 30.27], crews: 6 },
  { id: 'houston', city: 'Houston, TX', territory: 'south-central', address: '8400 Westpark Dr', phone: '+1 713 555 0169', at: [-95.37, 29.76], crews: 9 },
  { id: 'atlanta', city: 'Atlanta, GA', territory: 'southeast', address: '1100 Howell Mill Rd NW', phone: '+1 404 555 0174', at: [-84.39, 33.75], crews: 7 },
  { id: 'charlotte', city: 'Charlotte, NC', territory: 'southeast', address: '2915 Griffith St', phone: '+1 704 555 0179', at: [-80.84, 35.23], crews: 5 },
  { id: 'orlando', city: 'Orlando, FL', territory: 'southeast', address: '4700 L B McLeod Rd', phone: '+1 407 555 0185', at: [-81.38, 28.54], crews: 8 },
  { id: 'philadelphia', city: 'Philadelphia, PA', territory: 'northeast', address: '2401 E Hagert St', phone: '+1 215 555 0190', at: [-75.17, 39.95], crews: 5 },
  { id: 'new-york', city: 'New York, NY', territory: 'northeast', address: '55 Washington St, Brooklyn', phone: '+1 718 555 0195', at: [-74.0, 40.71], crews: 6 },
  { id: 'boston', city: 'Boston, MA', territory: 'northeast', address: '300 A St', phone: '+1 617 555 0199', at: [-71.06, 42.36], crews: 4 },
];

/**
 * us-atlas's states are already projected with d3's Albers USA at scale 1300 around the middle
 * of a 975 × 610 frame; the same projection puts the offices in the map's coordinates.
 */
const projection = geoAlbersUsa().scale(1300).translate([487.5, 305]);

export function geographicMap(): BuiltInMap {
  return builtInMap('us-states');
}

/** The document, its single layer holding the US states SVG stored as `file`. */
export function geographicDocument(file: LayerFile): Document {
  const map = geographicMap();
  const base = builtInMapDocument(map, file);
  const territoryOf = new Map<string, (typeof TERRITORIES)[number]>();
  for (const territory of TERRITORIES) for (const fips of territory.states) territoryOf.set(`state-${fips}`, territory);
  const officesIn = (territory: TerritoryId) => OFFICES.filter((o) => o.territory === territory).map((o) => o.city);

  const states = base.locations.map((location) => {
    const territory = territoryOf.get(location.id);
    // States not served yet stay on the map, grey and out of the list and search.
    if (!territory) return { ...location, hidden: true };
    return {
      ...location,
      about: `${territory.name} territory · installations, batteries and maintenance.`,
      description: `<p>Brightline Solar installs and services rooftop solar and home batteries across ${location.title}.</p><p>Nearest offices: ${officesIn(territory.id).join(', ')}.</p>`,
      groups: [territory.id],
    };
  });
  const offices = OFFICES.map((office) => {
    const [x, y] = projection(office.at) ?? [0, 0];
    return {
      id: `office-${office.id}`,
      title: `Brightline Solar ${office.city}`,
      about: `${office.address}, ${office.city} · ${office.crews} installation crews`,
      description: `<p>Free home assessments, installation and maintenance within 120 miles of ${office.city.split(',')[0]}.</p><p>${office.address}, ${office.city}</p>`,
      phone: office.phone,
      hours: 'Mon–Fri 8:00–18:00, Sat 9:00–14:00',
      layer: base.layers[0]!.id,
      position: { x: Math.round(x * 10) / 10, y: Math.round(y * 10) / 10 },
      marker: 'pin',
      groups: [office.territory],
    };
  });
  return MapDocument.parse({
    ...base,
    settings: { ...base.settings, maxZoom: 8, theme: { ...base.settings.theme, accent: '#ea580c' } },
    groups: TERRITORIES.map(({ id, name, color }) => ({ id, name, color, legend: true })),
    locations: [...offices, ...states],
  });
}
