/**
 * The {@link MapView} of a floor on a street basemap (issue 29 item 1): MapLibre GL JS draws
 * the basemap's vector tiles (the server's style.json) and the floor's locations as a GeoJSON
 * source MapLibre clusters itself (25,000 points stay smooth), looking as basemap-marker-layers.ts
 * says. Imperative, as a controller drives it: the selection, the filters and the flights are
 * method calls; clicks and hovers come back as events. Positions stay in the floor's units
 * (basemap-floor.ts converts them); the view never rotates or tilts, so floor units map
 * linearly onto the screen, and {@link MapLibreMapView.screen} says where.
 * basemap-renderer.tsx is its React host; this module (MapLibre with it) loads only for such a floor.
 */
import { Map as MapLibreMap, type GeoJSONSource, type LayerSpecification, type LngLat, type LngLatLike, type MapMouseEvent, type PointLike, type StyleSpecification } from 'maplibre-gl';
import 'maplibre-gl/dist/maplibre-gl.css';
import './basemap-renderer.css';
import { floorBounds, markerFeatures, toFloor, toLngLat, type FloorGeo, type MarkerCollection, type MarkerColours } from './basemap-floor';
import { addMarkerBox, addPinImages, CLUSTER_LAYER, CLUSTER_MAX_ZOOM, MARKER_BOX, markerLayers, MARKERS_SOURCE, PICKED_LAYERS, pinColourOf, repaintPins, REVEAL_ZOOM, SELECTED_SOURCE } from './basemap-marker-layers';
import { setUpMapLibre } from './maplibre-setup';
import { homeOnPoints } from './basemap-home';
import { attachMapLibreEditing, showPlacing } from './maplibre-editing';
import { RegionLayers, regionLayers } from './basemap-region-layers';
import { lineFeatures, outlineAt, outlinePoint, regionFeatures, type RegionCollection, type RegionLook, type RegionOutline } from './basemap-regions';
import type { Ring } from './basemap-svg-path';
import { marksInView, type BasemapMarks } from './basemap-marks';
import type { FitOptions, FlyOptions, Insets, MapEditing, MapView, MapViewEvents, ScreenProjection } from './map-view';
import { boxOf, insetsWithin, panInto } from './view-fit';
import type { Location, MapPoint } from './types';

/** What the host hands over: the floor, its locations and how to colour them. */
export interface BasemapFloorState {
  layerId: string;
  floor: FloorGeo;
  locations: readonly Location[];
  byId: ReadonlyMap<string, Location>;
  colours: MarkerColours;
  /** The document's home view, in the floor's units and zoom relative to the whole floor. */
  home: { x: number; y: number; zoom: number } | null;
}

export interface MapLibreOptions {
  container: HTMLElement;
  /** The basemap's MapLibre style (GET /basemap/style.json with the theme and language). */
  styleUrl: string;
  dark: boolean;
  accent: string;
  /** Embedded in another page: two fingers or Ctrl to move it. */
  cooperative: boolean;
  /** The map surface's accessible name. */
  label: string;
}

/** Room kept for a phone's search bar over the top of the map when a region is fitted (CSS pixels). */
const PHONE_BAR = 48;
/** Room left around the floor when it is fitted, in CSS pixels. */
const FIT_PADDING = 32;
/** The deepest zoom results are fitted at (a few streets around a single store). */
const FIT_MAX_ZOOM = 15;
const NO_MARKERS: MarkerCollection = { type: 'FeatureCollection', features: [] };
/** A map narrower than this (CSS pixels) folds its attribution (MapLibre's own breakpoint). */
const COMPACT_BELOW = 640;
/** A touch lands within this many pixels of a marker. */
const PICK_SLOP = 6;

/**
 * MapLibre opens a folded (compact) attribution at first and folds it only once the map is
 * dragged: over a phone's map it covered the bottom of the map from the start. Folded here
 * whenever it becomes compact (the map created or resized narrow); its (i) opens it, and what the
 * visitor opens stays open.
 */
function foldAttribution(map: MapLibreMap): void {
  const attribution = map.getContainer().querySelector<HTMLElement>('.maplibregl-ctrl-attrib');
  if (!attribution) return;
  let compact = false;
  const fold = () => {
    const now = attribution.classList.contains('maplibregl-compact');
    if (now && !compact) {
      attribution.classList.remove('maplibregl-compact-show');
      attribution.removeAttribute('open');
    }
    compact = now;
  };
  fold();
  // (After the control's own handlers, registered as the map was created.)
  for (const event of ['styledata', 'sourcedata', 'resize'] as const) map.on(event, fold);
}

