/**
 * The viewer's controller without React or a browser's map (issue 29 item 6): given a document,
 * a fake map view, a fake address history and fake focus targets, when the visitor's commands
 * come (open, close, a floor, the search and filters, Escape, the back button), then its state,
 * the address and what the map is asked to do. The map view is the MapView interface a canvas
 * or a basemap renderer implements (components/map/map-view.ts).
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MapView } from '../../client/src/components/map/map-view';
import { clearFilters, setQuery, SEARCH_SETTLE_MS, toggleGroup } from '../../client/src/features/viewer/controller/filter-commands';
import { loadSearch, ViewerController, type ViewerHistory } from '../../client/src/features/viewer/controller/viewer-controller';
import { kioskIdle, swapDirections } from '../../client/src/features/viewer/directions/directions-commands';
import { loadDirectionsCode } from '../../client/src/features/viewer/directions/use-directions';
import * as insights from '../../client/src/features/viewer/insights';
import { defaultRegionStyles, defaultSettings, type MapDocument } from '../../events/map-document';
import { location } from './support/locations';

function mall(deepLinks = true): MapDocument {
  const settings = defaultSettings();
  return {
    version: 3,
    settings: { ...settings, defaultLayer: 'ground', features: { ...settings.features, deepLinks } },
    layers: [
      { id: 'ground', name: 'Ground floor', file: null },
      { id: 'upper', name: 'Level 1', file: null },
    ],
    groups: [
      { id: 'food', name: 'Food & drink', color: '#ea580c', legend: true },
      { id: 'shops', name: 'Shops', color: '#2563eb', legend: true },
    ],
    locations: [
      location({ id: 'cafe', title: 'Café Noir', groups: ['food'], position: { x: 200, y: 150 } }),
      location({ id: 'books', title: 'Page Turner Books', groups: ['shops'], position: { x: 300, y: 500 } }),
      location({ id: 'sushi', title: 'Sakura Sushi', layer: 'upper', groups: ['food'], position: { x: 100, y: 100 } }),
      location({ id: 'secret', title: 'Hidden storeroom', hidden: true }),
    ],
    styles: { regions: defaultRegionStyles() },
    paths: { nodes: [], edges: [], connectors: [] },
  };
}

/** The address as a list of entries, like the browser's history. */
function fakeHistory(start: string | null = null) {
  const entries: (string | null)[] = [start];
  let at = 0;
  const history: ViewerHistory & { entries: (string | null)[]; at(): number } = {
    entries,
    at: () => at,
    read: () => entries[at] ?? null,
    push: (id) => {
      if (entries[at] === null) {
        entries.splice(at + 1, entries.length, id);
        at += 1;
      } else entries[at] = id;
    },
    // The entry was pushed by the viewer: closing goes back (a popstate follows, sent by the test).
    clear: () => {
      if (entries[at] === null) return false;
      at -= 1;
      return true;
    },
  };
  return history;
}

/** A map view that records what it is asked and can be told when it is ready. */
function fakeView(ready = true) {
  const flights: { id: string; animate: boolean; raise: number | undefined }[] = [];
  const view: MapView & { flights: typeof flights; ready: boolean; focused: number } = {
    flights,
    ready,
    focused: 0,
    screen: { width: 800, height: 600, zoom: 1, toScreen: (point) => point, toMap: (x, y) => ({ x, y }), onFrame: () => () => undefined },
    anchorOf: () => ({ x: 1, y: 1 }),
    extentOf: () => null,
    revealZoom: () => null,
    focus: () => void (view.focused += 1),
    flyTo: (id, options) => {
      if (!view.ready) return false;
      flights.push({ id, animate: options.animate, raise: options.raise });
      return true;
    },
    zoomBy: vi.fn(),
    resetView: vi.fn(),
    setSelected: vi.fn(),
    showLocations: vi.fn(),
    on: () => () => undefined,
  };
  return view;
}

