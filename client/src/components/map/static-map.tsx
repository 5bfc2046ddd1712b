/**
 * A layer as plain HTML, laid out by CSS alone: the floor (its file as an image, or the plain
 * sheet) fitted into the viewport like the camera's home view, and each marker at its place
 * in percent of the layer. The server renders it into the viewer's page, so the map is on
 * screen before (or without) the JavaScript; once the renderer's own floor and canvas are
 * drawn it takes over and this goes (map-renderer.tsx, `staticFirst`).
 *
 * Markers keep their size on screen at any width, like the canvas's; with more markers than
 * the canvas's dense limit they are its small overview dots, without labels.
 *
 * The markers are one string of markup, not React elements: hydration then takes the server's
 * thousands of markers as they are instead of walking each (React does not hydrate inside
 * `dangerouslySetInnerHTML`), and they go as soon as the canvas is drawn. Everything in the
 * string comes from {@link markersMarkup}, which escapes the labels' text and lets through
 * only colours like #4f46e5.
 *
 * A layer with many points (25,000 stores) is drawn as its clusters (clustering.ts) at the
 * opening view on a desktop-sized map, not as a marker each: the page stays small. Only the
 * server computes them ({@link setStaticClusterer}: supercluster is never in the browser's
 * first load for this); the browser, hydrating, takes the markup the server left in the page.
 */
import { useContext, type CSSProperties } from 'react';
import { useTranslator } from '../../i18n/i18n-context';
import type { Translator } from '../../i18n/translator';
import type { MarkerItem } from './marker-layer';
import { RegionTintsContext } from './region-tints';
import { clusterBadgeText, clusterCountText, clusterDiameter } from './cluster-look';
import { CLUSTER_FROM, clusterableItems } from './cluster-items';

/** The clusters of the points given, at a zoom level of the static map (1: the layer fitted). */
export type StaticClusterer = (points: readonly MarkerItem[], width: number, height: number, zoom: number, maxZoom: number) => { clusters: Array<{ x: number; y: number; count: number }>; points: MarkerItem[] };
let clusterer: StaticClusterer | null = null;
/** The server renderer gives the clusterer (client/src/viewer-server.tsx). */
export function setStaticClusterer(next: StaticClusterer | null): void {
  clusterer = next;
}

/** Above this many markers, small dots (the canvas's overview, marker-layer.ts DENSE_MARKERS). */
const DENSE = 800;

export interface StaticMapProps {
  width: number;
  height: number;
  /** The layer's file: an SVG or an image, shown as an image (no script in it ever runs). */
  fileUrl: string | null;
  /** The sheet's colour when the layer has no file. */
  sheet: string;
  items: readonly MarkerItem[];
  /**
   * The view the map opens at (the camera's home view: the document's initial view, or the
   * whole layer at the minimum zoom), when it is not the whole layer fitted: the centre in
   * layer units and the zoom (1 fits the layer). CSS alone places the box (map-renderer.css).
   */
  view?: { x: number; y: number; zoom: number } | null;
  /** The clusters' colour (the theme's accent). */
  accent?: string;
  /** The camera's deepest zoom: the clusters are made as the canvas makes them (clustering.ts). */
  maxZoom?: number;
}

/**
 * Labels are checked for room on a phone, where the canvas leaves out those that would overlap
 * an earlier one: the layer fitted into about this many pixels of width (a 375 px screen less
 * the map's margins), its labels as the narrow style draws them (map-renderer.css).
 */
const PHONE_WIDTH = 350;
const PHONE_HEIGHT = 560;
const PHONE_LABEL = { charWidth: 5.8, maxWidth: 64, lineHeight: 12 };

/** The labels that would overlap an earlier label on a phone (by index), in the canvas's order. */
export function crowdedOnPhone(items: readonly MarkerItem[], width: number, height: number, zoom = 1): Set<number> {
  const scale = Math.min(PHONE_WIDTH / width, PHONE_HEIGHT / height) * zoom;
  const placed: Array<[number, number, number, number]> = [];
  const crowded = new Set<number>();
  items.forEach((item, index) => {
    if (item.type !== 'label' || !item.text) return;
    const textWidth = item.text.length * PHONE_LABEL.charWidth;
    const w = Math.min(textWidth, PHONE_LABEL.maxWidth);
    const h = Math.ceil(textWidth / PHONE_LABEL.maxWidth) * PHONE_LABEL.lineHeight;
    const x0 = item.x * scale - w / 2;
    const y0 = item.y * scale - h / 2;
    const box: [number, number, number, number] = [x0, y0, x0 + w, y0 + h];
    if (placed.some(([a0, b0, a1, b1]) => box[0] < a1 && box[2] > a0 && box[1] < b1 && box[3] > b0)) crowded.add(index);
    else placed.push(box);
  });
  return crowded;
}

