/**
 * Which column fills which field, guessed from the columns' names as people and tools write
 * them ("Store Name", "store_name", "LATITUDE", "location.lng"): case, spaces, underscores,
 * dashes and dots do not matter, and a nested key (`address.city`) is also matched by its last
 * part. Mapfold's own export (events/locations-csv.ts CSV_COLUMNS) maps every column to itself.
 * The user confirms or changes the guess (`?mapping=`); the map remembers the last one.
 */
import { IMPORT_FIELDS, type ColumnMapping, type ImportField } from '../../events/map-import.js';

/** Names each field is known by, best first (already normalised: lowercase letters and digits). */
const SYNONYMS: Record<ImportField, readonly string[]> = {
  id: ['id', 'storenumber', 'storeno', 'storeid', 'locationid', 'placeid', 'shopid', 'identifier', 'uid', 'uuid', 'ref', 'reference', 'number'],
  title: ['title', 'name', 'storename', 'locationname', 'placename', 'shopname', 'businessname', 'company', 'companyname', 'store', 'shop', 'venue', 'heading'],
  about: ['about', 'summary', 'shortdescription', 'subtitle', 'tagline', 'excerpt'],
  description: ['description', 'desc', 'details', 'notes', 'note', 'info', 'information', 'body', 'text', 'content'],
  address: ['address', 'fulladdress', 'streetaddress', 'street', 'address1', 'addressline1', 'addr', 'formattedaddress', 'location'],
  lat: ['lat', 'latitude', 'ycoordinate', 'ycoord', 'geolat', 'gpslat', 'latdd', 'lat84'],
  lng: ['lng', 'lon', 'long', 'longitude', 'xcoordinate', 'xcoord', 'geolng', 'geolon', 'gpslng', 'gpslon', 'lngdd', 'lon84'],
  x: ['x', 'posx', 'left'],
  y: ['y', 'posy', 'top'],
  floor: ['floor', 'level', 'layer', 'storey', 'story', 'floorname', 'levelname', 'building'],
  groups: ['groups', 'group', 'category', 'categories', 'type', 'types', 'tags', 'tag', 'kind', 'department'],
  element: ['element', 'region', 'svgid', 'elementid', 'regionid', 'shape'],
  phone: ['phone', 'telephone', 'tel', 'phonenumber', 'phoneno', 'mobile', 'contactnumber'],
  hours: ['hours', 'openinghours', 'openhours', 'businesshours', 'open', 'schedule', 'opening'],
  link: ['link', 'url', 'website', 'web', 'homepage', 'site', 'websiteurl', 'href'],
  image: ['image', 'photo', 'picture', 'imageurl', 'img', 'photourl', 'pictureurl', 'logo'],
  thumbnail: ['thumbnail', 'thumb', 'thumbnailurl', 'thumburl', 'icon'],
  color: ['color', 'colour', 'fill', 'markercolor', 'markercolour'],
  marker: ['marker', 'markertype', 'markerstyle'],
  label: ['label', 'shortname', 'abbreviation', 'code'],
  zoom: ['zoom', 'zoomlevel'],
  hidden: ['hidden', 'hide', 'invisible'],
};

/** Parts of an address in columns of their own, joined into one address when there is no single address column. */
const ADDRESS_PARTS: ReadonlyArray<readonly string[]> = [
  ['street', 'address1', 'addressline1', 'streetaddress', 'street1'],
  ['address2', 'addressline2', 'street2', 'suite', 'unit'],
  ['city', 'town', 'locality', 'municipality'],
  ['state', 'province', 'region', 'county', 'statecode'],
  ['zip', 'zipcode', 'postcode', 'postalcode', 'postal', 'plz'],
  ['country', 'countrycode', 'countryname'],
];

/** A column's name as matched: lowercase letters and digits only. */
export function normaliseColumn(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '');
}

/** The last part of a nested key (`address.city` → `city`), normalised. */
function lastPart(name: string): string {
  const parts = name.split('.');
  return normaliseColumn(parts[parts.length - 1] ?? name);
}

/** The guessed mapping: each field to the first column known by one of its names, each column used once. */
export function guessMapping(columns: readonly string[]): ColumnMapping {
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
  // Whole names first for every field, then nested keys by their last part.
  for (const field of IMPORT_FIELDS) pick(field, normaliseColumn);
  for (const field of IMPORT_FIELDS) pick(field, lastPart);
  // `street` alone is an address part: with city/zip beside it, the joined address reads better.
  if (mapping.address && ADDRESS_PARTS[0]!.includes(lastPart(mapping.address))) {
    const { address: _street, ...rest } = mapping;
    if (addressPartColumns(columns, rest).length > 1) delete mapping.address;
  }
  return mapping;
}

/** Columns holding parts of an address, in the order an address is written, when the mapping has no address column. */
export function addressPartColumns(columns: readonly string[], mapping: ColumnMapping): string[] {
  if (mapping.address) return [];
  const mapped = new Set(Object.values(mapping));
  const parts: string[] = [];
  for (const names of ADDRESS_PARTS) {
    const column = columns.find((c) => !mapped.has(c) && !parts.includes(c) && names.includes(lastPart(c)));
    if (column) parts.push(column);
  }
  return parts;
}

/** Whether every column a mapping names is among `columns` (a remembered mapping is offered only then). */
export function mappingFits(mapping: ColumnMapping, columns: readonly string[]): boolean {
  const names = Object.values(mapping);
  return names.length > 0 && names.every((name) => columns.includes(name!));
}
