/**
 * The view of a map: where the layer's origin sits on screen (x, y, CSS pixels) and how many
 * screen pixels one layer unit takes (k). Zoom levels in the document (minZoom, maxZoom,
 * initialView.zoom, a location's zoom) are relative: zoom 1 fits the whole layer in the
 * viewport.
 *
 * Gestures change the view many times a frame; the camera coalesces them and calls its frame
 * listeners once per animation frame, outside React. Listeners to "settle" hear once the view
 * has rested for a moment (for work too heavy for every frame).
 */
import type { MapPoint } from './types';

export interface View {
  x: number;
  y: number;
  k: number;
}

export interface InitialView {
  x: number;
  y: number;
  zoom: number;
}

const SETTLE_MS = 160;
const ANIMATION_MS = 320;

const raf: (callback: FrameRequestCallback) => number =
  typeof requestAnimationFrame === 'function' ? (callback) => requestAnimationFrame(callback) : (callback) => setTimeout(() => callback(Date.now()), 16) as unknown as number;
const caf: (handle: number) => void = typeof cancelAnimationFrame === 'function' ? (handle) => cancelAnimationFrame(handle) : (handle) => clearTimeout(handle);

const easeOutCubic = (t: number) => 1 - (1 - t) ** 3;
const clampNumber = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

