/**
 * Which column fills which field, guessed from the columns' names as people and tools write
 * them ("Store Name", "store_name", "LATITUDE", "location.lng", "Street Address", "State/Province",
 * "Zip Code", "Phone Number"): case, spaces, underscores, dashes, slashes and dots do not matter,
 * and a nested key (`address.city`) is also matched by its last part. Mapfold's own export
 * (events/locations-csv.ts CSV_COLUMNS) maps every column to itself. The user confirms or changes the guess (`?mapping=`); the map remembers the last one.
 */
import { IMPORT_FIELDS, type ColumnMapping, type ImportField } from '../../events/map-import.js';

/** Names each field is known by, best first (already normalised: lowercase letters and digits). */
const SYNONYMS: Record<ImportField, readonly string[]> = {
  id: ['id', 'storenumber', 'storeno', 'storeid', 'locationid', 'placeid', 'shopid', 'fmid', 'identifier', 'uid', 'uuid', 'ref', 'reference', 'number'],
  title: ['title', 'name', 'storename', 'locationname', 'placename', 'shopname', 'businessname', 'marketname', 'sitename', 'branchname', 'company', 'companyname', 'store', 'shop', 'venue', 'heading'],
  about: ['about', 'summary', 'shortdescription', 'subtitle', 'tagline', 'excerpt'],
  description: ['description', 'desc', 'details', 'notes', 'note', 'info', 'information', 'body', 'text', 'content'],
  address: ['address', 'streetaddress', 'street', 'address1', 'addressline1', 'streetaddress1', 'street1', 'addr', 'addr1', 'fulladdress', 'formattedaddress', 'location'],
  address2: ['address2', 'addressline2', 'streetaddress2', 'street2', 'addr2', 'suite', 'unit'],
  // AccentCity before City: MaxMind's world cities give the name with its accents there, and in City lowercase without.
  city: ['accentcity', 'city', 'town', 'locality', 'municipality', 'cityname', 'towncity', 'suburb', 'village'],
  state: ['state', 'stateprovince', 'province', 'stateorprovince', 'stateregion', 'statecode', 'provincecode', 'stateabbr', 'county', 'administrativearea', 'adminarea'],
  postcode: ['postcode', 'postalcode', 'zip', 'zipcode', 'zippostalcode', 'postcodezip', 'postal', 'zip5', 'plz', 'pincode', 'postcodes'],
  country: ['country', 'countryname', 'countrycode', 'countryregion', 'nation'],
  email: ['email', 'emailaddress', 'mail', 'contactemail', 'emailid'],
  lat: ['lat', 'latitude', 'ycoordinate', 'ycoord', 'geolat', 'gpslat', 'latdd', 'lat84', 'locationlat', 'latitudedecimal'],
  lng: ['lng', 'lon', 'long', 'longitude', 'xcoordinate', 'xcoord', 'geolng', 'geolon', 'gpslng', 'gpslon', 'lngdd', 'lon84', 'locationlon', 'locationlng', 'longitudedecimal'],
  x: ['x', 'posx', 'left'],
  y: ['y', 'posy', 'top'],
  floor: ['floor', 'level', 'layer', 'storey', 'story', 'floorname', 'levelname', 'building'],
  groups: ['groups', 'group', 'category', 'categories', 'type', 'types', 'tags', 'tag', 'kind', 'department'],
  element: ['element', 'region', 'svgid', 'elementid', 'regionid', 'shape'],
  phone: ['phone', 'phonenumber', 'telephone', 'telephonenumber', 'tel', 'telno', 'phoneno', 'phone1', 'mobile', 'contactnumber', 'contactphone'],
  hours: ['hours', 'openinghours', 'openhours', 'businesshours', 'storehours', 'hoursofoperation', 'openingtimes', 'open', 'schedule', 'opening'],
  link: ['link', 'url', 'website', 'web', 'homepage', 'site', 'websiteurl', 'weburl', 'storeurl', 'href'],
  image: ['image', 'photo', 'picture', 'imageurl', 'img', 'photourl', 'pictureurl', 'logo'],
  thumbnail: ['thumbnail', 'thumb', 'thumbnailurl', 'thumburl', 'icon'],
  color: ['color', 'colour', 'fill', 'markercolor', 'markercolour'],
  marker: ['marker', 'markertype', 'markerstyle'],
  label: ['label', 'shortname', 'abbreviation', 'code'],
  zoom: ['zoom', 'zoomlevel'],
  hidden: ['hidden', 'hide', 'invisible'],
  precision: ['precision', 'geoprecision', 'geocodeprecision', 'locationprecision'],
};

/** Fields matched first: a column that names a place's part (`Street Address`, `Region`) is not taken for a looser field's synonym. */
const FIRST: readonly ImportField[] = ['title', 'lat', 'lng', 'address', 'address2', 'city', 'state', 'postcode', 'country', 'email', 'phone'];

/** A column's name as matched: lowercase letters and digits only. */
export function normaliseColumn(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '');
}

/** The last part of a nested key (`address.city` → `city`), normalised. */
function lastPart(name: string): string {
  const parts = name.split('.');
  return normaliseColumn(parts[parts.length - 1] ?? name);
}

