/**
 * What a picture of the map shows, worked out from the document and the view before anything
 * is drawn: the frame (the view on screen, or the whole floor), the regions' colours, the
 * markers as the canvas draws them (filtered, labels that would overlap left out, thousands of
 * points as small dots), the title, the floor's name and the legend. Pure: the SVG is built
 * from it by scene-svg.ts, and tests check it without a browser.
 */
import { tint } from '../svg-layer';
import { wrapLabel, type MarkerItem, type MarkerType } from '../marker-layer';
import { CLUSTER_FROM, clusterableItems } from '../cluster-items';
import { clusterBadgeText, clusterDiameter } from '../cluster-look';
import type { Layer, Location, MapDocument } from '../types';
import type { Translator } from '../../../i18n/translator';

/** The picture's language: its words (the legend's title), `lang` and direction. */
export type PictureLanguage = Pick<Translator, 'locale' | 'dir' | 't'>;

/** The view on screen: the layer's origin on screen (x, y), its scale (k) and the viewport's size. */
export interface ScreenView {
  x: number;
  y: number;
  k: number;
  width: number;
  height: number;
}

export interface SceneRequest {
  document: MapDocument;
  layer: Layer;
  title: string;
  /** 'view': what is on screen; 'floor': the whole floor. */
  extent: 'view' | 'floor';
  /** The view on screen (needed for 'view'; without it the whole floor is drawn). */
  view?: ScreenView | null;
  selectedId?: string | null;
  /** The locations the filters let through; null lets all through. */
  visibleIds?: ReadonlySet<string> | null;
  /**
   * At most this many CSS pixels across (the view scaled down, the floor's longer side this long):
   * the markers and labels keep their size, so they take more of a smaller picture (a printed page).
   */
  maxSide?: number;
  /** Draw the title above the map and the legend below it (default true). */
  decorations?: boolean;
  /** Measures text in the label font (12 px, semibold); an estimate when absent. */
  measure?: TextMeasure;
  /**
   * Clusters a layer's many points (clustering.ts, loaded by the caller for such a layer): the
   * clusters and lone markers at a view of a frame, `deepest` at the camera's deepest zoom.
   */
  cluster?: ClusterFunction;
  /**
   * The language the picture speaks (the viewer's, the editor's English): its legend's title,
   * the numbers on cluster badges, and right to left for Arabic. Without it the picture has no
   * words of its own (its title, floor and legend entries are the map's) and no `lang`.
   */
  translator?: PictureLanguage;
}

export type ClusterFunction = (
  points: readonly MarkerItem[],
  view: { x: number; y: number; k: number },
  width: number,
  height: number,
  deepest: boolean,
) => { clusters: ReadonlyArray<{ x: number; y: number; count: number }>; points: readonly MarkerItem[] };

/** Whether a layer has enough point markers to be clustered (the renderer's rule, cluster-items.ts). */
export function layerIsClustered(doc: MapDocument, layer: Layer): boolean {
  let count = 0;
  for (const location of doc.locations) if (location.layer === layer.id && !location.hidden && location.position && location.marker !== 'hidden') count++;
  return count >= CLUSTER_FROM;
}

/** The width in pixels of a text at a font size and weight. */
export type TextMeasure = (text: string, size: number, weight: number) => number;

export interface SceneRegion {
  /** The drawing's element id. */
  element: string;
  fill: string;
  active: boolean;
  dim: boolean;
}

export interface SceneMarker {
  id: string;
  /** A cluster: a badge with its count (`text`), `width` its diameter. */
  type: Exclude<MarkerType, 'hidden'> | 'compact' | 'cluster';
  /** Where its anchor is, in the map area's pixels. */
  x: number;
  y: number;
  color: string;
  /** The text on a pin or circle (up to 3 characters). */
  text: string;
  /** A label's lines. */
  lines: string[];
  /** A label's box width (text plus margins). */
  width: number;
  image: string | null;
  active: boolean;
}

