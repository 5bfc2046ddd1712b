/**
 * "Find the nearest" (issue 29 item 4) as commands on the viewer's controller: a place name or
 * postcode searched through the map's geocoder (GET /api/public/maps/{id}/places), or the
 * visitor's own position (the browser's geolocation, asked only when pressed), then a radius.
 * The state is the controller's (`near` in ViewerState); the commands live here, in the store
 * locator's own chunk (near-panel.tsx, load-near-code.ts), loaded only on maps with a geographic
 * floor, so a floor plan's first load carries none of it (like filter-commands.ts), and without
 * the directions' route finding, which loads when a visitor asks for directions. The list itself, nearest first, is
 * {@link nearestLocations} (events/nearest.ts on each floor's calibration).
 */
import { boundsToFloor, boundsToGeo, type FloorSize, type LatLng } from '../../../../../events/geo-bounds';
import type * as GeoCalibration from '../../../../../events/geo-calibration';
import type { GeoCalibration as Calibration, Point } from '../../../../../events/map-document';
import { nearestFirst, radiusInKm, type DistanceUnit, type Near } from '../../../../../events/nearest';
import type { PlaceMatch } from '../../../../../events/place-search';
import type { Location, MapDocument } from '../../../components/map/types';
import type { NearState, ViewerController } from '../controller/viewer-controller';

export type { NearState };

/**
 * The drawn projections' arithmetic (events/geo-calibration.ts, with d3-geo), for a map with a
 * floor calibrated by a d3 projection (a drawn world or country map): loaded beside this code only
 * on such maps (load-near-code.ts). A street map's floors are Web Mercator bounds, converted
 * by events/geo-bounds.ts, so its page fetches no d3-geo (issue 29). Until it is in, a location
 * on a d3 floor has no place (null), as on a floor without calibration.
 */
let drawnProjections: Pick<typeof GeoCalibration, 'floorToGeo' | 'projectToFloor'> | null = null;
export function setDrawnProjections(calibration: Pick<typeof GeoCalibration, 'floorToGeo' | 'projectToFloor'>): void {
  drawnProjections = calibration;
}
const floorToGeo = (geo: Calibration, size: FloorSize, point: Point): LatLng | null =>
  geo.kind === 'bounds' ? boundsToGeo(geo, size, point) : (drawnProjections?.floorToGeo(geo, size, point) ?? null);
const projectToFloor = (geo: Calibration, size: FloorSize, place: LatLng): Point | null =>
  geo.kind === 'bounds' ? boundsToFloor(geo, size, place) : (drawnProjections?.projectToFloor(geo, size, place) ?? null);

/** Finds the places a query may mean, the likeliest first. */
export type PlaceFinder = (query: string) => Promise<PlaceMatch[]>;

/** The map's own geocoder, with the page's view link key (an unpublished map's visitor). */
export function placeFinder(mapId: string): PlaceFinder {
  return async (query) => {
    const params = new URLSearchParams({ q: query });
    const key = new URLSearchParams(window.location.search).get('key');
    if (key) params.set('key', key);
    const response = await fetch(`/api/public/maps/${encodeURIComponent(mapId)}/places?${params}`, { credentials: 'same-origin' });
    if (!response.ok) throw new Error(`places: ${response.status}`);
    return ((await response.json()) as { result: { places: PlaceMatch[] } }).result.places;
  };
}

const near = (controller: ViewerController): NearState | undefined => controller.getSnapshot().near;
/** The latest command's turn: an answer to an older one is dropped. */
let turn = 0;
/**
 * A change of the store locator's state: the locations within the radius (the map shows only
 * those, viewer-controller.ts) follow it, and a new place or radius brings the results into view.
 */
const update = (controller: ViewerController, patch: Partial<NearState>) => {
  const before: NearState = near(controller) ?? { status: 'idle', query: '', origin: null, error: null, radius: null };
  const next: NearState = { ...before, ...patch };
  const { origin, radius } = next;
  const around = next.status === 'ready' && origin && radius !== null;
  next.within = around ? new Set(nearestFirst(controller.shownLocations, placeOfLocation(controller.doc), origin, { radiusKm: radiusInKm(radius, next.unit ?? 'km') }).map(({ item }) => item.id)) : null;
  controller.setFilters({ near: next });
  if (next.status === 'ready' && (next.origin !== before.origin || next.radius !== before.radius || next.unit !== before.unit)) fitResults(controller);
};

/** How many of the nearest the map fits in view when no radius is on. */
export const FIT_NEAREST = 10;
/** The results' margin from the map's edges when fitted (CSS pixels). */
const FIT_PADDING = 48;

/**
 * Brings the results on the floor shown into view with where distances are from (the place
 * searched, or the visitor): every location within the radius, else the nearest
 * {@link FIT_NEAREST}, through the other filters. Nothing moves where the floor shown is not
 * geographic or none of the results is on it.
 */