/** A focusable element (the share button, the list button…): counts the times it took the focus. */
const target = () => ({ current: { focus: vi.fn(), isConnected: true } as unknown as HTMLElement });

function given(doc = mall(), history = fakeHistory(), options: { serverRendered?: boolean } = {}) {
  const targets = { share: target(), list: target(), directions: target(), sheet: target() };
  const controller = new ViewerController(doc, { history, ui: { root: { current: null }, targets }, ...options });
  const view = fakeView();
  controller.attach(view);
  const changes = vi.fn();
  controller.subscribe(changes);
  return { controller, view, history, targets, changes, state: () => controller.getSnapshot() };
}

// The search's and the directions' code, which the controller loads on demand, are in before any
// test: a load still under way when the worker's shared page is torn down fails the run
// (EnvironmentTeardownError on ngraph.path, CI once).
beforeAll(() => Promise.all([loadSearch(), loadDirectionsCode()]));
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('selection', () => {
  it('opens a location on its floor, tells the listeners, records it in the address, and flies there when asked', () => {
    const { controller, view, history, state, changes } = given();
    controller.open('sushi', null, true);
    expect(state()).toMatchObject({ selectedId: 'sushi', layerId: 'upper' });
    expect(controller.selected?.title).toBe('Sakura Sushi');
    expect(changes).toHaveBeenCalled();
    expect(history.entries).toEqual([null, 'sushi']);
    controller.committed();
    expect(view.flights).toEqual([{ id: 'sushi', animate: true, raise: 0 }]);
  });

  it('flies only when asked (a click on the marker is where the visitor looks already)', () => {
    const { controller, view } = given();
    controller.open('cafe', null, false);
    controller.committed();
    expect(view.flights).toEqual([]);
  });

  it('ignores unknown and hidden locations', () => {
    const { controller, state } = given();
    controller.open('nowhere');
    controller.open('secret');
    expect(state().selectedId).toBeNull();
  });

  it('closes by going back in history when the entry is its own, and gives the focus back to what opened it', () => {
    const { controller, history, state } = given();
    const opener = target().current!;
    controller.open('cafe', opener);
    controller.committed();
    controller.close();
    // The back button's popstate closes it.
    expect(history.at()).toBe(0);
    controller.popState();
    expect(state().selectedId).toBeNull();
    controller.committed();
    expect(opener.focus).toHaveBeenCalledWith({ preventScroll: true });
  });

  it('closes in place without deep links, and the focus goes to the map when the opener is gone', () => {
    const { controller, view, history, state } = given(mall(false));
    controller.open('cafe', null);
    expect(history.entries).toEqual([null]);
    controller.close();
    expect(state().selectedId).toBeNull();
    controller.committed();
    expect(view.focused).toBe(1);
  });

  it('counts every location opened as an insight, once per opening', () => {
    const record = vi.spyOn(insights, 'recordInsight');
    const { controller } = given();
    controller.open('cafe');
    controller.hover('books');
    controller.open('books');
    expect((record.mock.calls as unknown[][]).filter(([kind]) => kind === 'open')).toEqual([
      ['open', 'cafe'],
      ['open', 'books'],
    ]);
  });

  it('a click away from locations closes the details and the share menu', () => {
    const { controller, state } = given(mall(false));
    controller.open('cafe');
    controller.setShare(true);
    controller.background();
    expect(state()).toMatchObject({ selectedId: null, shareOpen: false });
  });
});

