/**
 * The embedded geocoder (events/geocoding.ts over server/geocoding/gazetteer.ts's data): known
 * addresses placed at city and postcode precision, a city of several states or countries told
 * apart by the row's state and country (or the file's most common country), names matched
 * without regard to accents and case, a whole address in one cell read into its parts, and rows
 * that cannot be placed saying why (issue 29 item 3).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { addressKey, commonCountry, countryOf, geocodeEmbedded, geocodePlan, placeKey, postcodeKey, type Gazetteer, type GeocodeOutcome } from '../../events/geocoding.js';
import type { ImportPlan, PlannedAddress } from '../../events/map-import.js';
import { buildGazetteer } from '../../server/geocoding/gazetteer.js';

const at = (parts: Partial<PlannedAddress>): PlannedAddress => ({ street: '', city: '', state: '', postcode: '', country: '', ...parts });

/** Kilometres between two points (haversine). */
function km(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = Math.PI / 180;
  const h = Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lng - a.lng) * rad) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

function placed(outcome: GeocodeOutcome) {
  if (!('placed' in outcome)) throw new Error(`not placed: ${outcome.unplaced}`);
  return outcome.placed;
}

describe('the embedded geocoder', () => {
  let gazetteer: Gazetteer;
  beforeAll(() => {
    gazetteer = buildGazetteer();
  }, 60_000);

  it('places "Paris, France" at the city and "10001, US" at its ZIP code', () => {
    const paris = placed(geocodeEmbedded(gazetteer, at({ city: 'Paris', country: 'France' }), null));
    expect(paris.precision).toBe('city');
    expect(km(paris, { lat: 48.8566, lng: 2.3522 })).toBeLessThan(5);
    const zip = placed(geocodeEmbedded(gazetteer, at({ postcode: '10001', country: 'US' }), null));
    expect(zip.precision).toBe('postcode');
    expect(km(zip, { lat: 40.7506, lng: -73.9972 })).toBeLessThan(3);
    // A ZIP+4, and one a spreadsheet took the leading zero off (02134 → 2134).
    expect(placed(geocodeEmbedded(gazetteer, at({ postcode: '10001-2345', country: 'USA' }), null)).precision).toBe('postcode');
    expect(km(placed(geocodeEmbedded(gazetteer, at({ postcode: '2134', country: 'US' }), null)), { lat: 42.35, lng: -71.13 })).toBeLessThan(5);
  });

  it('tells Springfield, IL from Springfield, MO by the state, written short or in full', () => {
    const illinois = placed(geocodeEmbedded(gazetteer, at({ city: 'Springfield', state: 'IL', country: 'US' }), null));
    const missouri = placed(geocodeEmbedded(gazetteer, at({ city: 'Springfield', state: 'Missouri', country: 'United States' }), null));
    expect(km(illinois, { lat: 39.7817, lng: -89.6501 })).toBeLessThan(10);
    expect(km(missouri, { lat: 37.209, lng: -93.2923 })).toBeLessThan(10);
    // Without a state, the most populous Springfield of the country.
    expect(placed(geocodeEmbedded(gazetteer, at({ city: 'Springfield', country: 'US' }), null)).precision).toBe('city');
  });

  it('keeps to the row’s country, else the file’s, and matches names without accents or case', () => {
    const ontario = placed(geocodeEmbedded(gazetteer, at({ city: 'Paris', country: 'CA' }), null));
    expect(km(ontario, { lat: 43.2, lng: -80.38 })).toBeLessThan(10);
    // No country on the row: the file's (most rows are in Canada) decides.
    expect(km(placed(geocodeEmbedded(gazetteer, at({ city: 'paris' }), 'CA')), ontario)).toBeLessThan(1);
    const saoPaulo = placed(geocodeEmbedded(gazetteer, at({ city: 'SAO PAULO', country: 'Brasil' }), null));
    expect(km(saoPaulo, { lat: -23.55, lng: -46.63 })).toBeLessThan(10);
    expect(km(placed(geocodeEmbedded(gazetteer, at({ city: 'Zürich', country: 'Schweiz' }), null)), { lat: 47.37, lng: 8.54 })).toBeLessThan(5);
    expect(km(placed(geocodeEmbedded(gazetteer, at({ city: 'St. Louis', state: 'MO' }), 'US')), { lat: 38.63, lng: -90.2 })).toBeLessThan(5);
    expect(placeKey('Saint-Étienne')).toBe(placeKey('st etienne'));
    expect(postcodeKey('CA', 'm5v 2t6')).toBe('M5V');
  });

  it('reads a whole address written in one cell', () => {
    const one = placed(geocodeEmbedded(gazetteer, at({ street: '1 Main St, Springfield, IL 62701, USA' }), null));
    expect(one.precision).toBe('postcode');
    expect(km(one, { lat: 39.8, lng: -89.65 })).toBeLessThan(5);
    const paris = placed(geocodeEmbedded(gazetteer, at({ street: '10 Rue de Rivoli, 75001 Paris, France' }), null));
    expect(km(paris, { lat: 48.8566, lng: 2.3522 })).toBeLessThan(5);
    // "CA" at the end is California, not Canada.
    const la = placed(geocodeEmbedded(gazetteer, at({ street: '200 Main St, Los Angeles, CA' }), 'US'));
    expect(km(la, { lat: 34.05, lng: -118.24 })).toBeLessThan(10);
  });

  it('places a row naming only a region or a country at its middle, and says why a row cannot be placed', () => {
    expect(placed(geocodeEmbedded(gazetteer, at({ country: 'France' }), null))).toMatchObject({ precision: 'country' });
    expect(km(placed(geocodeEmbedded(gazetteer, at({ country: 'FR' }), null)), { lat: 46.6, lng: 2.4 })).toBeLessThan(200);
    expect(placed(geocodeEmbedded(gazetteer, at({ state: 'Texas' }), 'US')).precision).toBe('region');
    const unknown = geocodeEmbedded(gazetteer, at({ city: 'Qwxyzville', country: 'FR' }), null);
    expect(unknown).toEqual({ unplaced: expect.stringMatching(/the city “Qwxyzville” in FR is not one the built-in geocoder knows/) });
    expect(geocodeEmbedded(gazetteer, at({ street: '12 Nowhere Lane' }), null)).toEqual({ unplaced: expect.stringMatching(/street address alone/) });
    expect(geocodeEmbedded(gazetteer, at({ city: 'Qwxyzville', country: 'Narnia' }), null)).toEqual({ unplaced: expect.stringMatching(/country “Narnia”/) });
  });

  it('tries the title of a row naming only its country or region as the place (lists of cities by name), else places it in the country', () => {
    const lyon = placed(geocodeEmbedded(gazetteer, at({ city: 'Lyon', country: 'France', cityFromTitle: true }), null));
    expect(lyon.precision).toBe('city');
    expect(km(lyon, { lat: 45.76, lng: 4.84 })).toBeLessThan(5);
    expect(placed(geocodeEmbedded(gazetteer, at({ city: 'Acme GmbH', country: 'DE', cityFromTitle: true }), null)).precision).toBe('country');
    expect(placed(geocodeEmbedded(gazetteer, at({ city: 'Hawaii', state: 'HI', cityFromTitle: true }), 'US')).precision).toBe('region');
    expect(commonCountry(gazetteer, [at({ state: 'HI' }), at({ state: 'Texas' })])).toBe('US');
  });

  it('finds the file’s country from its rows', () => {
    expect(commonCountry(gazetteer, [at({ country: 'Deutschland' }), at({ country: 'DE' }), at({ country: 'France' })])).toBe('DE');
    expect(commonCountry(gazetteer, [at({ city: 'Toronto' }), at({ city: 'Winnipeg' })])).toBe('CA');
    // ISO 3166's long forms, as lists of countries write them.
    expect(countryOf(gazetteer, 'Bolivia, Plurinational State of')).toBe('BO');
    expect(countryOf(gazetteer, 'Virgin Islands, British')).toBe('VG');
    expect(countryOf(gazetteer, 'Congo, The Democratic Republic of the')).toBe('CD');
  });

  it('places a plan’s rows once per address, with their precision, and lists those it cannot place', () => {
    const row = (n: number, address: PlannedAddress) => ({ row: n, id: null, fields: { title: `Row ${n}` }, floor: null, position: null, groups: [], element: null, address });
    const plan: ImportPlan = {
      format: 'csv', floors: [], groups: [], columns: { used: [], ignored: [] }, mapping: null, problems: [],
      locations: [row(1, at({ city: 'Lyon', country: 'France' })), row(2, at({ city: 'lyon', country: 'FR' })), row(3, at({ postcode: '94103', country: 'US' })), row(4, at({ city: 'Qwxyzville' }))],
    };
    // A street geocoder's answer comes first, for the address it was asked.
    const remote = new Map([[addressKey(at({ postcode: '94103', country: 'US' })), { lat: 37.77, lng: -122.41, precision: 'street' as const }]]);
    const summary = geocodePlan(plan, () => gazetteer, remote);
    expect(summary).toEqual({ placed: { city: 2, street: 1 }, unplaced: 1, remote: true });
    expect(plan.locations.map((l) => l.precision ?? null)).toEqual(['city', 'city', 'street', null]);
    expect(plan.locations[2]!.position).toEqual({ kind: 'geo', lat: 37.77, lng: -122.41 });
    expect(plan.locations[0]!.position).toEqual(plan.locations[1]!.position);
    expect(plan.problems).toEqual([{ row: 4, field: 'address', message: expect.stringMatching(/^Row 4 was not placed: the city “Qwxyzville”/) }]);
    expect(plan.geocoding).toEqual(summary);
  });
});
