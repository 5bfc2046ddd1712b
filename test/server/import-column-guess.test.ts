/**
 * Guessing which column fills which field from the header rows of real files (issue 27): the
 * headers below are copied as published (only their names: the files' rows are not ours to
 * keep, so each test gives rows of its own), and each field lands where a location keeps it.
 *
 * - Starbucks store locations (Kaggle "starbucks/store-locations", directory.csv), as read by
 *   many public repositories.
 * - USDA Farmers Markets Directory export (x/y in degrees), US government data.
 * - A store locator's OpenCSV bean (`@CsvBindByName(column = "Zip Code")` …).
 * - Plaid's location object (`region`, `postal_code`, `lon`), flattened from JSON.
 * - A PHP store locator's table (`locname`, `province`, `postal`).
 *
 * And the whole real files kept in test/fixtures/import/csv (SOURCES.md there): the Starbucks
 * directory excerpt, GeoNames' US postal codes, the 25,000-store chain.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS } from '../../events/locations-csv.js';
import { guessMapping } from '../../server/import/column-mapping.js';
import { readCsvTable } from '../../server/import/csv-table.js';
import { planTable } from '../../server/import/table-plan.js';

const STARBUCKS = 'Brand,Store Number,Store Name,Ownership Type,Street Address,City,State/Province,Country,Postcode,Phone Number,Timezone,Longitude,Latitude';
const USDA_MARKETS =
  'FMID,MarketName,Website,Facebook,Twitter,Youtube,OtherMedia,street,city,County,State,zip,Season1Date,Season1Time,Season2Date,Season2Time,Season3Date,Season3Time,Season4Date,Season4Time,x,y,Location,Credit,WIC,WICcash,SFMNP,SNAP,Organic,Bakedgoods,Cheese,Crafts,Flowers,Eggs,Seafood,Herbs,Vegetables,Honey,Jams,Maple,Meat,Nursery,Nuts,Plants,Poultry,Prepared,Soap,Trees,Wine,Coffee,Beans,Fruits,Grains,Juices,Mushrooms,PetFood,Tofu,WildHarvested,updateTime';
const OPENCSV_STORE = 'Store Name,Store Location,Address,City,State,Zip Code,Latitude,Longitude,County';
const PLAID_LOCATION = 'address,city,region,postal_code,country,lat,lon,store_number';
const PHP_LOCATOR = 'id,locname,address,city,province,postal,latitude,longitude';

const columnsOf = (header: string) => header.split(',');
const realFile = (name: string) => {
  const bytes = readFileSync(new URL(`../fixtures/import/csv/${name}`, import.meta.url));
  return readCsvTable((name.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8'));
};

describe('guessing columns from real files’ headers', () => {
  it('Starbucks: store number, name, street address, city, state/province, country, postcode, phone number, longitude, latitude', () => {
    expect(guessMapping(columnsOf(STARBUCKS))).toEqual({
      id: 'Store Number', title: 'Store Name', address: 'Street Address', city: 'City', state: 'State/Province', country: 'Country',
      postcode: 'Postcode', phone: 'Phone Number', lng: 'Longitude', lat: 'Latitude',
    });
  });

  it('USDA farmers markets: MarketName is the name, street/city/State/zip the address, x and y in degrees the longitude and latitude', () => {
    const columns = columnsOf(USDA_MARKETS);
    const row = columns.map((column) => ({ FMID: '1000001', MarketName: 'Riverside Market', Website: 'www.example.org', street: '1 Main Street', city: 'Springfield', County: 'Sangamon', State: 'Illinois', zip: '62701', x: '-89.650148', y: '39.781721' })[column] ?? '');
    const mapping = guessMapping(columns, [row]);
    expect(mapping).toEqual({ id: 'FMID', title: 'MarketName', link: 'Website', address: 'street', city: 'city', state: 'State', postcode: 'zip', lng: 'x', lat: 'y' });
    const plan = planTable('csv', { columns, rows: [row] }, mapping);
    expect(plan.locations[0]).toMatchObject({
      id: '1000001',
      fields: { title: 'Riverside Market', about: '1 Main Street, Springfield, Illinois, 62701', link: 'https://www.example.org' },
      position: { kind: 'geo', lat: 39.781721, lng: -89.650148 },
    });
    expect(plan.columns.ignored).toContain('County');
  });

  it('the real files kept with the tests: every address part, phone and place guessed from their own rows', () => {
    const starbucks = realFile('starbucks-directory-excerpt.csv');
    const mapping = guessMapping(starbucks.columns, starbucks.rows);
    expect(mapping).toEqual({
      id: 'Store Number', title: 'Store Name', address: 'Street Address', city: 'City', state: 'State/Province', country: 'Country',
      postcode: 'Postcode', phone: 'Phone Number', lng: 'Longitude', lat: 'Latitude',
    });
    const plan = planTable('csv', starbucks, mapping);
    expect(plan.locations[0]).toMatchObject({ id: '47370-257954', fields: { title: 'Meritxell, 96', about: 'Av. Meritxell, 96, Andorra la Vella, 7, AD500, AD', phone: '376818720' }, position: { kind: 'geo', lat: 42.51, lng: 1.53 } });
    expect(plan.columns.ignored).toEqual(['Brand', 'Ownership Type', 'Timezone']);

    const zips = realFile('us-zipcodes-geonames.csv.gz');
    expect(guessMapping(zips.columns, zips.rows.slice(0, 200))).toEqual({ postcode: 'zip_code', lat: 'latitude', lng: 'longitude', city: 'city', state: 'state' });
    const chain = realFile('store-chain-25k.csv.gz');
    expect(guessMapping(chain.columns, chain.rows.slice(0, 200))).toEqual({ id: 'store_id', title: 'name', city: 'city', country: 'country', lat: 'latitude', lng: 'longitude', groups: 'category' });
  });

  it('an OpenCSV store bean, Plaid’s location and a PHP locator’s table', () => {
    expect(guessMapping(columnsOf(OPENCSV_STORE))).toEqual({ title: 'Store Name', address: 'Address', city: 'City', state: 'State', postcode: 'Zip Code', lat: 'Latitude', lng: 'Longitude' });
    // "region" beside coordinates and a postcode is the state, not an SVG region.
    expect(guessMapping(columnsOf(PLAID_LOCATION))).toEqual({ address: 'address', city: 'city', state: 'region', postcode: 'postal_code', country: 'country', lat: 'lat', lng: 'lon', id: 'store_number' });
    expect(guessMapping(columnsOf(PHP_LOCATOR))).toEqual({ id: 'id', title: 'locname', address: 'address', city: 'city', state: 'province', postcode: 'postal', lat: 'latitude', lng: 'longitude' });
  });

  it('knows the common names whatever their case and punctuation', () => {
    const cases: Array<[string, string]> = [
      ['Street Address', 'address'], ['Address', 'address'], ['ADDRESS LINE 2', 'address2'], ['Phone Number', 'phone'], ['Telephone', 'phone'], ['Tel.', 'phone'],
      ['Postcode', 'postcode'], ['Post Code', 'postcode'], ['ZIP', 'postcode'], ['Zip Code', 'postcode'], ['Postal Code', 'postcode'], ['zip/postal code', 'postcode'],
      ['City', 'city'], ['Town', 'city'], ['State', 'state'], ['Province', 'state'], ['Country', 'country'], ['Website', 'link'], ['URL', 'link'], ['E-mail', 'email'],
      ['Email Address', 'email'], ['Opening Hours', 'hours'], ['Lat', 'lat'], ['Latitude', 'lat'], ['Lng', 'lng'], ['Lon', 'lng'], ['Long', 'lng'], ['Longitude', 'lng'],
      ['Name', 'title'], ['Store Name', 'title'], ['Title', 'title'], ['Description', 'description'], ['Category', 'groups'], ['Type', 'groups'],
    ];
    // Beside a name (a place alone names its row: below).
    for (const [column, field] of cases) expect(guessMapping(field === 'title' ? [column] : ['Name', column]), column).toEqual(field === 'title' ? { title: column } : { title: 'Name', [field]: column });
    expect(guessMapping(['Name', 'Town', 'Region', 'Lat', 'Long'])).toEqual({ title: 'Name', city: 'Town', state: 'Region', lat: 'Lat', lng: 'Long' });
  });

  it('without a column called a name: a name in its forms, a column that says it is a name, else the place a row stands for', () => {
    // mledoze's countries: `name: {common, official, native}` flattened, and other names nested deeper.
    expect(guessMapping(['name.common', 'name.official', 'name.native.nld.common', 'currencies.AWG.name', 'capital', 'latlng'])).toMatchObject({ title: 'name.common' });
    expect(guessMapping(['title.en', 'title.de', 'lat', 'lng'])).toMatchObject({ title: 'title.en' });
    // ogr2ogr's US states: state_name beside state_abbr (the state); a thing's name before a place's.
    expect(guessMapping(['FID', 'state_name', 'state_fips', 'sub_region', 'state_abbr'])).toMatchObject({ title: 'state_name', state: 'state_abbr' });
    expect(guessMapping(['State Name', 'Facility Name', 'lat', 'lng'])).toMatchObject({ title: 'Facility Name' });
    // Vega's state capitals, samayo's countries, MaxMind's world cities (AccentCity keeps the accents City drops).
    expect(guessMapping(['lon', 'lat', 'state', 'city'])).toEqual({ title: 'city', state: 'state', lat: 'lat', lng: 'lon' });
    expect(guessMapping(['country', 'city'])).toEqual({ title: 'city', country: 'country' });
    expect(guessMapping(['country', 'north', 'south', 'west', 'east'])).toEqual({ title: 'country' });
    expect(guessMapping(['Country', 'City', 'AccentCity', 'Region', 'Population', 'Latitude', 'Longitude'])).toEqual({ title: 'AccentCity', country: 'Country', state: 'Region', lat: 'Latitude', lng: 'Longitude' });
    // Not beside an id (title-less rows update the map's locations) or a street address (a row there is not the city).
    expect(guessMapping(columnsOf(PLAID_LOCATION)).title).toBeUndefined();
    expect(guessMapping(['Street', 'City', 'Lat', 'Lng']).title).toBeUndefined();
    expect(guessMapping(['zip_code', 'latitude', 'longitude', 'city', 'state', 'county']).title).toBeUndefined();
    const plan = planTable('store-locator', { columns: ['lon', 'lat', 'state', 'city'], rows: [['-86.3005639', '32.3777298', 'Alabama', 'Montgomery']] }, guessMapping(['lon', 'lat', 'state', 'city']));
    expect(plan.locations[0]).toMatchObject({ fields: { title: 'Montgomery', about: 'Alabama' }, position: { kind: 'geo', lat: 32.3777298, lng: -86.3005639 } });
  });

  it('keeps pixels as pixels: Mapfold’s export, a mall’s x/y, Mapplic’s fractions, a Region beside them', () => {
    const mapping = guessMapping([...CSV_COLUMNS]);
    for (const column of CSV_COLUMNS) expect(mapping[column as keyof typeof mapping], column).toBe(column);
    expect(guessMapping(['Name', 'X', 'Y', 'Region'], [['Shoes', '412.5', '120', 'shop-12']])).toEqual({ title: 'Name', x: 'X', y: 'Y', element: 'Region' });
    expect(guessMapping(['Name', 'X', 'Y'], [['Shoes', '0.41250', '0.12000']])).toEqual({ title: 'Name', x: 'X', y: 'Y' });
    expect(guessMapping(['Name', 'X', 'Y', 'Floor'], [['Shoes', '-89.650148', '39.781721', 'Level 1']])).toMatchObject({ x: 'X', y: 'Y', floor: 'Floor' });
    expect(guessMapping(['Name', 'X', 'Y'], [['Shoes', '1200.12345', '39.781721']])).toEqual({ title: 'Name', x: 'X', y: 'Y' });
  });

  it('puts a Starbucks row’s address together in writing order as the short text, its email as a mail link', () => {
    const csv = `${STARBUCKS},Email\nStarbucks,12345-67890,Alexanderplatz,Company Owned,Alexanderplatz 7,Berlin,BE,DE,10178,+49 30 1234567,GMT+01:00 Europe/Berlin,13.41,52.52,berlin@example.com\n`;
    const table = readCsvTable(csv);
    const mapping = guessMapping(table.columns, table.rows);
    expect(mapping.email).toBe('Email');
    const plan = planTable('csv', table, mapping);
    expect(plan.locations[0]).toMatchObject({
      id: '12345-67890',
      fields: { title: 'Alexanderplatz', about: 'Alexanderplatz 7, Berlin, BE, 10178, DE', phone: '+49 30 1234567', description: '<p><a href="mailto:berlin@example.com">berlin@example.com</a></p>' },
      position: { kind: 'geo', lat: 52.52, lng: 13.41 },
    });
    expect(plan.columns.ignored).toEqual(['Brand', 'Ownership Type', 'Timezone']);
  });

  it('with a short text of its own, the address follows the description as a paragraph', () => {
    const columns = ['Name', 'Summary', 'Description', 'Street', 'City'];
    const plan = planTable('csv', { columns, rows: [['Shop', 'Shoes & bags', 'Open late', '1 <Main> St', 'Springfield']] }, guessMapping(columns));
    expect(plan.locations[0]!.fields).toMatchObject({ about: 'Shoes & bags', description: 'Open late\n<p>1 &lt;Main&gt; St, Springfield</p>' });
  });
});

describe('a Mapfold CSV export’s precision column (issue 29)', () => {
  it('keeps how a geocoded row was found with its coordinates, and says what it cannot read', () => {
    const table = readCsvTable('title,lat,lng,precision\nDenver store,39.74,-104.99,city\nBoulder store,40.01,-105.27,\nLost store,,,postcode\nOdd store,40.5,-105.1,roughly\n');
    const mapping = guessMapping(table.columns, table.rows);
    expect(mapping.precision).toBe('precision');
    const plan = planTable('csv', table, mapping);
    expect(plan.locations.map((l) => [l.fields.title, l.precision ?? null])).toEqual([
      ['Denver store', 'city'],
      ['Boulder store', null],
      // No position: nothing to be precise about (geocoding will say how it places it).
      ['Lost store', null],
      ['Odd store', null],
    ]);
    expect(plan.problems.map((p) => p.message)).toEqual(['Row 4: the precision “roughly” is none of exact, street, postcode, city, region, country, so it was left out.']);
  });
});