describe('floors', () => {
  it('starts on the default floor and switches; a location open on another floor closes', () => {
    const { controller, state } = given(mall(false));
    expect(controller.layer?.id).toBe('ground');
    controller.open('cafe');
    controller.setFloor('upper');
    expect(state()).toMatchObject({ layerId: 'upper', selectedId: null });
    expect(controller.layer?.name).toBe('Level 1');
  });

  it('keeps a location open on the floor picked', () => {
    const { controller, state } = given(mall(false));
    controller.open('sushi');
    controller.setFloor('ground');
    controller.setFloor('upper');
    expect(state().layerId).toBe('upper');
    controller.open('sushi');
    controller.setFloor('upper');
    expect(state().selectedId).toBe('sushi');
  });

  it('brings a location on another floor into view once that floor is drawn', () => {
    const { controller, view } = given();
    view.ready = false;
    controller.open('sushi', null, true);
    controller.committed();
    expect(view.flights).toEqual([]);
    view.ready = true;
    controller.viewReady();
    expect(view.flights.map((flight) => flight.id)).toEqual(['sushi']);
  });

  it('raises the location above the details sheet on a narrow screen', () => {
    const { controller, view } = given();
    controller.narrow = true;
    controller.open('cafe', null, true);
    controller.committed();
    expect(view.flights[0]?.raise).toBe(0.22);
  });
});

describe('search and filters', () => {
  it('lets everything through until a filter is on', () => {
    const { controller } = given();
    expect(controller.matching).toBeNull();
    expect(controller.visibleIds).toBeNull();
  });

  it('filters by group, and the selected location stays on the map', () => {
    const { controller } = given(mall(false));
    toggleGroup(controller, 'shops');
    expect([...controller.matching!]).toEqual(['books']);
    controller.open('cafe');
    expect([...controller.visibleIds!].sort()).toEqual(['books', 'cafe']);
    toggleGroup(controller, 'shops');
    expect(controller.matching).toBeNull();
  });

  it('searches whatever the accents and case, with the groups', () => {
    const { controller } = given();
    setQuery(controller, 'cafe');
    expect([...controller.matching!]).toEqual(['cafe']);
    setQuery(controller, 'SAKURA');
    expect([...controller.matching!]).toEqual(['sushi']);
    toggleGroup(controller, 'shops');
    expect([...controller.matching!]).toEqual([]);
    clearFilters(controller);
    expect(controller.getSnapshot()).toMatchObject({ query: '', activeGroups: new Set() });
    expect(controller.matching).toBeNull();
  });

  it('follows the document it is given now (the editor preview passes each edit)', () => {
    const { controller } = given();
    setQuery(controller, 'noir');
    expect([...controller.matching!]).toEqual(['cafe']);
    const doc = mall();
    controller.doc = { ...doc, locations: doc.locations.map((place) => (place.id === 'cafe' ? { ...place, title: 'Café Blanc' } : place)) };
    expect(controller.matching!.size).toBe(0);
  });

  it('counts a search once the typing settles, with whether it found anything', () => {
    vi.useFakeTimers();
    const record = vi.spyOn(insights, 'recordInsight');
    const { controller } = given();
    setQuery(controller, 'su');
    setQuery(controller, 'sushi');
    vi.advanceTimersByTime(SEARCH_SETTLE_MS - 1);
    expect(record).not.toHaveBeenCalledWith('search', expect.anything());
    vi.advanceTimersByTime(1);
    setQuery(controller, 'pizza');
    vi.advanceTimersByTime(SEARCH_SETTLE_MS);
    expect((record.mock.calls as unknown[][]).filter(([kind]) => kind === 'search')).toEqual([
      ['search', { text: 'sushi', found: true }],
      ['search', { text: 'pizza', found: false }],
    ]);
  });
});

