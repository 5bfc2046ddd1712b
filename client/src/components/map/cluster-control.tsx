/**
 * The clusters at work on one renderer's canvas (map-renderer.tsx): the index built for the
 * points and filters of the moment, handed to the marker layer; what is on screen when the
 * view settles (for the keyboard's buttons); a click on a cluster zooming into it. Loaded with
 * clustering.ts, only for layers with many points, so the renderer's first chunk carries none
 * of it.
 */
import { useEffect, useRef, type ReactNode } from 'react';
import type { Camera } from './camera';
import { useTranslator } from '../../i18n/i18n-context';
import { clusterLabel } from './cluster-look';
import { clusterableItems, isClusterId } from './cluster-items';
import { MarkerClusters, type ClusterFrame } from './clustering';
import type { MarkerItem, MarkerLayer } from './marker-layer';
import type { Location } from './types';

export interface ClusterControlOptions {
  markers: MarkerLayer;
  camera: Camera;
  /** The layer's markers, and those the filters let through (null: all). */
  items: readonly MarkerItem[];
  visible: ReadonlySet<string> | null;
  width: number;
  height: number;
  /** What is on screen changed (at rest): clusters and lone markers in reading order. */
  onShown(frame: ClusterFrame): void;
}

export class ClusterControl {
  readonly index: MarkerClusters;
  /** Its buttons' component (the renderer has it from here, not from its own chunk). */
  readonly Buttons = ClusterButtons;
  private shown: ClusterFrame | null = null;
  private readonly offSettle: () => void;

  constructor(private readonly options: ClusterControlOptions) {
    const { markers, camera, items, visible, width, height } = options;
    const points = clusterableItems(items, visible);
    this.index = new MarkerClusters(points, { width, height, maxZoom: camera.maxZoom });
    markers.setClusters(this.index, new Set(points.map((item) => item.id)), () => !camera.canZoomIn);
    camera.flush();
    this.report();
    this.offSettle = camera.onSettle(() => this.report());
    // The index's deeper levels (clustering.ts), built while the browser is idle, so that
    // zooming far in does not wait for them.
    const index = this.index;
    const prepare = () => index.prepareDeeperLevels();
    if (typeof requestIdleCallback === 'function') {
      const handle = requestIdleCallback(prepare);
      this.cancelPrepare = () => cancelIdleCallback(handle);
    } else {
      const timer = setTimeout(prepare, 500);
      this.cancelPrepare = () => clearTimeout(timer);
    }
  }

  private readonly cancelPrepare: () => void;

  stop(): void {
    this.cancelPrepare();
    this.offSettle();
    this.options.markers.setClusters(null);
    this.options.camera.requestFrame();
  }

  /**
   * The parts of the cluster last opened by keyboard, for the focus to follow once they are on
   * screen ({@link ClusterButtons}).
   */
  focusNext: string[] | null = null;

  /** The focus has followed into the cluster. */
  focusFollowed(): void {
    this.focusNext = null;
  }

  /** Zooms into a cluster until it splits, centred on it; by keyboard, the focus follows into it. */
  expand(id: string, byKeyboard: boolean): void {
    const { camera, markers } = this.options;
    const cluster = markers.lastFrame()?.clusters.find((candidate) => candidate.id === id);
    if (!cluster) return;
    const zoom = Math.min(camera.maxZoom, this.index.expansionScale(cluster.clusterId) / camera.fit);
    this.focusNext = byKeyboard ? this.index.childrenOf(cluster.clusterId) : null;
    camera.centerOn({ x: cluster.x, y: cluster.y }, Math.max(zoom, camera.zoom), true);
  }

  /** The zoom (1 fits the layer) from which a location stands alone, or null if it is not clustered here. */
  revealZoom(id: string): number | null {
    const { camera } = this.options;
    const scale = this.index.revealScale(id);
    return scale === null ? null : Math.min(camera.maxZoom, scale / camera.fit);
  }

  private report(): void {
    const next = onScreen(this.options.markers.lastFrame(), this.options.camera);
    if (!next || sameMarks(this.shown, next)) return;
    this.shown = next;
    this.options.onShown(next);
  }
}