/** A cell's number, or null (empty, or not a number). */
function numberIn(cell: string | undefined): number | null {
  const text = (cell ?? '').trim().replace(/^([-+]?\d+),(\d+)$/, '$1.$2');
  if (text === '') return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

/**
 * Whether x and y columns hold longitudes and latitudes (GIS exports, the USDA's farmers
 * markets: `x,y` in degrees), not pixels of a floor: every value a number in range, not all
 * between 0 and 1 (fractions of a floor, as Mapplic writes them), and written to at least four
 * decimals somewhere (a pixel is rarely given to a ten-thousandth).
 */
function degreesInXY(rows: readonly (readonly string[])[], x: number, y: number): boolean {
  let any = false;
  let fine = false;
  let beyondFraction = false;
  for (const row of rows) {
    const lng = numberIn(row[x]);
    const lat = numberIn(row[y]);
    if ((row[x] ?? '').trim() === '' && (row[y] ?? '').trim() === '') continue;
    if (lng === null || lat === null || Math.abs(lng) > 180 || Math.abs(lat) > 90) return false;
    any = true;
    if (lng < 0 || lng > 1 || lat < 0 || lat > 1) beyondFraction = true;
    if (/\.\d{4,}/.test(row[x] ?? '') || /\.\d{4,}/.test(row[y] ?? '')) fine = true;
  }
  return any && fine && beyondFraction;
}

/** A name given in several forms (mledoze's countries: `name: {common, official, native}`): the form to show, best first. */
const NAME_FORMS = ['common', 'en', 'default', 'display', 'short', 'full', 'official', 'value', 'text'];
/** Places from the most to the least precise: a row naming a city and its state is the city. */
const PLACE_FIELDS = ['city', 'state', 'country'] as const satisfies readonly ImportField[];
const PLACE_PREFIX = /^(city|town|county|district|region|state|province|country)/;

/** The title from a name given in its forms (`name.common`, `title.en`), if the columns hold one. */
function nameInForms(columns: readonly string[], used: Set<string>, mapping: ColumnMapping): void {
  for (const form of NAME_FORMS) {
    const column = columns.find((c) => {
      const parts = c.split('.');
      return !used.has(c) && parts.length === 2 && SYNONYMS.title.includes(normaliseColumn(parts[0]!)) && normaliseColumn(parts[1]!) === form;
    });
    if (column) {
      mapping.title = column;
      used.add(column);
      return;
    }
  }
}

/**
 * The title when no column is called a name: a column that says it is a name (`MarketName`,
 * `Loc Name`, and then `state_name`), or else the place a row stands for, as lists of
 * capitals, states and countries name their rows (`city`, `state`, `country`; the column then
 * fills the title, not the address under it). Not a place beside an id (rows without names
 * update the map's locations of those ids, whose titles a city must not overwrite) or a
 * street address or postcode (a row at an address, or a postcode's own row, is something in
 * that city, not the city).
 */
function guessTitle(columns: readonly string[], used: Set<string>, mapping: ColumnMapping): void {
  const free = columns.filter((c) => !used.has(c));
  const names = free.filter((c) => /name$/.test(normaliseColumn(c)) && !/^(floor|level|user|file|first|last|sur)/.test(normaliseColumn(c)));
  // A thing's name before a place's: "Facility Name" beside "State Name" names the facility.
  const named = names.find((c) => !PLACE_PREFIX.test(normaliseColumn(c))) ?? names[0];
  if (named) {
    mapping.title = named;
    return;
  }
  if (mapping.id || mapping.address || mapping.postcode) return;
  const place = PLACE_FIELDS.find((field) => mapping[field]);
  if (place) {
    mapping.title = mapping[place]!;
    delete mapping[place];
  }
}

/**
 * The guessed mapping: each field to the first column known by one of its names, each column
 * used once. `rows` (the first rows of a table) settle what the names cannot: whether `x`/`y`
 * are longitude/latitude.
 */
export function guessMapping(columns: readonly string[], rows: readonly (readonly string[])[] = []): ColumnMapping {
  const mapping: ColumnMapping = {};
  const used = new Set<string>();
  const pick = (field: ImportField, key: (column: string) => string) => {
    if (mapping[field]) return;
    for (const synonym of SYNONYMS[field]) {
      const column = columns.find((c) => !used.has(c) && key(c) === synonym);
      if (column) {
        mapping[field] = column;
        used.add(column);
        return;
      }
    }
  };
  const order = [...FIRST, ...IMPORT_FIELDS.filter((field) => !FIRST.includes(field))];
  // Whole names first for every field, then nested keys by their last part.
  for (const field of order) pick(field, normaliseColumn);
  // `name: {common, official}` is the item's own name, before any nested one (`currencies.AWG.name`).
  if (!mapping.title) nameInForms(columns, used, mapping);
  for (const field of order) pick(field, lastPart);
  if (!mapping.title) guessTitle(columns, used, mapping);
  // `Region` beside a city, postcode, country or coordinates is part of an address, not an SVG region.
  if (mapping.element && !mapping.state && normaliseColumn(mapping.element) === 'region' && (mapping.lat || mapping.city || mapping.postcode || mapping.country)) {
    mapping.state = mapping.element;
    delete mapping.element;
  }
  // X and Y in degrees, with no latitude/longitude columns and no floor to put pixels on.
  if (!mapping.lat && !mapping.lng && !mapping.floor && mapping.x && mapping.y && degreesInXY(rows, columns.indexOf(mapping.x), columns.indexOf(mapping.y))) {
    mapping.lng = mapping.x;
    mapping.lat = mapping.y;
    delete mapping.x;
    delete mapping.y;
  }
  return mapping;
}

/** Whether every column a mapping names is among `columns` (a remembered mapping is offered only then). */
export function mappingFits(mapping: ColumnMapping, columns: readonly string[]): boolean {
  const names = Object.values(mapping);
  return names.length > 0 && names.every((name) => columns.includes(name!));
}