const percent = (value: number, of: number) => `${Math.round((value / of) * 100_000) / 1000}%`;
const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const HEX_COLOUR = /^#[0-9a-fA-F]{3,8}$/;
const TYPES = new Set(['pin', 'circle', 'dot', 'label', 'thumbnail']);

/** The markers as markup, each at its place in percent of the layer. */
export function markersMarkup(items: readonly MarkerItem[], width: number, height: number, zoom = 1): string {
  const dense = items.length > DENSE;
  const crowded = dense ? new Set<number>() : crowdedOnPhone(items, width, height, zoom);
  let html = '';
  items.forEach((item, index) => {
    const type = dense ? 'compact' : TYPES.has(item.type) ? item.type : 'circle';
    const colour = HEX_COLOUR.test(item.color) ? `;--c:${item.color}` : '';
    const text = type === 'label' ? escapeText(item.text ?? '') : '';
    // On a phone a crowded label is left out, as the canvas leaves it out (map-renderer.css).
    const room = crowded.has(index) ? ' mf-static__marker--crowded' : '';
    html += `<span class="mf-static__marker mf-static__marker--${type}${room}" style="left:${percent(item.x, width)};top:${percent(item.y, height)}${colour}">${text}</span>`;
  });
  return html;
}

/**
 * The markers, or the clusters and the markers left alone when the server has a clusterer (their
 * counts in the words and digits of `translator`'s language).
 */
export function staticMarkup(items: readonly MarkerItem[], width: number, height: number, zoom: number, accent: string, translator: Pick<Translator, 't' | 'locale'>, maxZoom = zoom): string {
  if (items.length < CLUSTER_FROM || !clusterer) return markersMarkup(items, width, height, zoom);
  const clustered = clusterableItems(items, null);
  const inClusters = new Set(clustered.map((item) => item.id));
  const { clusters, points } = clusterer(clustered, width, height, zoom, Math.max(zoom, maxZoom));
  const alone = [...items.filter((item) => !inClusters.has(item.id)), ...points].sort((a, b) => a.y - b.y || a.x - b.x);
  let html = markersMarkup(alone, width, height, zoom);
  const colour = HEX_COLOUR.test(accent) ? `;--c:${accent}` : '';
  for (const cluster of clusters) {
    const size = clusterDiameter(cluster.count);
    html += `<span class="mf-static__cluster" style="left:${percent(cluster.x, width)};top:${percent(cluster.y, height)};--d:${size}px${colour}" data-count="${cluster.count}" title="${escapeText(clusterCountText(cluster.count, translator.t))}">${escapeText(clusterBadgeText(cluster.count, translator.locale))}</span>`;
  }
  return html;
}

/**
 * The markup the server put in the page, as it is: hydrating takes it unchanged (and the
 * browser neither computes thousands of markers again nor needs the clusters' code for it).
 */
function serverMarkup(): string | null {
  if (typeof document === 'undefined') return null;
  return document.querySelector('.mf-static__markers')?.innerHTML ?? null;
}

export function StaticMap({ width, height, fileUrl, sheet, items, view = null, accent = '', maxZoom }: StaticMapProps) {
  // The server's tints of the floor's regions (region-tints.ts), given to its renderer only;
  // in the browser, the server's markup as it is (hydrated unchanged, like the markers).
  const tints = useContext(RegionTintsContext);
  const translator = useTranslator();
  const tinted = (typeof document === 'undefined' ? null : document.querySelector('.mf-static__regions')?.innerHTML) ?? (fileUrl !== null && tints?.fileUrl === fileUrl ? tints.markup : '');
  // The box is the layer fitted into the viewport (a size container): the narrower of its
  // width and its height at the layer's aspect ratio; with a view, that times its zoom, moved
  // to put the view's centre in the middle (as the camera does, the layer kept on screen).
  const box = {
    '--mf-static-ratio': `${width} / ${height}`,
    '--mf-static-aspect': width / height,
    ...(view ? { '--mf-z': view.zoom, '--mf-px': view.x / width, '--mf-py': view.y / height } : {}),
  } as CSSProperties;
  return (
    <div className="mf-static" aria-hidden="true">
      <div className={view ? 'mf-static__box mf-static__box--view' : 'mf-static__box'} style={box}>
        {fileUrl ? <img className="mf-static__floor" src={fileUrl} alt="" width={width} height={height} decoding="async" /> : <div className="mf-static__sheet" style={{ background: sheet }} />}
        {fileUrl ? <div className="mf-static__regions" dangerouslySetInnerHTML={{ __html: tinted }} /> : null}
        <div className="mf-static__markers" dangerouslySetInnerHTML={{ __html: serverMarkup() ?? staticMarkup(items, width, height, view?.zoom ?? 1, accent, translator, maxZoom) }} />
      </div>
    </div>
  );
}
