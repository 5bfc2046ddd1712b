/**
 * The import's fields in words, for the column-mapping table: what each Mapfold field is called
 * and which ones every table is asked about (the rest wait behind "More fields" unless a column
 * fills them).
 */
import type { ImportField } from '../../../../events/map-import';

export const FIELD_LABELS: Record<ImportField, string> = {
  title: 'Name',
  lat: 'Latitude',
  lng: 'Longitude',
  x: 'X (across)',
  y: 'Y (down)',
  description: 'Description',
  about: 'Short text',
  address: 'Address',
  address2: 'Address line 2',
  city: 'City',
  state: 'State / region',
  postcode: 'Postcode / ZIP',
  country: 'Country',
  email: 'Email',
  groups: 'Groups',
  floor: 'Floor',
  id: 'Id',
  element: 'Region id',
  phone: 'Phone',
  hours: 'Opening hours',
  link: 'Link',
  image: 'Image',
  thumbnail: 'Thumbnail',
  color: 'Colour',
  marker: 'Marker',
  label: 'Label',
  zoom: 'Zoom',
  hidden: 'Hidden',
  precision: 'Position precision',
};

/** Fields shown first, in this order: what nearly every table has. */
export const MAIN_FIELDS: readonly ImportField[] = ['title', 'lat', 'lng', 'x', 'y', 'description', 'address', 'groups', 'floor', 'id'];

/** The order fields are listed in: the main ones, each address part right after the street, then the rest. */
export const FIELD_ORDER: readonly ImportField[] = [
  'title', 'lat', 'lng', 'x', 'y', 'description', 'address', 'address2', 'city', 'state', 'postcode', 'country', 'groups', 'floor', 'id',
  'phone', 'email', 'hours', 'link', 'about', 'element', 'image', 'thumbnail', 'color', 'marker', 'label', 'zoom', 'hidden',
];