export interface Scene {
  /** The whole picture, in CSS pixels. */
  width: number;
  height: number;
  /** The map's area in the picture. */
  map: { x: number; y: number; width: number; height: number };
  /** Layer units to map-area pixels: `x * k + tx`. */
  k: number;
  tx: number;
  ty: number;
  dark: boolean;
  accent: string;
  /** Behind the floor (the map's background). */
  background: string;
  /** The picture's own background (the title and legend bands). */
  paper: string;
  ink: string;
  muted: string;
  floor: { kind: 'svg' | 'image' | 'sheet'; width: number; height: number; sheet: string };
  regions: SceneRegion[];
  regionBase: string;
  markers: SceneMarker[];
  title: string;
  floorName: string;
  /** The title band's height (0 without decorations). */
  header: number;
  /**
   * The legend's entries: `x` is where each starts in reading order (its left edge, or its right
   * edge right to left), `y` its row's middle.
   */
  legend: Array<{ name: string; color: string; x: number; y: number }>;
  /** The legend's title, first on its first row (none without a translator or a legend). */
  legendTitle: { text: string; x: number; y: number } | null;
  /** The picture's language (`lang`), and its direction: right to left, the title band and legend run from the right. */
  lang: string | null;
  dir: 'ltr' | 'rtl';
}

/** The whole floor is drawn with its longer side this long (CSS pixels; 2× doubles it). */
export const FLOOR_LONG_SIDE = 1600;
export const FLOOR_MARGIN = 32;
const HEADER = 64;
const LEGEND_ROW = 26;
const LEGEND_PAD = 20;
/** Above this many point markers in the frame, small dots without labels (marker-layer.ts). */
const DENSE_MARKERS = 800;
export const LABEL_FONT_SIZE = 12;
export const LABEL_LINE = 15;
const HEX = /^#[0-9a-fA-F]{6}$/;

/** An estimate of a text's width, where no canvas measures it (tests, the server). */
export const estimateText: TextMeasure = (text, size, weight) => text.length * size * (weight >= 600 ? 0.58 : 0.54);

const colour = (value: string | null | undefined, fallback: string) => (value && HEX.test(value) ? value : fallback);

/** A location's marker colour: its own, else its first group's, else the accent (map-renderer.tsx). */
function colourOf(location: Location, groupColours: ReadonlyMap<string, string>, accent: string): string {
  if (location.color) return location.color;
  for (const group of location.groups) {
    const found = groupColours.get(group);
    if (found) return found;
  }
  return accent;
}

/** The text, cut with an ellipsis to fit a width. */
function fit(text: string, size: number, weight: number, max: number, measure: TextMeasure): string {
  if (measure(text, size, weight) <= max) return text;
  let end = text.length;
  while (end > 1 && measure(`${text.slice(0, end)}…`, size, weight) > max) end--;
  return `${text.slice(0, end).trimEnd()}…`;
}

