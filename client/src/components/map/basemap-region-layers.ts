/**
 * A basemap floor's regions on MapLibre's map (issue 29 item 1; basemap-regions.ts makes their
 * GeoJSON): a fill and an outline under the markers and under the basemap's labels, so the
 * streets and the towns' names stay readable through them. They follow the canvas's rules
 * (svg-layer.ts): the fill lighter at rest, darker hovered or focused, darkest selected with
 * an outline in the accent; a region the filters leave out faded and not clickable. The states
 * are MapLibre's feature states, keyed by location id. The drawing's lines (a file's routes and
 * boundaries, basemap-regions.ts drawingLines) go over the regions, in the accent with a casing
 * of the mode's ground so they read over streets and fills alike. While placing, the editor's
 * pointer over a region no location stands for outlines it lightly (the one a click would link).
 */
import type { AddLayerObject, ExpressionSpecification, GeoJSONSource, Map as MapLibreMap, PointLike } from 'maplibre-gl';
import type { LineCollection, RegionCollection } from './basemap-regions';

export const REGIONS_SOURCE = 'mf-regions';
export const REGION_FILL = 'mf-region-fill';
export const REGION_LINE = 'mf-region-line';
export const LINES_SOURCE = 'mf-lines';
/** The region the editor's placing would link (one no location stands for), outlined under the pointer. */
export const PICK_SOURCE = 'mf-pick';
const EMPTY: RegionCollection = { type: 'FeatureCollection', features: [] };
const NO_LINES: LineCollection = { type: 'FeatureCollection', features: [] };

type RegionState = 'hover' | 'focus' | 'selected' | 'dim';
const state = (name: RegionState): ExpressionSpecification => ['boolean', ['feature-state', name], false];
const lit: ExpressionSpecification = ['any', state('hover'), state('focus')];

/** The regions' fill and outline and the drawing's lines, for the theme's accent and mode. */
export function regionLayers(accent: string, dark: boolean): AddLayerObject[] {
  return [
    {
      id: REGION_FILL,
      type: 'fill',
      source: REGIONS_SOURCE,
      paint: {
        'fill-color': ['case', state('selected'), ['get', 'active'], lit, ['get', 'hover'], ['get', 'fill']],
        // The basemap shows through: the regions tint it, as a choropleth on a web map does.
        'fill-opacity': ['case', state('dim'), 0.15, state('selected'), 0.78, lit, 0.7, dark ? 0.5 : 0.58],
      },
    },
    {
      id: REGION_LINE,
      type: 'line',
      source: REGIONS_SOURCE,
      layout: { 'line-join': 'round' },
      paint: {
        'line-color': ['case', ['any', state('selected'), state('focus')], accent, ['get', 'line']],
        'line-width': ['case', ['any', state('selected'), state('focus')], 3, lit, 2, 1.2],
        'line-opacity': ['case', state('dim'), 0.3, 0.9],
      },
    },
    {
      id: 'mf-pick-fill',
      type: 'fill',
      source: PICK_SOURCE,
      paint: { 'fill-color': accent, 'fill-opacity': 0.12 },
    },
    {
      id: 'mf-pick-line',
      type: 'line',
      source: PICK_SOURCE,
      layout: { 'line-join': 'round' },
      paint: { 'line-color': accent, 'line-width': 2, 'line-dasharray': [3, 2] },
    },
    {
      id: 'mf-lines-casing',
      type: 'line',
      source: LINES_SOURCE,
      layout: { 'line-join': 'round', 'line-cap': 'round' },
      paint: { 'line-color': dark ? '#0f172a' : '#ffffff', 'line-width': 5.5, 'line-opacity': 0.85 },
    },
    {
      id: 'mf-lines',
      type: 'line',
      source: LINES_SOURCE,
      layout: { 'line-join': 'round', 'line-cap': 'round' },
      paint: { 'line-color': accent, 'line-width': 3 },
    },
  ] as AddLayerObject[];
}

/** The regions' source and layers on a map, and their states. */
export class RegionLayers {
  #ids = new Set<string>();
  #states = new Map<string, Partial<Record<RegionState, boolean>>>();

  constructor(private readonly map: MapLibreMap, accent: string, dark: boolean) {
    map.addSource(REGIONS_SOURCE, { type: 'geojson', data: EMPTY, promoteId: 'id' });
    map.addSource(LINES_SOURCE, { type: 'geojson', data: NO_LINES });
    map.addSource(PICK_SOURCE, { type: 'geojson', data: EMPTY });
    // Under the basemap's first label (its symbols), over its land, water and roads.
    const labels = map.getStyle().layers.find((layer) => layer.type === 'symbol')?.id;
    for (const layer of regionLayers(accent, dark)) map.addLayer(layer, labels);
  }

  /** The regions drawn (their states kept for the ids still there). */
  setData(data: RegionCollection): void {
    this.#ids = new Set(data.features.map((feature) => feature.properties.id));
    (this.map.getSource(REGIONS_SOURCE) as GeoJSONSource | undefined)?.setData(data);
    for (const [id, states] of this.#states) if (this.#ids.has(id)) this.map.setFeatureState({ source: REGIONS_SOURCE, id }, states);
  }

  /** The region placing would link, outlined (none: an empty collection). */
  setPick(data: RegionCollection): void {
    (this.map.getSource(PICK_SOURCE) as GeoJSONSource | undefined)?.setData(data);
  }

  /** The drawing's lines drawn. */
  setLines(data: LineCollection): void {
    (this.map.getSource(LINES_SOURCE) as GeoJSONSource | undefined)?.setData(data);
  }

  /** Sets a state on one region (null: on none), taking it off the one that had it. */
  only(name: Exclude<RegionState, 'dim'>, id: string | null): void {
    for (const [other, states] of this.#states) if (states[name] && other !== id) this.#set(other, name, false);
    if (id) this.#set(id, name, true);
  }

  /** Fades the regions the filters leave out (`visible` null: none). */
  dim(visible: ReadonlySet<string> | null): void {
    for (const id of new Set([...this.#ids, ...this.#states.keys()])) this.#set(id, 'dim', visible !== null && !visible.has(id));
  }

  isDimmed(id: string): boolean {
    return this.#states.get(id)?.dim === true;
  }

  /** The region under a point (not a faded one), or null. */
  at(point: PointLike): string | null {
    for (const feature of this.map.queryRenderedFeatures(point, { layers: [REGION_FILL] })) {
      const id = (feature.properties as { id?: string }).id;
      if (id && !this.isDimmed(id)) return id;
    }
    return null;
  }

  #set(id: string, name: RegionState, on: boolean) {
    const states = this.#states.get(id) ?? {};
    if ((states[name] ?? false) === on) return;
    states[name] = on;
    this.#states.set(id, states);
    if (this.#ids.has(id)) this.map.setFeatureState({ source: REGIONS_SOURCE, id }, { [name]: on });
  }
}