function prefersReducedMotion(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

export class Camera {
  view: View = { x: 0, y: 0, k: 1 };
  width = 0;
  height = 0;
  mapWidth = 1;
  mapHeight = 1;
  minZoom = 1;
  maxZoom = 8;
  initialView: InitialView | null = null;
  /** True while a gesture or an animation moves the view. */
  moving = false;

  private readonly frameListeners = new Set<() => void>();
  private readonly settleListeners = new Set<() => void>();
  private frameHandle = 0;
  private settleTimer: ReturnType<typeof setTimeout> | null = null;
  private animationHandle = 0;

  /** The scale at zoom 1: the whole layer fits. */
  get fit(): number {
    if (this.width <= 0 || this.height <= 0) return 1;
    return Math.min(this.width / this.mapWidth, this.height / this.mapHeight);
  }

  /** The current zoom level, relative to {@link fit}. */
  get zoom(): number {
    return this.view.k / this.fit;
  }

  get canZoomIn(): boolean {
    return this.zoom < this.maxZoom - 1e-6;
  }

  get canZoomOut(): boolean {
    return this.zoom > this.minZoom + 1e-6;
  }

  /** The viewport changed size: keep the same point in the middle at the same zoom. */
  setViewport(width: number, height: number): void {
    if (width === this.width && height === this.height) return;
    const first = this.width <= 0 || this.height <= 0;
    const center = first ? null : this.toMap(this.width / 2, this.height / 2);
    const zoom = this.zoom;
    this.width = width;
    this.height = height;
    if (center) this.apply(this.viewCentredOn(center, zoom));
    else this.apply(this.homeView());
  }

  /** A new layer (size) or zoom limits: back to the home view. */
  setMap(width: number, height: number, minZoom: number, maxZoom: number, initialView: InitialView | null): void {
    this.mapWidth = Math.max(1, width);
    this.mapHeight = Math.max(1, height);
    this.minZoom = minZoom;
    this.maxZoom = Math.max(minZoom, maxZoom);
    this.initialView = initialView;
    this.stopAnimation();
    this.apply(this.homeView());
  }

  /** Layer coordinates of a screen point (CSS pixels, relative to the viewport). */
  toMap(sx: number, sy: number): MapPoint {
    return { x: (sx - this.view.x) / this.view.k, y: (sy - this.view.y) / this.view.k };
  }

  toScreen(point: MapPoint): MapPoint {
    return { x: point.x * this.view.k + this.view.x, y: point.y * this.view.k + this.view.y };
  }

  /** The view the map opens at: the document's initial view, or the whole layer. */
  homeView(): View {
    const initial = this.initialView;
    if (initial) return this.viewCentredOn(initial, initial.zoom);
    return this.viewCentredOn({ x: this.mapWidth / 2, y: this.mapHeight / 2 }, this.minZoom);
  }

  viewCentredOn(point: MapPoint, zoom: number): View {
    const k = clampNumber(zoom, this.minZoom, this.maxZoom) * this.fit;
    return this.clamp({ x: this.width / 2 - point.x * k, y: this.height / 2 - point.y * k, k });
  }

  /** Keeps the zoom within its limits and the layer on screen (centred when it is smaller). */
  clamp(view: View): View {
    const fit = this.fit;
    const k = clampNumber(view.k, this.minZoom * fit, this.maxZoom * fit);
    const axis = (offset: number, size: number, viewport: number) =>
      size <= viewport ? (viewport - size) / 2 : clampNumber(offset, viewport - size, 0);
    return { k, x: axis(view.x, this.mapWidth * k, this.width), y: axis(view.y, this.mapHeight * k, this.height) };
  }

  set(view: View, animate = false): void {
    const target = this.clamp(view);
    if (animate && !prefersReducedMotion()) this.animateTo(target);
    else {
      this.stopAnimation();
      this.apply(target);
    }
  }

  /** Zooms by a factor around a screen point (default: the middle of the viewport). */
  zoomBy(factor: number, sx = this.width / 2, sy = this.height / 2, animate = false): void {
    const from = this.animationHandle ? this.targetView : this.view;
    const k = clampNumber(from.k * factor, this.minZoom * this.fit, this.maxZoom * this.fit);
    const ratio = k / from.k;
    this.set({ k, x: sx - (sx - from.x) * ratio, y: sy - (sy - from.y) * ratio }, animate);
  }

  panBy(dx: number, dy: number, animate = false): void {
    const from = this.animationHandle ? this.targetView : this.view;
    this.set({ k: from.k, x: from.x + dx, y: from.y + dy }, animate);
  }

  /** Centres a point; `shiftY` moves it up (negative) or down, e.g. above a bottom sheet. */
  centerOn(point: MapPoint, zoom = this.zoom, animate = true, shiftY = 0): void {
    const view = this.viewCentredOn(point, zoom);
    this.set(shiftY ? { ...view, y: view.y + shiftY } : view, animate);
  }

  /** Moves the view as little as needed for a point to sit at least `margin` px inside it. */
  ensureVisible(point: MapPoint, margin = 48, animate = true): void {
    const screen = this.toScreen(point);
    const mx = Math.min(margin, this.width / 2);
    const my = Math.min(margin, this.height / 2);
    const dx = screen.x < mx ? mx - screen.x : screen.x > this.width - mx ? this.width - mx - screen.x : 0;
    const dy = screen.y < my ? my - screen.y : screen.y > this.height - my ? this.height - my - screen.y : 0;
    if (dx !== 0 || dy !== 0) this.panBy(dx, dy, animate);
  }

  reset(animate = true): void {
    this.set(this.homeView(), animate);
  }

  /** Called once per animation frame after the view changed. */
  onFrame(listener: () => void): () => void {
    this.frameListeners.add(listener);
    return () => this.frameListeners.delete(listener);
  }

  /** Called once the view has rested after moving. */
  onSettle(listener: () => void): () => void {
    this.settleListeners.add(listener);
    return () => this.settleListeners.delete(listener);
  }

  /** Asks for a frame without moving (the markers or an overlay changed). */
  requestFrame(): void {
    if (this.frameHandle) return;
    this.frameHandle = raf(() => {
      this.frameHandle = 0;
      for (const listener of this.frameListeners) listener();
    });
  }

  /** Runs the frame listeners now (first paint, tests). */
  flush(): void {
    if (this.frameHandle) caf(this.frameHandle);
    this.frameHandle = 0;
    for (const listener of this.frameListeners) listener();
  }

  dispose(): void {
    this.stopAnimation();
    if (this.frameHandle) caf(this.frameHandle);
    if (this.settleTimer) clearTimeout(this.settleTimer);
    this.frameListeners.clear();
    this.settleListeners.clear();
  }

  private targetView: View = this.view;

  private apply(view: View): void {
    const { x, y, k } = this.view;
    if (view.x === x && view.y === y && view.k === k) return;
    this.view = view;
    this.moving = true;
    this.requestFrame();
    if (this.settleTimer) clearTimeout(this.settleTimer);
    this.settleTimer = setTimeout(() => {
      this.settleTimer = null;
      if (this.animationHandle) return;
      this.moving = false;
      for (const listener of this.settleListeners) listener();
    }, SETTLE_MS);
  }

  private stopAnimation(): void {
    if (this.animationHandle) caf(this.animationHandle);
    this.animationHandle = 0;
  }

  /** Eases the middle of the view and the log of the scale towards the target. */
  private animateTo(target: View): void {
    this.stopAnimation();
    const start = this.view;
    const c0 = this.toMap(this.width / 2, this.height / 2);
    const c1 = { x: (this.width / 2 - target.x) / target.k, y: (this.height / 2 - target.y) / target.k };
    const l0 = Math.log(start.k);
    const l1 = Math.log(target.k);
    const began = performance.now();
    this.targetView = target;
    const step = (now: number) => {
      const t = Math.min(1, (now - began) / ANIMATION_MS);
      const e = easeOutCubic(t);
      if (t >= 1) {
        this.animationHandle = 0;
        this.apply(target);
        return;
      }
      const k = Math.exp(l0 + (l1 - l0) * e);
      const cx = c0.x + (c1.x - c0.x) * e;
      const cy = c0.y + (c1.y - c0.y) * e;
      this.apply({ k, x: this.width / 2 - cx * k, y: this.height / 2 - cy * k });
      this.animationHandle = raf(step);
    };
    this.animationHandle = raf(step);
  }
}
