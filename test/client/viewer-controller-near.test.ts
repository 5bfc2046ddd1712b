/**
 * The store locator's state on the viewer's controller without a browser (issue 29 item 4):
 * a postcode searched through a fake geocoder, the visitor's position through a fake
 * geolocation (asked only when pressed; denied and unavailable read as such), a radius in the
 * visitor's unit, an older answer arriving late dropped; and the list nearest first from each
 * floor's calibration, with the distances in miles for English.
 */
import { describe, expect, it, vi } from 'vitest';
import { ViewerController, type ViewerHistory } from '../../client/src/features/viewer/controller/viewer-controller';
import type { MapView } from '../../client/src/components/map/map-view';
import type { MapPoint } from '../../client/src/components/map/types';
import { toggleGroup } from '../../client/src/features/viewer/controller/filter-commands';
import { clearNear, directionsHref, FIT_NEAREST, fitResults, hasGeographicFloor, nearestLocations, placeOfLocation, searchNear, setRadius, useMyPosition, type PlaceFinder } from '../../client/src/features/viewer/store-locator/near-commands';
import { projectToFloor } from '../../events/geo-calibration';
import { defaultRegionStyles, defaultSettings, type GeoCalibration, type MapDocument } from '../../events/map-document';
import { distanceUnit, formatDistance } from '../../events/nearest';
import type { PlaceMatch } from '../../events/place-search';
import { location } from './support/locations';

const GEO: GeoCalibration = { kind: 'bounds', projection: 'equirectangular', north: 50, south: 24, west: -125, east: -66 };
const STORES = [
  { id: 'chicago', title: 'Chicago Loop', lat: 41.8781, lng: -87.6298 },
  { id: 'springs', title: 'Colorado Springs', lat: 38.8339, lng: -104.8214 },
  { id: 'denver', title: 'Denver Union Station', lat: 39.7527, lng: -105.0002 },
  { id: 'boulder', title: 'Boulder Pearl St', lat: 40.0176, lng: -105.2797 },
];
const DENVER_80202: PlaceMatch = { name: '80202', region: null, country: 'US', lat: 39.7527, lng: -104.9992, precision: 'postcode' };

function stores(geo: GeoCalibration | null = GEO): MapDocument {
  const settings = defaultSettings();
  return {
    version: 3,
    settings,
    layers: [{ id: 'ground', name: 'United States', file: null, ...(geo ? { geo } : {}) }],
    groups: [],
    locations: STORES.map((store) => location({ id: store.id, title: store.title, position: projectToFloor(GEO, settings.size, store)!, phone: '+1 303 555 0100', hours: 'Mon–Fri 7–19' })),
    styles: { regions: defaultRegionStyles() },
    paths: { nodes: [], edges: [], connectors: [] },
  };
}

const history: ViewerHistory = { read: () => null, push: () => undefined, clear: () => false };
const viewer = (doc = stores()) => new ViewerController(doc, { history, ui: { root: { current: null }, targets: {} } });
const near = (controller: ViewerController) => controller.getSnapshot().near;
const listed = (controller: ViewerController, unit = distanceUnit('en')) => nearestLocations(controller.shownLocations, controller.doc, near(controller), unit)?.map(({ item }) => item.id) ?? null;

function fakeGeolocation(answer: { lat: number; lng: number } | { code: number }) {
  const getCurrentPosition = vi.fn((ok: PositionCallback, fail?: PositionErrorCallback | null) => {
    if ('code' in answer) fail?.({ code: answer.code, message: '', PERMISSION_DENIED: 1, POSITION_UNAVAILABLE: 2, TIMEOUT: 3 } as GeolocationPositionError);
    else ok({ coords: { latitude: answer.lat, longitude: answer.lng, accuracy: 20 }, timestamp: 0 } as GeolocationPosition);
  });
  return { getCurrentPosition, watchPosition: vi.fn(), clearWatch: vi.fn() } as unknown as Geolocation & { getCurrentPosition: typeof getCurrentPosition };
}

