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
};

/** Fields shown first, in this order: what nearly every table has. */
export const MAIN_FIELDS: readonly ImportField[] = ['title', 'lat', 'lng', 'x', 'y', 'description', 'address', 'groups', 'floor', 'id'];
