/**
 * The public viewer's state and what a visitor can do with it, in plain TypeScript (issue 29
 * item 6; tldraw's `Editor` under a thin React shell): the location selected, the floor shown,
 * the search and group filters, the directory sheet and the share menu, the directions mode,
 * the deep link in the address, Escape, the toast's and hint's timers. The React components
 * read its snapshot (use-viewer.ts, useSyncExternalStore) and call its commands; it drives the
 * map through {@link MapView} (whichever renderer draws the floor); the embed bridge and the
 * address (deep-link.ts) drive it through the same commands. Tested without a browser
 * (test/client/viewer-controller.test.ts) with a fake view, history and focus.
 */
import type { GestureHint } from '../../../components/map/gestures';
import type { MapView } from '../../../components/map/map-view';
import type { Layer, Location, MapDocument } from '../../../components/map/types';
import { clearLocation, locationFromUrl, pushLocation } from '../deep-link';
import { ASKS_FOR_DIRECTIONS, CLOSED_DIRECTIONS, loadDirectionsCode, loadedDirectionsCode, type DirectionsCode, type DirectionsState } from '../directions/use-directions';
import { recordInsight } from '../insights';

/** The search (utils/location-search.ts): fetched in idle time, or at the first key. */
export type SearchCode = typeof import('../../../utils/location-search');
let searchCode: SearchCode | null = null;
export const loadSearch = () => import('../../../utils/location-search').then((code) => (searchCode = code));
/** The search's code if it is in already. */
export const loadedSearch = () => searchCode;

export interface ViewerState {
  selectedId: string | null;
  /** The floor asked for (the document's first when it names none). */
  layerId: string | null;
  query: string;
  /** The group filters on. */
  activeGroups: ReadonlySet<string>;
  hoveredId: string | null;
  /** The directory's sheet on a phone. */
  sheetOpen: boolean;
  shareOpen: boolean;
  toast: string | null;
  hint: GestureHint | null;
  fullscreen: boolean;
  /** The directions mode: open or not, the ends, step-free, the step followed. */
  route: DirectionsState;
  /** A kiosk's fixed start ("you are here"). */
  here: string | null;
  /** The directions' sheet on a phone, folded down to its summary. */
  directionsFolded: boolean;
  directionsCode: DirectionsCode | null;
  search: SearchCode | null;
  /** "Find the nearest" (store-locator/near-commands.ts), on maps with a geographic floor; absent until used. */
  near?: NearState;
}

/** Where the store locator measures distances from, and within what radius (store-locator/near-commands.ts). */
export interface NearState {
  status: 'idle' | 'searching' | 'locating' | 'ready' | 'error';
  /** The place or postcode searched ('' for the visitor's own position). */
  query: string;
  /** Where distances are from: a place found ("Denver, CO") or the visitor's position (label null). */
  origin: { lat: number; lng: number; label: string | null } | null;
  error: 'notFound' | 'denied' | 'unavailable' | 'failed' | null;
  /** In the visitor's unit (events/nearest.ts RADIUS_CHOICES); null: any distance. */
  radius: number | null;
  /** The radius's unit (the viewer's language's, set with it; km when not given). */
  unit?: 'km' | 'mi';
  /** The locations within the radius of the origin (null: no radius on): the map shows only these, through the other filters too. */
  within?: ReadonlySet<string> | null;
}

/** Where the viewer puts the keyboard focus (its buttons and the map, viewer.tsx). */
export type FocusTarget = 'share' | 'list' | 'directions' | 'sheet';

type Element = { readonly current: HTMLElement | null };
/** The page around the controller: the viewer's element, and where the focus goes back to. */
export interface ViewerUi {
  root: Element;
  targets: Partial<Record<FocusTarget, Element>>;
}

/** The address's deep link (deep-link.ts): which location is open, in the browser's history. */
export interface ViewerHistory {
  read(): string | null;
  push(id: string): void;
  /** True when it went back in history (a popstate follows). */
  clear(): boolean;
}