describe('the store locator on the viewer’s controller', () => {
  it('is offered only on a map with a geographic floor; each location’s place comes back from its floor', () => {
    expect(hasGeographicFloor(stores())).toBe(true);
    expect(hasGeographicFloor(stores(null))).toBe(false);
    const denver = placeOfLocation(stores())(stores().locations.find((l) => l.id === 'denver')!)!;
    expect(denver.lat).toBeCloseTo(39.7527, 6);
    expect(denver.lng).toBeCloseTo(-105.0002, 6);
    expect(placeOfLocation(stores(null))(stores().locations[0]!)).toBeNull();
  });

  it('searches a postcode: “Near 80202”, the list nearest first, in miles for English', async () => {
    const controller = viewer();
    expect(near(controller)).toBeUndefined();
    expect(listed(controller)).toBeNull();
    let answer!: (places: PlaceMatch[]) => void;
    const find = vi.fn<PlaceFinder>(() => new Promise((resolve) => (answer = resolve)));
    const searching = searchNear(controller, ' 80202 ', find);
    expect(find).toHaveBeenCalledWith('80202');
    expect(near(controller)).toMatchObject({ status: 'searching', query: '80202', origin: null });
    answer([DENVER_80202]);
    await searching;
    expect(near(controller)).toMatchObject({ status: 'ready', origin: { label: '80202' }, error: null, radius: null });
    expect(listed(controller)).toEqual(['denver', 'boulder', 'springs', 'chicago']);
    const [first, second] = nearestLocations(controller.shownLocations, controller.doc, near(controller), 'mi')!;
    expect(formatDistance(first!.km, 'mi', 'en')).toBe('0.1 mi');
    expect(formatDistance(second!.km, 'mi', 'en')).toMatch(/^2\d mi$/);
    expect(distanceUnit('en')).toBe('mi');
    expect(distanceUnit('de')).toBe('km');
  });

  it('names a town with its state, and says when nothing is found or the search fails', async () => {
    const controller = viewer();
    await searchNear(controller, 'Denver', async () => [{ ...DENVER_80202, name: 'Denver', region: 'CO', precision: 'city' }]);
    expect(near(controller)?.origin?.label).toBe('Denver, CO');
    await searchNear(controller, 'Nowhereville', async () => []);
    expect(near(controller)).toMatchObject({ status: 'error', error: 'notFound', query: 'Nowhereville' });
    await searchNear(controller, 'Denver', () => Promise.reject(new Error('offline')));
    expect(near(controller)).toMatchObject({ status: 'error', error: 'failed' });
    // Nothing typed: nothing asked.
    const find = vi.fn<PlaceFinder>();
    await searchNear(controller, '   ', find);
    expect(find).not.toHaveBeenCalled();
  });

  it('drops an older search’s answer that arrives after a newer one', async () => {
    const controller = viewer();
    let late!: (places: PlaceMatch[]) => void;
    const first = searchNear(controller, 'Chicago', () => new Promise((resolve) => (late = resolve)));
    await searchNear(controller, '80202', async () => [DENVER_80202]);
    late([{ ...DENVER_80202, name: 'Chicago', region: 'IL', lat: 41.88, lng: -87.63 }]);
    await first;
    expect(near(controller)?.origin?.label).toBe('80202');
  });

  it('filters by a radius in the visitor’s unit, and keeps it when the place changes', async () => {
    const controller = viewer();
    await searchNear(controller, '80202', async () => [DENVER_80202]);
    setRadius(controller, 10);
    expect(listed(controller, 'mi')).toEqual(['denver']);
    setRadius(controller, 25);
    expect(listed(controller, 'mi')).toEqual(['denver', 'boulder']);
    // Boulder is about 38 km (23.6 miles) away: within 25 miles, not within 25 km.
    expect(listed(controller, 'km')).toEqual(['denver']);
    setRadius(controller, 50);
    expect(listed(controller, 'km')).toEqual(['denver', 'boulder']);
    setRadius(controller, null);
    expect(listed(controller, 'mi')).toHaveLength(4);
    setRadius(controller, 100);
    clearNear(controller);
    expect(near(controller)).toMatchObject({ status: 'idle', origin: null, radius: 100 });
    expect(listed(controller)).toBeNull();
  });

  it('asks the browser for the visitor’s position only when pressed; granted, denied, unavailable', async () => {
    const controller = viewer();
    const granted = fakeGeolocation({ lat: 39.74, lng: -104.99 });
    expect(granted.getCurrentPosition).not.toHaveBeenCalled();
    await useMyPosition(controller, granted);
    expect(granted.getCurrentPosition).toHaveBeenCalledTimes(1);
    expect(near(controller)).toMatchObject({ status: 'ready', origin: { label: null }, error: null });
    expect(listed(controller)![0]).toBe('denver');

    const denied = viewer();
    await useMyPosition(denied, fakeGeolocation({ code: 1 }));
    expect(near(denied)).toMatchObject({ status: 'error', error: 'denied', origin: null });
    const timedOut = viewer();
    await useMyPosition(timedOut, fakeGeolocation({ code: 3 }));
    expect(near(timedOut)).toMatchObject({ status: 'error', error: 'unavailable' });
    const none = viewer();
    await useMyPosition(none, undefined);
    expect(near(none)).toMatchObject({ status: 'error', error: 'unavailable' });
  });

  it('tells the page of each change (the directory re-renders from the snapshot)', async () => {
    const controller = viewer();
    const listener = vi.fn();
    controller.subscribe(listener);
    await searchNear(controller, '80202', async () => [DENVER_80202]);
    expect(listener).toHaveBeenCalledTimes(2);
    setRadius(controller, 10);
    expect(listener).toHaveBeenCalledTimes(3);
  });

  it('narrows the map’s markers to the radius too, with the group filters, and lets all through again without it', async () => {
    const doc = stores();
    doc.groups = [{ id: 'cafes', name: 'Cafés', color: '#c00' } as MapDocument['groups'][number]];
    doc.locations = doc.locations.map((l) => (l.id === 'boulder' || l.id === 'chicago' ? { ...l, groups: ['cafes'] } : l));
    const controller = viewer(doc);
    await searchNear(controller, '80202', async () => [DENVER_80202]);
    // A place alone filters nothing: the list sorts, the map shows all.
    expect(controller.visibleIds).toBeNull();
    setRadius(controller, 25, 'mi');
    expect([...controller.visibleIds!].sort()).toEqual(['boulder', 'denver']);
    setRadius(controller, 25, 'km');
    expect([...controller.visibleIds!]).toEqual(['denver']);
    setRadius(controller, 100, 'mi');
    expect([...controller.visibleIds!].sort()).toEqual(['boulder', 'denver', 'springs']);
    // With a group on: what both let through (the groups alone filter until the search's code is in).
    toggleGroup(controller, 'cafes');
    expect([...controller.matching!]).toEqual(['boulder']);
    // The selected location stays on the map, as with the other filters.
    controller.open('springs');
    expect([...controller.visibleIds!].sort()).toEqual(['boulder', 'springs']);
    toggleGroup(controller, 'cafes');
    setRadius(controller, null);
    expect(controller.matching).toBeNull();
    setRadius(controller, 10, 'mi');
    expect([...controller.matching!]).toEqual(['denver']);
    clearNear(controller);
    expect(controller.matching).toBeNull();
  });

  it('brings the results into view with the place searched or the visitor: the nearest, or all within the radius', async () => {
    const fits: MapPoint[][] = [];
    const view = { fitTo: (points: readonly MapPoint[]) => fits.push([...points]) > 0 } as unknown as MapView;
    const controller = viewer();
    controller.attach(view);
    const floor = (lat: number, lng: number) => projectToFloor(GEO, controller.doc.settings.size, { lat, lng })!;
    const at = (id: string) => controller.byId.get(id)!.position!;
    await searchNear(controller, '80202', async () => [DENVER_80202]);
    // No radius: the nearest (all four here, fewer than FIT_NEAREST), then the postcode's point.
    expect(FIT_NEAREST).toBeGreaterThan(4);
    expect(fits).toHaveLength(1);
    expect(fits[0]!.slice(0, 4)).toEqual(['denver', 'boulder', 'springs', 'chicago'].map(at));
    expect(fits[0]![4]!.x).toBeCloseTo(floor(DENVER_80202.lat, DENVER_80202.lng).x, 6);
    setRadius(controller, 25, 'mi');
    expect(fits).toHaveLength(2);
    expect(fits[1]!.slice(0, 2)).toEqual(['denver', 'boulder'].map(at));
    expect(fits[1]).toHaveLength(3);
    // The same radius again moves nothing; the visitor’s own position is in view with the results.
    setRadius(controller, 25, 'mi');
    expect(fits).toHaveLength(2);
    await useMyPosition(controller, fakeGeolocation({ lat: 39.9, lng: -105.1 }));
    expect(fits).toHaveLength(3);
    expect(fits[2]!.at(-1)!.y).toBeCloseTo(floor(39.9, -105.1).y, 6);
    // Nothing within the radius on the floor shown: the view stays.
    setRadius(controller, 25, 'km');
    expect(fitResults(controller)).toBe(true);
    await useMyPosition(controller, fakeGeolocation({ lat: 30, lng: -90 }));
    expect(fitResults(controller)).toBe(false);
  });

  it('hands directions to the visitor’s maps app with Google Maps’ cross-platform link', () => {
    expect(directionsHref({ lat: 39.7527, lng: -105.0002 })).toBe('https://www.google.com/maps/dir/?api=1&destination=39.752700,-105.000200');
  });
});