/** The region placing would link is drawn in the accent by its own layers (basemap-region-layers.ts): its look is not read. */
const PICK_LOOK: RegionLook = { fill: '', hover: '', active: '', line: '' };

export class MapLibreMapView implements MapView {
  readonly map: MapLibreMap;
  #state: BasemapFloorState | null = null;
  #visible: ReadonlySet<string> | null = null;
  #selected: string | null = null;
  #hovered: string | null = null;
  #loaded = false;
  #drawnLayer: string | null = null;
  #listeners: { [E in keyof MapViewEvents]?: Set<MapViewEvents[E]> } = {};
  #options: MapLibreOptions;
  /** The floor's regions (its drawing's outlines, basemap-regions.ts), their looks, and their layers once the style is in. */
  #regions: RegionLayers | null = null;
  #outlines: ReadonlyMap<string, RegionOutline> = new Map();
  #looks: ReadonlyMap<string, RegionLook> = new Map();
  /** The drawing's lines (routes, boundaries: basemap-regions.ts drawingLines), in the floor's units. */
  #lines: readonly Ring[] = [];
  /** The floor's drawing is being read: a region's place is not known yet. */
  #regionsPending = false;
  /** The drawing's regions no location stands for (read when first asked), and the editor's side, for placing to link them. */
  #pickable: (() => ReadonlyMap<string, RegionOutline>) | null = null;
  #editing: (() => MapEditing | undefined) | null = null;
  #hoveredPick: string | null = null;
  /** The floor `ready` was last said for. */
  #readyFor: string | null = null;