/** The clusters and lone markers of a frame that are on screen (not in its margin), in reading order. */
function onScreen(frame: ClusterFrame | null, camera: Camera): ClusterFrame | null {
  if (!frame) return null;
  const { x, y, k } = camera.view;
  const inside = (mark: { x: number; y: number }) => {
    const sx = mark.x * k + x;
    const sy = mark.y * k + y;
    return sx >= 0 && sy >= 0 && sx <= camera.width && sy <= camera.height;
  };
  const order = (a: { x: number; y: number }, b: { x: number; y: number }) => a.y - b.y || a.x - b.x;
  // Where each cluster is on screen, for its button (tests click there, on the canvas).
  const clusters = frame.clusters
    .filter(inside)
    .sort(order)
    .map((cluster) => ({ ...cluster, sx: Math.round(cluster.x * k + x), sy: Math.round(cluster.y * k + y) }));
  return { clusters, points: frame.points.filter(inside) };
}

function sameMarks(a: ClusterFrame | null, b: ClusterFrame): boolean {
  if (!a) return false;
  if (a.clusters.length !== b.clusters.length || a.points.length !== b.points.length) return false;
  return a.clusters.every((cluster, i) => cluster.id === b.clusters[i]!.id && cluster.sx === b.clusters[i]!.sx && cluster.sy === b.clusters[i]!.sy) && a.points.every((point, i) => point.id === b.points[i]!.id);
}

export interface ClusterButtonsProps {
  control: ClusterControl;
  /** What is on screen (at rest). */
  shown: ClusterFrame;
  byId: ReadonlyMap<string, Location>;
  describe: (location: Location) => string;
  onPick: (id: string, opener: HTMLElement) => void;
  onFocusChange: (id: string | null) => void;
}

/**
 * The renderer's visually hidden buttons (its list) for a clustered layer: one per cluster on
 * screen, its name saying how many locations it holds (Enter or a click zooms into it, and the
 * focus then moves to the first of its parts on screen), and one per lone location on screen,
 * as for any layer. The directory and search cover every location.
 */
export function ClusterButtons({ control, shown, byId, describe, onPick, onFocusChange }: ClusterButtonsProps) {
  const { clusters, points } = shown;
  const { t } = useTranslator();
  const first = useRef<HTMLLIElement>(null);
  useEffect(() => {
    const parts = control.focusNext;
    const list = first.current?.parentElement ?? null;
    if (!parts || !list) return;
    for (const id of parts) {
      const button = list.querySelector<HTMLElement>(isClusterId(id) ? `[data-cluster="${id}"]` : `[data-location="${CSS.escape(id)}"]`);
      if (button) {
        control.focusFollowed();
        button.focus();
        return;
      }
    }
  }, [control, shown]);
  const buttons: ReactNode[] = clusters.map((cluster, i) => (
    <li key={cluster.id} ref={i === 0 ? first : undefined}>
      <button
        type="button"
        data-cluster={cluster.id}
        data-count={cluster.count}
        data-screen={cluster.sx === undefined ? undefined : `${cluster.sx},${cluster.sy ?? 0}`}
        aria-label={clusterLabel(cluster.count, t)}
        onFocus={() => onFocusChange(cluster.id)}
        onBlur={() => onFocusChange(null)}
        // A keyboard's Enter clicks with no pointer position (detail 0): the focus then follows into the cluster.
        onClick={(event) => control.expand(cluster.id, event.detail === 0)}
      />
    </li>
  ));
  for (const point of points) {
    const location = byId.get(point.id);
    if (!location) continue;
    buttons.push(
      // The first item holds the list's ref when no cluster is left on screen.
      <li key={location.id} ref={buttons.length === 0 ? first : undefined}>
        <button
          type="button"
          data-location={location.id}
          aria-label={describe(location)}
          aria-haspopup="dialog"
          onFocus={() => onFocusChange(location.id)}
          onBlur={() => onFocusChange(null)}
          onClick={(event) => onPick(location.id, event.currentTarget)}
        />
      </li>,
    );
  }
  return buttons;
}
