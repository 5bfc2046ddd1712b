/**
 * A location's latitude and longitude, where its floor is calibrated (a built-in map, an
 * imported geographic floor, a plan pinned at two points): shown from its position and
 * editable, typing a latitude or longitude moves it there (events/geo-calibration.ts).
 */
import { floorToGeo, projectToFloor, type FloorSize } from '../../../../../events/geo-calibration';
import type { GeoCalibration, Location, Point } from '../../../../../events/map-document';
import { TextField } from '../../../components/ui/field';
import { useDraft } from './use-draft';

export interface LocationLatLngProps {
  location: Location;
  geo: GeoCalibration;
  size: FloorSize;
  /** Moves the location (one LocationUpdated), or answers why it cannot. */
  onMove(position: Point, coalesce: string): string | null;
}

/**
 * Decimals a tenth of a unit of the floor needs (1 on a world map, 6 on a campus plan): what
 * was typed reads back as typed, not as the floor's nearest point in ten decimals.
 */
function decimalsAt(geo: GeoCalibration, size: FloorSize, at: Point): number {
  const here = floorToGeo(geo, size, at);
  const next = floorToGeo(geo, size, { x: at.x + 0.1, y: at.y + 0.1 });
  if (!here || !next) return 6;
  const step = Math.max(Math.abs(next.lat - here.lat), Math.abs(next.lng - here.lng), 1e-9);
  return Math.min(6, Math.max(1, Math.ceil(-Math.log10(step))));
}

const format = (n: number, decimals: number) => String(Number(n.toFixed(decimals)));

/** A typed coordinate (a comma taken for a decimal point), or null when it is not a number. */
function parseCoordinate(text: string): number | null {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : null;
}

export function LocationLatLng({ location, geo, size, onMove }: LocationLatLngProps) {
  const place = location.position ? floorToGeo(geo, size, location.position) : null;
  const decimals = location.position ? decimalsAt(geo, size, location.position) : 6;
  const commit = (which: 'lat' | 'lng') => (text: string) => {
    const value = parseCoordinate(text);
    const label = which === 'lat' ? 'Latitude' : 'Longitude';
    if (value === null) return `${label} must be a number, like ${which === 'lat' ? '48.8566' : '2.3522'}`;
    if (which === 'lat' && Math.abs(value) > 90) return 'Latitude must be between -90 and 90';
    if (which === 'lng' && Math.abs(value) > 180) return 'Longitude must be between -180 and 180';
    // The other coordinate as it is; a location not placed yet needs both before it can move.
    const other = which === 'lat' ? place?.lng : place?.lat;
    if (other === undefined) return `Type the ${which === 'lat' ? 'longitude' : 'latitude'} too`;
    // Already there, to the decimals shown: no move (a field re-read after the other moved it).
    if (place && Math.abs((which === 'lat' ? place.lat : place.lng) - value) < 0.5 * 10 ** -decimals) return null;
    const point = projectToFloor(geo, size, which === 'lat' ? { lat: value, lng: other } : { lat: other, lng: value });
    if (!point) return 'That place is not on this floor’s map';
    return onMove({ x: Math.round(point.x * 1000) / 1000, y: Math.round(point.y * 1000) / 1000 }, `location:${location.id}:position`);
  };
  const lat = useDraft(place ? format(place.lat, decimals) : '', commit('lat'));
  const lng = useDraft(place ? format(place.lng, decimals) : '', commit('lng'));
  return (
    <div className="ep-loc-latlng" role="group" aria-label="Latitude and longitude">
      <TextField className="ep-loc-field" label="Latitude" inputMode="decimal" value={lat.value} error={lat.error} onChange={lat.onChange} onFocus={lat.onFocus} onBlur={lat.onBlur} autoComplete="off" spellCheck={false} />
      <TextField className="ep-loc-field" label="Longitude" inputMode="decimal" value={lng.value} error={lng.error} onChange={lng.onChange} onFocus={lng.onFocus} onBlur={lng.onBlur} autoComplete="off" spellCheck={false} />
    </div>
  );
}