export interface ViewerOptions {
  /** Hydrating the server's page: the first state is the server's (nothing from the address). */
  serverRendered?: boolean;
  /** Directions are offered (events/wayfinding/directions-allowed.ts). */
  directions?: boolean;
  history?: ViewerHistory;
  ui: ViewerUi;
}

const byGroups = (locations: readonly Location[], _query: string, groups: ReadonlySet<string>) =>
  new Set(locations.filter((location) => groups.size === 0 || location.groups.some((group) => groups.has(group))).map((location) => location.id));

const browserHistory: ViewerHistory = { read: locationFromUrl, push: pushLocation, clear: clearLocation };

export class ViewerController {
  doc: MapDocument;
  ui: ViewerUi;
  /** The map on screen, once its renderer is there. */
  view: MapView | null = null;
  #state: ViewerState;
  #listeners = new Set<() => void>();
  #history: ViewerHistory;
  #options: ViewerOptions;
  /** What opened the popup, to return the focus to; and whether closing it returns the focus. */
  #returnFocus: HTMLElement | null = null;
  #focusOnClose = false;
  #focusDirections = false;
  /** A location to bring into view once its floor can tell where it is. */
  #flyPending: { id: string; animate: boolean } | null = null;
  /** The state the page last showed (committed): what changed since. */
  #shown: ViewerState;
  #timers: Record<string, ReturnType<typeof setTimeout>> = {};
  #cache: { locations?: readonly Location[]; shown?: Location[]; byId?: Map<string, Location>; key?: unknown[]; matching?: Set<string> | null; visible?: ReadonlySet<string> | null } = {};
  /** Narrow screen: the details sheet covers the lower part of the map. */
  narrow = false;