describe('deep links', () => {
  it('open the location the address names, on its floor, where the view jumps', () => {
    const { controller, view, state } = given(mall(), fakeHistory('sushi'));
    expect(state()).toMatchObject({ selectedId: 'sushi', layerId: 'upper' });
    controller.start()();
    expect(view.flights).toEqual([{ id: 'sushi', animate: false, raise: 0 }]);
  });

  it('wait for the server-rendered page to be hydrated: its first state is the server’s', () => {
    const { controller, state } = given(mall(), fakeHistory('sushi'), { serverRendered: true });
    expect(state().selectedId).toBeNull();
    controller.start()();
    expect(state()).toMatchObject({ selectedId: 'sushi', layerId: 'upper' });
  });

  it('ignore unknown and hidden locations, and the address when the map turns them off', () => {
    expect(given(mall(), fakeHistory('secret')).state().selectedId).toBeNull();
    expect(given(mall(), fakeHistory('nowhere')).state().selectedId).toBeNull();
    expect(given(mall(false), fakeHistory('cafe')).state().selectedId).toBeNull();
  });

  it('follow the back and forward buttons', () => {
    const { controller, history, state } = given();
    controller.open('books');
    controller.close();
    controller.popState();
    expect(state().selectedId).toBeNull();
    history.entries[1] = 'sushi';
    (history as { at(): number }).at = () => 1;
    const forward = new ViewerController(mall(), { history: { ...history, read: () => 'sushi' }, ui: { root: { current: null }, targets: {} } });
    forward.popState();
    expect(forward.getSnapshot()).toMatchObject({ selectedId: 'sushi', layerId: 'upper' });
  });
});

describe('keys', () => {
  it('Escape closes the latest thing open first, and gives the focus back to its button', () => {
    const { controller, state, targets } = given(mall(false));
    controller.open('cafe');
    controller.setShare(true);
    expect(controller.keyDown('Escape')).toBe(true);
    expect(state()).toMatchObject({ shareOpen: false, selectedId: 'cafe' });
    expect(targets.share.current!.focus).toHaveBeenCalled();
    expect(controller.keyDown('Escape')).toBe(true);
    expect(state().selectedId).toBeNull();
    controller.setSheet(true);
    controller.committed();
    expect(targets.sheet.current!.focus).toHaveBeenCalledWith({ preventScroll: true });
    expect(controller.keyDown('Escape')).toBe(true);
    expect(state().sheetOpen).toBe(false);
    expect(targets.list.current!.focus).toHaveBeenCalled();
    expect(controller.keyDown('Escape')).toBe(false);
    expect(controller.keyDown('Enter')).toBe(false);
  });

  it('Escape closes the directions, and their button takes the focus once they are gone', () => {
    const { controller, state, targets } = given();
    controller.openDirections({ to: 'books' });
    expect(state().route).toMatchObject({ open: true, from: null, to: 'books' });
    expect(controller.keyDown('Escape')).toBe(true);
    expect(state().route.open).toBe(false);
    controller.committed();
    expect(targets.directions.current!.focus).toHaveBeenCalled();
  });
});

describe('the directions mode', () => {
  it('opens with an end given, swaps, and a kiosk left alone goes back to its start', () => {
    const { controller, view, state } = given();
    controller.openDirections({ from: 'cafe' });
    controller.openDirections({ to: 'cafe' });
    expect(state().route).toMatchObject({ from: null, to: 'cafe' });
    controller.openDirections({ from: 'books' });
    swapDirections(controller);
    expect(state().route).toMatchObject({ from: 'cafe', to: 'books' });
    controller.open('sushi');
    kioskIdle(controller, 'books');
    expect(state()).toMatchObject({ selectedId: null, layerId: 'ground', route: { open: true, from: 'books', to: null } });
    expect(view.resetView).toHaveBeenCalledWith(false);
  });
});

describe('timers', () => {
  it('a toast and a hint go after a moment, a new one starting its own', () => {
    vi.useFakeTimers();
    const { controller, state } = given();
    controller.toast('Link copied');
    controller.hint('wheel');
    vi.advanceTimersByTime(1600);
    expect(state()).toMatchObject({ toast: 'Link copied', hint: null });
    controller.toast('Embed code copied');
    vi.advanceTimersByTime(2599);
    expect(state().toast).toBe('Embed code copied');
    vi.advanceTimersByTime(1);
    expect(state().toast).toBeNull();
  });
});