export function fitResults(controller: ViewerController): boolean {
  const state = near(controller);
  const { layer, view, doc } = controller;
  if (!state?.origin || !layer?.geo || !view?.fitTo) return false;
  const matching = controller.matching;
  const onFloor = controller.shownLocations.filter((location) => location.layer === layer.id && location.position && (!matching || matching.has(location.id)));
  const results = nearestFirst(onFloor, placeOfLocation(doc), state.origin, state.within ? {} : { limit: FIT_NEAREST });
  if (results.length === 0) return false;
  const points = results.map(({ item }) => item.position!);
  const size = { width: layer.file?.width ?? doc.settings.size.width, height: layer.file?.height ?? doc.settings.size.height };
  const origin = projectToFloor(layer.geo, size, state.origin);
  if (origin && origin.x >= 0 && origin.y >= 0 && origin.x <= size.width && origin.y <= size.height) points.push(origin);
  return view.fitTo(points, FIT_PADDING);
}

/** How a place reads after "Near": "Denver, CO", "80202". */
export const placeLabel = (place: PlaceMatch) => (place.region ? `${place.name}, ${place.region}` : place.name);

/** Searches a place name or postcode; the likeliest place becomes where distances are from. */
export async function searchNear(controller: ViewerController, query: string, find: PlaceFinder): Promise<void> {
  const text = query.trim();
  if (!text) return;
  const mine = ++turn;
  update(controller, { status: 'searching', query: text, error: null });
  try {
    const [place] = await find(text);
    if (mine !== turn) return;
    if (!place) update(controller, { status: 'error', error: 'notFound' });
    else update(controller, { status: 'ready', origin: { lat: place.lat, lng: place.lng, label: placeLabel(place) }, error: null });
  } catch {
    if (mine === turn) update(controller, { status: 'error', error: 'failed' });
  }
}

/** Asks the browser where the visitor is (its permission prompt comes now, not before). */
export function useMyPosition(controller: ViewerController, geolocation: Geolocation | undefined = globalThis.navigator?.geolocation): Promise<void> {
  const mine = ++turn;
  if (!geolocation) {
    update(controller, { status: 'error', error: 'unavailable' });
    return Promise.resolve();
  }
  update(controller, { status: 'locating', error: null });
  return new Promise((resolve) => {
    geolocation.getCurrentPosition(
      (position) => {
        if (mine === turn) update(controller, { status: 'ready', query: '', origin: { lat: position.coords.latitude, lng: position.coords.longitude, label: null }, error: null });
        resolve();
      },
      (error) => {
        // PERMISSION_DENIED is 1; the others (unavailable, timeout) read alike to a visitor.
        if (mine === turn) update(controller, { status: 'error', error: error.code === 1 ? 'denied' : 'unavailable' });
        resolve();
      },
      { enableHighAccuracy: false, timeout: 15_000, maximumAge: 300_000 },
    );
  });
}

/** Back to the directory's own order (the radius kept for the next search). */
export function clearNear(controller: ViewerController): void {
  turn++;
  const before = near(controller);
  controller.setFilters({ near: { status: 'idle', query: '', origin: null, error: null, radius: before?.radius ?? null, ...(before?.unit ? { unit: before.unit } : {}), within: null } });
}

/** Only locations this far (in the visitor's unit, km when not given), on the list and the map; null: any distance. */
export function setRadius(controller: ViewerController, radius: number | null, unit?: DistanceUnit): void {
  update(controller, unit ? { radius, unit } : { radius });
}

/** Whether any floor of the map is geographic (calibrated): only then is there a store locator. */
export const hasGeographicFloor = (doc: MapDocument) => doc.layers.some((layer) => layer.geo);

/** Where each location is on Earth, from its floor's calibration (null: its floor has none). */
export function placeOfLocation(doc: MapDocument): (location: Location) => { lat: number; lng: number } | null {
  const layers = new Map(doc.layers.map((layer) => [layer.id, layer]));
  return (location) => {
    const layer = layers.get(location.layer);
    if (!layer?.geo || !location.position) return null;
    const size = { width: layer.file?.width ?? doc.settings.size.width, height: layer.file?.height ?? doc.settings.size.height };
    return floorToGeo(layer.geo, size, location.position);
  };
}

/** The locations nearest first from the state's origin, within its radius (in `unit`); null without an origin. */
export function nearestLocations(locations: readonly Location[], doc: MapDocument, state: NearState | undefined, unit: DistanceUnit): Near<Location>[] | null {
  if (!state?.origin) return null;
  return nearestFirst(locations, placeOfLocation(doc), state.origin, state.radius === null ? {} : { radiusKm: radiusInKm(state.radius, unit) });
}

/**
 * Directions in the visitor's own maps app: Google Maps' cross-platform link
 * (https://www.google.com/maps/dir/?api=1&destination=…), the one address that works on every
 * device: it opens the Google Maps app where it is installed (Android, iOS) and the web map
 * everywhere else, where `geo:` does nothing on a desktop or an iPhone and maps.apple.com only
 * opens an app on Apple devices.
 */
export function directionsHref(place: { lat: number; lng: number }): string {
  return `https://www.google.com/maps/dir/?api=1&destination=${place.lat.toFixed(6)},${place.lng.toFixed(6)}`;
}