  constructor(doc: MapDocument, options: ViewerOptions) {
    this.doc = doc;
    this.#options = options;
    this.#history = options.history ?? browserHistory;
    this.ui = options.ui;
    const id = this.deepLinks && !options.serverRendered ? this.#history.read() : null;
    const selected = id ? this.byId.get(id) : undefined;
    if (selected) this.#flyPending = { id: selected.id, animate: false };
    this.#shown = this.#state = {
      selectedId: selected?.id ?? null,
      layerId: selected?.layer ?? doc.settings.defaultLayer ?? doc.layers[0]?.id ?? null,
      query: '',
      activeGroups: new Set(),
      hoveredId: null,
      sheetOpen: false,
      shareOpen: false,
      toast: null,
      hint: null,
      fullscreen: false,
      route: CLOSED_DIRECTIONS,
      here: null,
      directionsFolded: false,
      directionsCode: loadedDirectionsCode(),
      search: searchCode,
    };
  }

  // The store React reads (use-viewer.ts).
  subscribe = (listener: () => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };
  getSnapshot = () => this.#state;

  get deepLinks(): boolean {
    return this.doc.settings.features.deepLinks;
  }
  /** The locations shown (hidden ones left out), and by id. */
  get shownLocations(): Location[] {
    this.#index();
    return this.#cache.shown!;
  }
  get byId(): Map<string, Location> {
    this.#index();
    return this.#cache.byId!;
  }
  #index() {
    const cache = this.#cache;
    const { doc } = this;
    if (cache.locations === doc.locations) return;
    cache.locations = doc.locations;
    cache.shown = doc.locations.filter((location) => !location.hidden);
    cache.byId = new Map(cache.shown.map((location) => [location.id, location]));
  }
  /** The floor shown: the one asked for, else the first. */
  get layer(): Layer | null {
    const { layers } = this.doc;
    return layers.find((candidate) => candidate.id === this.#state.layerId) ?? layers[0] ?? null;
  }
  get selected(): Location | null {
    return (this.#state.selectedId && this.byId.get(this.#state.selectedId)) || null;
  }

  /**
   * What the search and filters let through (null: no filter on), the directory lists it in its
   * own order; and what the map shows: the same, with the selected location kept.
   */
  get matching(): ReadonlySet<string> | null {
    this.#filter();
    return this.#cache.matching!;
  }
  get visibleIds(): ReadonlySet<string> | null {
    this.#filter();
    return this.#cache.visible!;
  }
  #filter() {
    const { query, activeGroups, search, selectedId, near } = this.#state;
    const cache = this.#cache;
    const within = near?.within;
    const key = [this.shownLocations, query, activeGroups, search, within, selectedId];
    if (cache.key?.every((part, index) => part === key[index])) return;
    if (!cache.key?.slice(0, 5).every((part, index) => part === key[index])) {
      // Until the search's code is in, the groups alone filter (the text follows it).
      cache.matching = !this.#filtering ? null : (search ? search.matchingIds : byGroups)(this.shownLocations, query, activeGroups, this.doc.groups);
      // The store locator's radius narrows what the rest lets through.
      if (within) cache.matching = new Set([...(cache.matching ?? within)].filter((id) => within.has(id)));
    }
    cache.key = key;
    const matching = cache.matching!;
    cache.visible = matching && selectedId && !matching.has(selectedId) ? new Set([...matching, selectedId]) : matching;
  }
  /** The route the directions show (their code remembers it by document and ends), and the route itself when one was found. */
  get routeResult() {
    const { route, directionsCode: code } = this.#state;
    return code && route.open && route.from && route.to && route.from !== route.to ? code.routeBetween(this.doc, route.from, route.to, route.stepFree) : null;
  }
  get shownRoute() {
    const result = this.routeResult;
    return result?.ok ? result.route : null;
  }
  #lastRoute: ViewerController['shownRoute'] = null;

  get #filtering() {
    return this.#state.query.trim() !== '' || this.#state.activeGroups.size > 0;
  }

  #set(patch: Partial<ViewerState>) {
    const before = this.#state;
    const next = (this.#state = { ...before, ...patch });
    // Insights: every location opened, however (a marker, the directory, a link to it); and
    // directions asked, by destination, once a route has both ends (each new pair once).
    if (next.selectedId && next.selectedId !== before.selectedId) recordInsight('open', next.selectedId);
    const asked = (route: DirectionsState) => (route.open && route.from && route.to ? route.to : null);
    const to = asked(next.route);
    if (to && (to !== asked(before.route) || next.route.from !== before.route.from)) recordInsight('directions', to);
    // Filters apply once the search's code is in (at once, most often: fetched in idle time).
    if (this.#filtering && !next.search) void loadSearch().then((search) => this.#set({ search }), () => undefined);
    for (const listener of this.#listeners) listener();
  }

  /** Starts listening to the page (the back button, full screen); answers how to stop. */
  start(): () => void {
    const { deepLinks } = this;
    const options = this.#options;
    // The server's page opens with nothing selected: the location the address names opens now.
    if (options.serverRendered && deepLinks) {
      const id = this.#history.read();
      const location = id ? this.byId.get(id) : undefined;
      if (location) {
        this.#flyPending = { id: location.id, animate: false };
        this.#set({ layerId: location.layer, selectedId: location.id });
      }
    }
    // A location the address named flies into view as soon as the map can tell where it is.
    this.#flyToPending();
    // An address naming a route loads the directions' code.
    if (options.directions && ASKS_FOR_DIRECTIONS.test(window.location.search)) this.#loadDirections();
    const onPopState = () => this.popState();
    const onFullscreen = () => this.#set({ fullscreen: document.fullscreenElement === this.ui.root.current });
    if (deepLinks) window.addEventListener('popstate', onPopState);
    document.addEventListener('fullscreenchange', onFullscreen);
    return () => {
      window.removeEventListener('popstate', onPopState);
      document.removeEventListener('fullscreenchange', onFullscreen);
      for (const timer of Object.values(this.#timers)) clearTimeout(timer);
    };
  }

  /**
   * The page shows the latest state: what follows a change on screen (the focus, a location
   * brought into view once its floor is drawn, the sheet taking the focus) happens now.
   */
  committed(): void {
    const before = this.#shown;
    const now = (this.#shown = this.#state);
    if (now.selectedId !== before.selectedId || now.layerId !== before.layerId) this.#flyToPending();
    // After the popup closes, the focus returns to what opened it (or to the map).
    if (now.selectedId === null && this.#focusOnClose) {
      this.#focusOnClose = false;
      const target = this.#returnFocus;
      this.#returnFocus = null;
      if (target?.isConnected) target.focus({ preventScroll: true });
      else this.view?.focus();
    }
    // Closing the directions gives the focus back to their button (shown again once closed).
    if (!now.route.open && this.#focusDirections) {
      this.#focusDirections = false;
      this.#focus('directions');
    }
    // The directory sheet takes the focus when it opens (the close button and search follow).
    if (now.sheetOpen && !before.sheetOpen) this.#focus('sheet');
    // A route shows its first floor when it is found.
    const route = this.shownRoute;
    if (route !== this.#lastRoute) {
      this.#lastRoute = route;
      const first = route?.legs[0]?.layer;
      if (first) this.showFloor(first);
    }
  }

  /** The map's floor is drawn: a location waiting for it is brought into view. */
  #drawnLayer: string | null = null;
  /** A floor of the map has been drawn: its view answers the zoom buttons (before, the server's page or MapLibre still loading, nothing would). */
  get viewDrawn(): boolean {
    return this.#drawnLayer !== null;
  }
  viewReady(): void {
    this.#drawnLayer = this.layer?.id ?? null;
    // A new state, for a render: regions can say where they are now (the popup's anchor).
    this.#set({});
    this.#flyToPending();
  }

  #flyToPending() {
    const pending = this.#flyPending;
    const view = this.view;
    if (!pending || !view) return;
    const location = this.byId.get(pending.id);
    // A region's own position is known before its drawing: wait for the drawing to know its size.
    if (location?.element && !view.extentOf(pending.id) && this.#drawnLayer !== location.layer) return;
    if (!location || view.flyTo(pending.id, { animate: pending.animate, raise: this.narrow ? 0.22 : 0 })) this.#flyPending = null;
  }

  /** Gives the focus back to one of the viewer's elements (the map, for the directions' button gone). */
  #focus(target: FocusTarget) {
    const element = this.ui.targets[target]?.current;
    if (element) element.focus({ preventScroll: target === 'sheet' });
    else if (target === 'directions') this.view?.focus();
  }

  /** The map's renderer hands over its view (a React ref). */
  attach = (view: MapView | null): void => {
    this.view = view;
  };

  // Commands.

  /** Opens a location's details, on its floor; `fly` brings it into view (from the directory, a link). */
  open = (id: string, opener: HTMLElement | null = null, fly = false): void => {
    const location = this.byId.get(id);
    if (!location) return;
    this.#returnFocus = opener;
    this.#flyPending = fly ? { id, animate: true } : null;
    if (this.deepLinks) this.#history.push(id);
    this.#set({ layerId: location.layer, selectedId: id, shareOpen: false, sheetOpen: false });
  };

  /** Closes the details (going back in history when the open entry is the viewer's). */
  close = (): void => {
    if (!this.#state.selectedId) return;
    this.#focusOnClose = true;
    // Going back in history closes it through popstate; otherwise close it here.
    if (!(this.deepLinks && this.#history.clear())) this.#set({ selectedId: null });
  };

  /** The browser's back and forward buttons open and close locations. */
  popState(): void {
    const id = this.#history.read();
    const next = id && this.byId.has(id) ? id : null;
    if (next === null && this.#state.selectedId !== null && this.ui.root.current?.querySelector('.mf-popup')?.contains(document.activeElement)) this.#focusOnClose = true;
    if (next) this.#flyPending = { id: next, animate: true };
    this.#set({ selectedId: next, ...(next ? { layerId: this.byId.get(next)!.layer } : {}) });
  }

  /** The visitor picks a floor: a location open on another floor closes. */
  setFloor = (id: string): void => {
    if (id === this.layer?.id) return;
    const selected = this.selected;
    if (selected && selected.layer !== id) {
      this.#returnFocus = null;
      if (!(this.deepLinks && this.#history.clear())) this.#set({ selectedId: null });
    }
    this.showFloor(id);
  };
  /** Shows a floor, whatever is open (a route's floor). */
  showFloor(id: string): void {
    this.#set({ layerId: id });
  }

  /** Changes the search text, the group filters or the store locator's search (their commands load with the directory, filter-commands.ts, store-locator/near-commands.ts). */
  setFilters(patch: Partial<Pick<ViewerState, 'query' | 'activeGroups' | 'near'>>): void {
    this.#set(patch);
  }

  hover = (hoveredId: string | null): void => this.#set({ hoveredId });
  /** A click on the map away from any location. */
  background = (): void => {
    this.close();
    this.#set({ shareOpen: false });
  };
  setSheet = (sheetOpen: boolean): void => this.#set({ sheetOpen });
  setShare = (shareOpen: boolean): void => this.#set({ shareOpen });

  /** A short message at the bottom (a link copied), gone after a moment. */
  toast = (toast: string | null): void => this.#flash('toast', toast, 2600);
  /** How to zoom an embedded map, gone after a moment. */
  hint = (hint: GestureHint | null): void => this.#flash('hint', hint, 1600);
  #flash<K extends 'toast' | 'hint'>(key: K, value: ViewerState[K], ms: number) {
    this.#set({ [key]: value });
    this.schedule(key, ms, value ? () => this.#set({ [key]: null }) : null);
  }
  /** Runs `run` in `ms` instead of what was scheduled under `key` (null: nothing); stopped with the viewer. */
  schedule(key: string, ms: number, run: (() => void) | null): void {
    clearTimeout(this.#timers[key]);
    if (run) this.#timers[key] = setTimeout(run, ms);
  }

  /** A key pressed in the viewer: Escape closes what is open, the latest first. True when handled. */
  keyDown(key: string): boolean {
    if (key !== 'Escape') return false;
    const { shareOpen, selectedId, sheetOpen, route, here } = this.#state;
    if (shareOpen) {
      this.#set({ shareOpen: false });
      this.#focus('share');
    } else if (selectedId) this.close();
    else if (sheetOpen) {
      this.#set({ sheetOpen: false });
      this.#focus('list');
    } else if (route.open && !here) {
      this.#focusDirections = true;
      this.closeDirections();
    } else return false;
    return true;
  }

  // The directions mode.

  #loadDirections() {
    void loadDirectionsCode().then((directionsCode) => this.#set({ directionsCode }), () => undefined);
  }
  /** Changes the directions mode (its commands beside the directions' code, directions/directions-commands.ts). */
  setDirections(patch: Partial<DirectionsState>, more: Partial<ViewerState> = {}): void {
    this.#set({ route: { ...this.#state.route, ...patch }, ...more });
  }
  /** Opens the directions, with an end given (from a location's details) or as they were. */
  openDirections = (ends: { from?: string | null; to?: string | null } = {}): void => {
    this.#loadDirections();
    const { route, here } = this.#state;
    let from = here ?? (ends.from !== undefined ? ends.from : route.from);
    let to = ends.to !== undefined ? ends.to : route.to;
    // A place given now replaces the other end when they would be the same.
    if (from !== null && from === to && !here) {
      if (ends.to !== undefined) from = null;
      else to = null;
    }
    this.setDirections({ open: true, from, to, step: null });
  };
  /** Closes the directions; `focus` gives the focus back to their button. */
  closeDirections = (focus = false): void => {
    if (focus) this.#focusDirections = true;
    this.setDirections({ open: false, step: null }, { directionsFolded: false });
  };

}