export function buildScene(request: SceneRequest): Scene {
  const { document: doc, layer, title } = request;
  const measure = request.measure ?? estimateText;
  const decorations = request.decorations ?? true;
  const { theme } = doc.settings;
  const dark = theme.mode === 'dark';
  const accent = colour(theme.accent, '#4f46e5');
  const layerWidth = layer.file?.width ?? doc.settings.size.width;
  const layerHeight = layer.file?.height ?? doc.settings.size.height;
  const selected = request.selectedId ?? null;
  const visible = request.visibleIds ?? null;
  const shows = (id: string) => visible === null || visible.has(id) || id === selected;

  // The frame: the viewport as it is, or the whole floor with a margin around it.
  const view = request.extent === 'view' && request.view && request.view.width > 0 && request.view.height > 0 ? request.view : null;
  let mapWidth: number;
  let mapHeight: number;
  let k: number;
  let tx: number;
  let ty: number;
  if (view) {
    const scale = Math.min(1, (request.maxSide ?? Infinity) / Math.max(view.width, view.height));
    mapWidth = Math.round(view.width * scale);
    mapHeight = Math.round(view.height * scale);
    k = view.k * scale;
    tx = view.x * scale;
    ty = view.y * scale;
  } else {
    k = Math.min(FLOOR_LONG_SIDE, request.maxSide ?? Infinity) / Math.max(layerWidth, layerHeight);
    mapWidth = Math.round(layerWidth * k) + FLOOR_MARGIN * 2;
    mapHeight = Math.round(layerHeight * k) + FLOOR_MARGIN * 2;
    tx = FLOOR_MARGIN;
    ty = FLOOR_MARGIN;
  }

  const groupColours = new Map(doc.groups.map((group) => [group.id, group.color]));
  const onLayer = doc.locations.filter((location) => location.layer === layer.id && !location.hidden);

  const regions: SceneRegion[] = onLayer
    .filter((location) => location.element)
    .map((location) => {
      const own = location.color ?? (location.groups[0] ? groupColours.get(location.groups[0]) ?? null : null);
      const active = location.id === selected;
      const fill = own ? tint(own, active ? 0.3 : 0.72) : active ? doc.styles.regions.active : doc.styles.regions.base;
      return { element: location.element!, fill: colour(fill, '#e2e8f0'), active, dim: !shows(location.id) };
    });

  // The markers in the frame, as the canvas draws them: labels first (each only where no
  // earlier one sits), then the points, then the selected one on top.
  const margin = 40;
  // A clustered layer draws what its clusters leave alone, and the clusters (as the canvas does).
  let alone: Set<string> | null = null;
  const clusterMarks: SceneMarker[] = [];
  if (request.cluster && layerIsClustered(doc, layer)) {
    const items: MarkerItem[] = onLayer
      .filter((location) => location.position && location.marker !== 'hidden')
      .map((location) => ({ id: location.id, x: location.position!.x, y: location.position!.y, type: location.marker, color: '', text: '', image: null, region: !!location.element }));
    const points = clusterableItems(items, visible === null ? null : new Set([...visible, ...(selected ? [selected] : [])]));
    const fit = Math.min(mapWidth / layerWidth, mapHeight / layerHeight);
    const deepest = view !== null && k / fit >= doc.settings.maxZoom - 1e-6;
    const frame = request.cluster(points, { x: tx, y: ty, k }, mapWidth, mapHeight, deepest);
    const clustered = new Set(points.map((point) => point.id));
    alone = new Set([...items.filter((item) => !clustered.has(item.id)).map((item) => item.id), ...frame.points.map((point) => point.id)]);
    if (selected) alone.add(selected);
    frame.clusters.forEach((cluster, i) => {
      const diameter = clusterDiameter(cluster.count);
      clusterMarks.push({ id: `cluster-${i}`, type: 'cluster', x: cluster.x * k + tx, y: cluster.y * k + ty, color: accent, text: clusterBadgeText(cluster.count, request.translator?.locale), lines: [], width: diameter, image: null, active: false });
    });
  }
  const inFrame = onLayer.filter((location) => {
    if (!location.position || location.marker === 'hidden' || !shows(location.id) || (alone !== null && !alone.has(location.id))) return false;
    const sx = location.position.x * k + tx;
    const sy = location.position.y * k + ty;
    return sx >= -margin && sy >= -margin && sx <= mapWidth + margin && sy <= mapHeight + margin;
  });
  inFrame.sort((a, b) => a.position!.y - b.position!.y || a.position!.x - b.position!.x);
  const points = inFrame.filter((location) => location.marker !== 'label' && location.id !== selected).length;
  const compact = points > DENSE_MARKERS;
  const markers: SceneMarker[] = [];
  const placed: Array<[number, number, number, number]> = [];
  const markerOf = (location: Location, active: boolean): SceneMarker => {
    const type = location.marker as SceneMarker['type'];
    const text = type === 'label' ? location.label || location.title : location.label;
    const lines = type === 'label' ? wrapLabel(text, (value) => measure(value, LABEL_FONT_SIZE, 600)) : [];
    const width = lines.length > 0 ? Math.ceil(Math.max(...lines.map((line) => measure(line, LABEL_FONT_SIZE, 600)))) + (active ? 16 : 6) : 0;
    let x = location.position!.x * k + tx;
    // A label whose place is in the frame but whose text runs past a side is moved in whole (as the canvas does).
    if (type === 'label' && x >= 0 && x <= mapWidth && width <= mapWidth) x = Math.min(Math.max(x, width / 2), mapWidth - width / 2);
    return {
      id: location.id,
      type: compact && !active && type !== 'label' ? 'compact' : type,
      x,
      y: location.position!.y * k + ty,
      color: colour(colourOf(location, groupColours, accent), accent),
      text: type !== 'label' && text.length <= 3 ? text : '',
      lines,
      width,
      image: type === 'thumbnail' ? location.thumbnail ?? location.image : null,
      active,
    };
  };
  if (!compact) {
    for (const location of inFrame) {
      if (location.marker !== 'label' || location.id === selected) continue;
      const marker = markerOf(location, false);
      const h = marker.lines.length * LABEL_LINE + 3;
      const box: [number, number, number, number] = [marker.x - marker.width / 2, marker.y - h / 2, marker.x + marker.width / 2, marker.y + h / 2];
      if (placed.some(([x0, y0, x1, y1]) => box[0] < x1 && box[2] > x0 && box[1] < y1 && box[3] > y0)) continue;
      placed.push(box);
      markers.push(marker);
    }
  }
  for (const location of inFrame) if (location.marker !== 'label' && location.id !== selected) markers.push(markerOf(location, false));
  // The clusters over the lone markers, the largest on top (clustering.ts sorts them so).
  markers.push(...clusterMarks.filter((mark) => mark.x >= -margin && mark.y >= -margin && mark.x <= mapWidth + margin && mark.y <= mapHeight + margin));
  const chosen = inFrame.find((location) => location.id === selected);
  if (chosen) markers.push(markerOf(chosen, true));

  // The title band above the map and the legend's rows below it.
  const header = decorations ? HEADER : 0;
  const legend: Scene['legend'] = [];
  let legendTitle: Scene['legendTitle'] = null;
  let legendHeight = 0;
  const dir = request.translator?.dir ?? 'ltr';
  // Laid out left to right; right to left each place is mirrored (it then marks the entry's right edge).
  const start = (x: number) => (dir === 'rtl' ? mapWidth - x : x);
  if (decorations) {
    const groups = doc.groups.filter((group) => group.legend && onLayer.some((location) => location.groups.includes(group.id)));
    const rowY = (row: number) => header + mapHeight + LEGEND_PAD / 2 + row * LEGEND_ROW + LEGEND_ROW / 2;
    let x = LEGEND_PAD;
    let row = 0;
    if (groups.length > 0 && request.translator) {
      const text = fit(request.translator.t('share.legend'), 13, 700, mapWidth / 2, measure);
      legendTitle = { text, x: start(x), y: rowY(0) };
      x += measure(text, 13, 700) + 16;
    }
    for (const group of groups) {
      const w = 18 + measure(group.name, 13, 500) + 20;
      if (x + w > mapWidth - LEGEND_PAD && x > LEGEND_PAD) {
        x = LEGEND_PAD;
        row++;
      }
      legend.push({ name: group.name, color: colour(group.color, accent), x: start(x), y: rowY(row) });
      x += w;
    }
    if (groups.length > 0) legendHeight = (row + 1) * LEGEND_ROW + LEGEND_PAD;
  }

  return {
    width: mapWidth,
    height: header + mapHeight + legendHeight,
    map: { x: 0, y: header, width: mapWidth, height: mapHeight },
    k,
    tx,
    ty,
    dark,
    accent,
    background: colour(theme.background, dark ? '#0f172a' : '#f8fafc'),
    paper: dark ? '#0f172a' : '#ffffff',
    ink: dark ? '#f1f5f9' : '#0f172a',
    muted: dark ? '#94a3b8' : '#64748b',
    floor: { kind: layer.file?.kind ?? 'sheet', width: layerWidth, height: layerHeight, sheet: dark ? '#1e293b' : '#ffffff' },
    regions,
    regionBase: colour(doc.styles.regions.base, '#e2e8f0'),
    markers,
    title: fit(title, 18, 700, mapWidth - 40, measure),
    floorName: fit(layer.name, 13, 500, mapWidth - 40, measure),
    header,
    legend,
    legendTitle,
    lang: request.translator?.locale ?? null,
    dir,
  };
}