  constructor(options: MapLibreOptions) {
    setUpMapLibre();
    this.#options = options;
    const map = (this.map = new MapLibreMap({
      container: options.container,
      style: options.styleUrl,
      // The attribution the style's sources ask for: folded behind its (i) on a phone-sized map.
      attributionControl: options.container.clientWidth < COMPACT_BELOW ? { compact: true } : {},
      cooperativeGestures: options.cooperative,
      dragRotate: false,
      pitchWithRotate: false,
      touchPitch: false,
      maxPitch: 0,
      renderWorldCopies: false,
      // Clusters and their counts come and go together (a count fading after its disc had gone read as a stray number).
      fadeDuration: 0,
    }));
    map.touchZoomRotate.disableRotation();
    map.keyboard.disableRotation();
    foldAttribution(map);
    map.getCanvas().setAttribute('aria-label', options.label);
    map.on('load', () => {
      this.#loaded = true;
      // (The accent and mode as they are now: setAccent or setStyle may have changed them while the style loaded.)
      const { accent, dark } = this.#options;
      this.#regions = new RegionLayers(map, accent, dark);
      map.addSource(MARKERS_SOURCE, { type: 'geojson', data: NO_MARKERS, cluster: true, clusterRadius: 48, clusterMaxZoom: CLUSTER_MAX_ZOOM });
      map.addSource(SELECTED_SOURCE, { type: 'geojson', data: NO_MARKERS });
      addMarkerBox(map);
      for (const layer of markerLayers(accent, dark)) map.addLayer(layer);
      this.#drawRegions();
      this.#draw(true);
    });
    // A pin a style of its own lost (one MapLibre had to build anew rather than change): drawn again.
    map.on('styleimagemissing', ({ id }: { id: string }) => {
      const colour = pinColourOf(id);
      if (colour) addPinImages(map, [colour], this.#options.dark);
      else if (id === MARKER_BOX) addMarkerBox(map);
    });
    map.on('click', (event) => this.#click(event));
    map.on('mousemove', (event) => this.#hover(event));
    map.on('mouseout', () => this.#setHover(null));
  }

  /** The floor shown (null before the host's first render). */
  get floorState(): BasemapFloorState | null {
    return this.#state;
  }

  /** The floor as the host's render has it; a new floor is fitted, and is `ready` once drawn. */
  setFloor(state: BasemapFloorState): void {
    const before = this.#state;
    this.#state = state;
    if (before?.layerId !== state.layerId || before.floor !== state.floor) this.#drawnLayer = null;
    // Another floor's regions go with it (this floor's come from its drawing, setRegions).
    if (before?.layerId !== state.layerId) {
      this.#outlines = new Map();
      this.#lines = [];
    }
    if (before?.layerId !== state.layerId || before.floor !== state.floor) this.#drawRegions();
    this.#draw(before?.locations !== state.locations || before.colours !== state.colours);
  }

  /** The markers' data (when it changed), the selected marker, and the fit of a floor new to the map. */
  #draw(markersChanged: boolean) {
    const state = this.#state;
    const { map } = this;
    if (!state || !this.#loaded) return;
    if (markersChanged) this.#setMarkers();
    this.#showSelected();
    if (this.#drawnLayer === state.layerId) return;
    this.#drawnLayer = state.layerId;
    this.resetView(false);
    // Ready once the tiles and markers of this view are drawn.
    map.once('idle', () => {
      if (this.#drawnLayer !== state.layerId) return;
      this.#readyFor = state.layerId;
      this.emit('ready');
    });
  }

  #setMarkers() {
    const state = this.#state!;
    const data = markerFeatures(state.locations, state.layerId, state.floor, state.colours, this.#visible);
    addPinImages(this.map, new Set(data.features.map((feature) => feature.properties.color)), this.#options.dark);
    (this.map.getSource(MARKERS_SOURCE) as GeoJSONSource | undefined)?.setData(data);
  }

  #showSelected() {
    const state = this.#state;
    const location = this.#selected ? state?.byId.get(this.#selected) : undefined;
    const data = state && location ? markerFeatures([location], state.layerId, state.floor, state.colours, null) : NO_MARKERS;
    if (data.features.length > 0) addPinImages(this.map, [data.features[0]!.properties.color], this.#options.dark);
    (this.map.getSource(SELECTED_SOURCE) as GeoJSONSource | undefined)?.setData(data);
  }

  /**
   * A click: a cluster zooms in, a marker or a region is chosen, elsewhere is the background.
   * Placing, as on a drawn floor (pointer-picking.ts): a region of the drawing no location stands
   * for is linked, and anywhere else (a marker, a cluster, a region a location stands for) is the
   * background, where the new location goes; nothing is chosen.
   */
  #click(event: MapMouseEvent) {
    const editing = this.#editing?.();
    const pick = editing?.placing ? this.#pickableAt(event) : null;
    if (editing && pick) return editing.onPickRegion(pick.element, pick.at);
    const feature = editing?.placing ? null : this.#pick(event.point, true);
    const region = feature || editing?.placing ? null : this.#regionAt(event.point);
    if (feature?.cluster !== undefined) {
      const source = this.map.getSource(MARKERS_SOURCE) as GeoJSONSource;
      void source.getClusterExpansionZoom(feature.cluster).then((zoom) => this.map.easeTo({ center: feature.at, zoom }), () => undefined);
    } else if (feature?.id) this.emit('select', feature.id, null);
    else if (region) this.emit('select', region, null);
    else {
      const at = this.#state && toFloor(this.#state.floor, event.lngLat.lng, event.lngLat.lat);
      if (at) this.emit('background', at);
    }
  }

  #hover(event: MapMouseEvent) {
    const feature = this.#pick(event.point, true);
    const region = feature ? null : this.#regionAt(event.point);
    const placing = this.#editing?.()?.placing === true;
    const pick = !feature && !region && placing ? this.#pickableAt(event) : null;
    // Placing, only a region a click would link shows a pointer: elsewhere the crosshair (a click places there).
    this.map.getCanvas().style.cursor = pick || (!placing && (feature || region)) ? 'pointer' : '';
    this.#showPick(pick?.element ?? null);
    this.#setHover(feature?.id ?? region);
  }
  /** The drawing's region under the pointer that no location stands for (not over a marker), with the floor point. */
  #pickableAt(event: MapMouseEvent): { element: string; at: MapPoint } | null {
    if (!this.#pickable || !this.#state || this.#pick(event.point, false) || this.#regionAt(event.point)) return null;
    const at = toFloor(this.#state.floor, event.lngLat.lng, event.lngLat.lat);
    const element = at ? outlineAt(this.#pickable(), at) : null;
    return element && at ? { element, at } : null;
  }
  /** Outlines the region placing would link (null: none). */
  #showPick(element: string | null) {
    if (element === this.#hoveredPick) return;
    this.#hoveredPick = element;
    const outline = element ? this.#pickable?.().get(element) : undefined;
    const looks = new Map<string, RegionLook>(outline ? [[element!, PICK_LOOK]] : []);
    this.#regions?.setPick(this.#state && outline ? regionFeatures(new Map([[element!, outline]]), this.#state.floor, looks) : { type: 'FeatureCollection', features: [] });
  }
  /** The regions of the drawing the editor's placing may link (null: none), read when first needed. */
  setPickable(read: (() => ReadonlyMap<string, RegionOutline>) | null): void {
    let outlines: ReadonlyMap<string, RegionOutline> | null = null;
    this.#pickable = read && (() => (outlines ??= read()));
    this.#showPick(null);
  }
  #setHover(id: string | null) {
    if (id === this.#hovered) return;
    this.#hovered = id;
    this.#regions?.only('hover', id);
    this.emit('hover', id);
  }
  /** The region under a point that its location is shown for (hidden ones are not drawn, filtered-out ones are faded and not clickable). */
  #regionAt(point: PointLike): string | null {
    if (!this.#loaded || !this.#regions) return null;
    const id = this.#regions.at(point);
    return id && this.#state?.byId.has(id) ? id : null;
  }

  /** The marker or cluster under a point (a few pixels around it, for fingers). */
  #pick(point: PointLike, clusters: boolean): { id?: string; cluster?: number; at: LngLatLike } | null {
    if (!this.#loaded) return null;
    const [x, y] = Array.isArray(point) ? point : [point.x, point.y];
    const layers = clusters ? PICKED_LAYERS : PICKED_LAYERS.filter((layer) => layer !== CLUSTER_LAYER);
    const [feature] = this.map.queryRenderedFeatures(
      [
        [x - PICK_SLOP, y - PICK_SLOP],
        [x + PICK_SLOP, y + PICK_SLOP],
      ],
      { layers },
    );
    if (!feature) return null;
    const at = (feature.geometry as GeoJSON.Point).coordinates as [number, number];
    const properties = feature.properties as { id?: string; cluster_id?: number };
    return properties.cluster_id !== undefined ? { cluster: properties.cluster_id, at } : properties.id ? { id: properties.id, at } : null;
  }

  /** The location whose marker is under a point of the map (clusters are none), for the editor's dragging. */
  markerAt(point: PointLike): string | null {
    return this.#pick(point, false)?.id ?? null;
  }
  /** A longitude/latitude as a point of the floor shown. */
  floorPointOf(at: LngLat): MapPoint | null {
    return this.#state ? toFloor(this.#state.floor, at.lng, at.lat) : null;
  }
  /** Draws a marker being dragged at `at`, over the others (null: the selection again). */
  showDragged(id: string | null, at: LngLat | null): void {
    const state = this.#state;
    const location = id ? state?.byId.get(id) : undefined;
    if (!state || !location || !at) return this.#showSelected();
    const data = markerFeatures([location], state.layerId, state.floor, state.colours, null);
    for (const feature of data.features) feature.geometry.coordinates = [at.lng, at.lat];
    (this.map.getSource(SELECTED_SOURCE) as GeoJSONSource | undefined)?.setData(data);
  }
  /** The editor's gestures (maplibre-editing.ts) while `editing` answers; answers how to stop. */
  edit(editing: () => MapEditing | undefined): () => void {
    this.#editing = editing;
    const stop = attachMapLibreEditing(this, editing);
    return () => {
      if (this.#editing === editing) this.#editing = null;
      this.#showPick(null);
      stop();
    };
  }
  /** Placing a new location: a crosshair. */
  setPlacing(placing: boolean): void {
    showPlacing(this, placing);
    if (!placing) this.#showPick(null);
  }

  on<E extends keyof MapViewEvents>(event: E, listener: MapViewEvents[E]): () => void {
    const set = ((this.#listeners[event] as Set<MapViewEvents[E]> | undefined) ??= new Set());
    set.add(listener);
    return () => set.delete(listener);
  }
  emit<E extends keyof MapViewEvents>(event: E, ...args: Parameters<MapViewEvents[E]>): void {
    this.#listeners[event]?.forEach((listener) => (listener as (...a: typeof args) => void)(...args));
  }

  /** MapLibre projects the floor's points (through longitude and latitude); they move on 'move'. */
  readonly screen: ScreenProjection = projectionOf(this);

  anchorOf(id: string): MapPoint | null {
    const position = this.#state?.byId.get(id)?.position;
    if (position) return position;
    const box = this.#outlines.get(id)?.box;
    return box ? { x: (box.minX + box.maxX) / 2, y: (box.minY + box.maxY) / 2 } : null;
  }
  /** A region's size on the floor (null for a location without one). */
  extentOf(id: string): { width: number; height: number } | null {
    const box = this.#outlines.get(id)?.box;
    return box ? { width: box.maxX - box.minX, height: box.maxY - box.minY } : null;
  }
  /** Past {@link CLUSTER_MAX_ZOOM} every point stands alone: that zoom, relative to the fitted floor. */
  revealZoom(id: string): number | null {
    if (!this.#state?.byId.has(id)) return null;
    return 2 ** (REVEAL_ZOOM - this.#fitZoom());
  }
  /** The zoom now, relative to the whole floor fitted (as the document's initial view and resetView have it). */
  relativeZoom(): number {
    return 2 ** (this.map.getZoom() - this.#fitZoom());
  }
  focus(): void {
    this.map.getCanvas().focus();
  }

  flyTo(id: string, { animate, raise = 0 }: FlyOptions): boolean {
    const state = this.#state;
    const location = state?.byId.get(id);
    if (!state || !this.#loaded) return false;
    // A region whose drawing is still being read: asked again once the view is ready with it.
    if (this.#regionsPending && location?.element && !this.#outlines.has(id)) return false;
    const position = this.anchorOf(id);
    if (!position) return true;
    const height = this.map.getContainer().clientHeight;
    const offset: [number, number] = [0, -raise * height];
    // A region is shown whole (a state, a district), in the part of the view a phone's sheet leaves
    // (and below its search bar); a marker out of any cluster.
    const box = this.#outlines.get(id)?.box;
    const whole = box && (!location?.position || location.marker === 'hidden') ? this.#wholeRegion(box, raise * height) : null;
    const center = whole?.center ?? toLngLat(state.floor, position);
    const zoom = Math.min(whole?.zoom ?? Math.max(this.map.getZoom(), REVEAL_ZOOM), this.map.getMaxZoom());
    if (animate) this.map.flyTo({ center, zoom, offset, speed: 1.6 });
    else this.map.easeTo({ center, zoom, offset, animate: false });
    return true;
  }
  /** Points of the floor in view together (the store locator's results, a route's leg), no deeper than a street's zoom. */
  fitTo(points: readonly MapPoint[], padding: number | Insets, { maxZoom = Infinity, animate = true }: FitOptions = {}): boolean {
    const state = this.#state;
    const box = boxOf(points);
    if (!state || !this.#loaded || !box) return false;
    const [west, north] = toLngLat(state.floor, { x: box.minX, y: box.minY });
    const [east, south] = toLngLat(state.floor, { x: box.maxX, y: box.maxY });
    const { map, screen } = this;
    map.fitBounds(
      [
        [Math.min(west, east), Math.min(south, north)],
        [Math.max(west, east), Math.max(south, north)],
      ],
      { padding: insetsWithin(padding, screen.width, screen.height), maxZoom: Math.min(map.getMaxZoom(), FIT_MAX_ZOOM, this.#fitZoom() + Math.log2(maxZoom)), animate },
    );
    return true;
  }
  ensureVisible(point: MapPoint, margin: number): void {
    const { dx, dy } = panInto(this.screen.toScreen(point), this.screen.width, this.screen.height, margin);
    if (dx !== 0 || dy !== 0) this.map.panBy([-dx, -dy]);
  }
  zoomBy(factor: number): void {
    this.map.zoomTo(this.map.getZoom() + Math.log2(factor));
  }
  /** The document's home view, else the whole floor fitted (centred on its points where the view cannot hold it, basemap-home.ts). */
  resetView(animate = true): void {
    const state = this.#state;
    if (!state || !this.#loaded) return;
    const { home } = state;
    const camera = home
      ? { center: toLngLat(state.floor, home), zoom: this.#fitZoom() + Math.log2(Math.max(home.zoom, 0.01)) }
      : homeOnPoints(state.floor, [...state.byId.values()].flatMap((location) => location.position ?? []), this.screen, this.#fitZoom());
    if (!camera) this.map.fitBounds(floorBounds(state.floor), { padding: FIT_PADDING, animate });
    else if (animate) this.map.easeTo(camera);
    else this.map.jumpTo(camera);
  }
  /** The middle of a region's box and the zoom that shows it whole above `raised` pixels of a sheet (doubled: the view is moved up by them). */
  #wholeRegion(box: RegionOutline['box'], raised: number): { center: [number, number]; zoom: number } | null {
    const floor = this.#state!.floor;
    const bar = raised > 0 ? PHONE_BAR : 0;
    const camera = this.map.cameraForBounds([outlinePoint(floor, { x: box.minX, y: box.maxY }), outlinePoint(floor, { x: box.maxX, y: box.minY })], {
      padding: { top: FIT_PADDING + bar, bottom: FIT_PADDING + bar + 2 * raised, left: FIT_PADDING, right: FIT_PADDING },
    });
    if (camera?.zoom === undefined) return null;
    return { center: outlinePoint(floor, { x: (box.minX + box.maxX) / 2, y: (box.minY + box.maxY) / 2 }), zoom: camera.zoom };
  }
  /** MapLibre's zoom at which the whole floor fits. */
  #fitZoom(): number {
    const state = this.#state;
    const camera = state ? this.map.cameraForBounds(floorBounds(state.floor), { padding: FIT_PADDING }) : undefined;
    return camera?.zoom ?? this.map.getZoom();
  }

  setSelected(id: string | null): void {
    this.#selected = id;
    this.#showSelected();
    this.#regions?.only('selected', id);
  }
  showLocations(ids: ReadonlySet<string> | null): void {
    if (ids === this.#visible) return;
    this.#visible = ids;
    this.#regions?.dim(ids);
    if (this.#state && this.#loaded) this.#setMarkers();
  }

  /**
   * The floor's regions and lines, read from its drawing (basemap-regions.ts), and how each
   * region looks; drawn under the markers. Null while the drawing is being read.
   */
  setRegions(outlines: ReadonlyMap<string, RegionOutline> | null, looks: ReadonlyMap<string, RegionLook>, lines: readonly Ring[] = []): void {
    this.#regionsPending = outlines === null;
    if (!outlines) return;
    this.#outlines = outlines;
    this.#looks = looks;
    this.#lines = lines;
    this.#drawRegions();
    // Where the regions are is known now: what waited for them (a deep link's flight) asks again.
    if (outlines.size > 0 && this.#state && this.#readyFor === this.#state.layerId) this.emit('ready');
  }
  #drawRegions() {
    const state = this.#state;
    const regions = this.#regions;
    if (!regions) return;
    const data: RegionCollection = state ? regionFeatures(this.#outlines, state.floor, this.#looks) : { type: 'FeatureCollection', features: [] };
    regions.setData(data);
    regions.setLines(state ? lineFeatures(this.#lines, state.floor) : { type: 'FeatureCollection', features: [] });
    regions.dim(this.#visible);
    regions.only('selected', this.#selected);
  }

  /** The keyboard's focus on a location's button (null: off them): its region lit, brought into view if it is out of it. */
  focusLocation(id: string | null): void {
    this.#regions?.only('focus', id);
    const anchor = id ? this.anchorOf(id) : null;
    if (anchor) {
      const { x, y } = this.screen.toScreen(anchor);
      const { width, height } = this.screen;
      if (x < 0 || y < 0 || x > width || y > height) this.map.easeTo({ center: toLngLat(this.#state!.floor, anchor) });
    }
    this.emit('hover', id ?? this.#hovered);
  }
  /** What is on screen (clusters, lone markers, regions) in reading order, for the keyboard's buttons. */
  marks(): BasemapMarks {
    return this.#loaded ? marksInView(this.map) : { clusters: [], points: [] };
  }
  /** Calls `listener` each time the map comes to rest (after a move, or once its tiles are drawn); answers how to stop. */
  onSettle(listener: () => void): () => void {
    this.map.on('idle', listener);
    this.map.on('moveend', listener);
    return () => {
      this.map.off('idle', listener);
      this.map.off('moveend', listener);
    };
  }
  /** Zooms into a cluster until it splits; answers the ids of its parts (clusters as `cluster-<id>`, locations by id). */
  async expandCluster(clusterId: number, center: [number, number]): Promise<string[]> {
    const source = this.map.getSource(MARKERS_SOURCE) as GeoJSONSource;
    const [zoom, children] = await Promise.all([source.getClusterExpansionZoom(clusterId), source.getClusterChildren(clusterId)]);
    this.map.easeTo({ center, zoom });
    return children.map((child) => {
      const properties = child.properties as { id?: string; cluster_id?: number } | null;
      return properties?.cluster_id !== undefined ? `cluster-${properties.cluster_id}` : (properties?.id ?? '');
    });
  }

  /**
   * The theme's accent changed (someone edited the map's settings): the clusters, outlines and
   * selection are repainted in it, and the map, its tiles and its view stay as they are.
   */
  setAccent(accent: string): void {
    if (accent === this.#options.accent) return;
    this.#options = { ...this.#options, accent };
    if (!this.#loaded) return;
    for (const layer of [...regionLayers(accent, this.#options.dark), ...markerLayers(accent, this.#options.dark)]) {
      if (!('paint' in layer) || !layer.paint || !this.map.getLayer(layer.id)) continue;
      // (Object.entries loses the paint's key type: the names are the layer's own.)
      for (const [name, value] of Object.entries(layer.paint)) this.map.setPaintProperty(layer.id, name as Parameters<MapLibreMap['setPaintProperty']>[1], value);
    }
  }

  /**
   * The basemap's style for another theme mode or language (labels are in the style): MapLibre
   * changes the map's style in place (its diff of the two styles: the basemap's layers repainted,
   * their source and its tiles kept), and the floor's own sources and layers (markers, clusters,
   * regions, selection) are carried into the new style, in the new mode's colours; the view stays.
   * Before, the map was made again: it went home and every tile was fetched again.
   */
  setStyle(styleUrl: string, dark: boolean): void {
    const before = this.#options;
    if (styleUrl === before.styleUrl && dark === before.dark) return;
    this.#options = { ...before, styleUrl, dark };
    this.map.setStyle(styleUrl, { diff: true, transformStyle: (previous, next) => this.#withFloorLayers(previous, next) });
    if (this.#loaded && dark !== before.dark) repaintPins(this.map, dark);
  }
  /** The next basemap style with the floor's sources and layers of the style before (the regions under its labels, the markers on top). */
  #withFloorLayers(previous: StyleSpecification | undefined, next: StyleSpecification): StyleSpecification {
    if (!previous) return next;
    const own = (id: string) => id.startsWith('mf-');
    const { accent, dark } = this.#options;
    const regions = regionLayers(accent, dark) as LayerSpecification[];
    const fresh = new Map([...regions, ...(markerLayers(accent, dark) as LayerSpecification[])].map((layer) => [layer.id, layer]));
    const carried = previous.layers.filter((layer) => own(layer.id)).map((layer) => fresh.get(layer.id) ?? layer);
    const under = carried.filter((layer) => regions.some((region) => region.id === layer.id));
    const over = carried.filter((layer) => !under.includes(layer));
    const basemap = next.layers.filter((layer) => !own(layer.id));
    const labels = basemap.findIndex((layer) => layer.type === 'symbol');
    const at = labels < 0 ? basemap.length : labels;
    const sources = Object.fromEntries(Object.entries(previous.sources).filter(([id]) => own(id)));
    return { ...next, sources: { ...next.sources, ...sources }, layers: [...basemap.slice(0, at), ...under, ...basemap.slice(at), ...over] };
  }

  /** Stops drawing (the host is gone). */
  destroy(): void {
    this.map.remove();
  }
}

/** Where MapLibre shows a floor's points, read when asked (the map's container and camera now). */
function projectionOf(view: MapLibreMapView): ScreenProjection {
  return {
    get width() {
      return view.map.getContainer().clientWidth;
    },
    get height() {
      return view.map.getContainer().clientHeight;
    },
    // MapLibre's own limits: the whole world out, its deepest zoom in.
    get canZoomIn() {
      return view.map.getZoom() < view.map.getMaxZoom() - 1e-6;
    },
    get canZoomOut() {
      return view.map.getZoom() > view.map.getMinZoom() + 1e-6;
    },
    toScreen(point) {
      const state = view.floorState;
      if (!state) return { x: -1e6, y: -1e6 };
      const { x, y } = view.map.project(toLngLat(state.floor, point));
      return { x, y };
    },
    // MapLibre's unproject (its latitudes within Web Mercator's), then the floor's linear Web Mercator units.
    toMap(x, y) {
      return view.floorPointOf(view.map.unproject([x, y])) ?? { x: -1e6, y: -1e6 };
    },
    get zoom() {
      return view.relativeZoom();
    },
    onFrame(listener) {
      view.map.on('move', listener);
      view.map.on('resize', listener);
      return () => {
        view.map.off('move', listener);
        view.map.off('resize', listener);
      };
    },
  };
}
