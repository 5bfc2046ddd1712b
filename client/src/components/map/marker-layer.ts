/**
 * The markers, drawn on one canvas over the map. Every frame the view moves, the visible
 * markers (culled to the viewport) are stamped from pre-rendered sprites: one `drawImage`
 * each, so 10,000 markers pan and zoom smoothly, with no DOM node per marker and no React
 * render per frame. Markers keep their size on screen at every zoom; labels that would
 * overlap an earlier label are left out until there is room. Hit-testing uses the boxes of the
 * last frame.
 *
 * A layer with many points is clustered (clustering.ts, given by {@link MarkerLayer.setClusters}):
 * each frame draws only what the clusters' index says is in view, its lone markers and its
 * clusters as round badges with their counts (hit-tested as `cluster:<id>`).
 */
import type { View } from './camera';
import type { ClusterFrame, MarkerClusters } from './clustering';
import { clusterBadgeText, clusterDiameter } from './cluster-look';

export type MarkerType = 'circle' | 'dot' | 'pin' | 'label' | 'thumbnail' | 'hidden';

export interface MarkerItem {
  id: string;
  x: number;
  y: number;
  type: MarkerType;
  color: string;
  /** Short text on the marker (a label marker's text, or up to 3 characters on a pin or circle). */
  text: string;
  /** The thumbnail marker's picture. */
  image: string | null;
  /** The marker of a region (an SVG shape): never clustered. */
  region?: boolean;
}

export interface MarkerDrawState {
  selected: string | null;
  hovered: string | null;
  focused: string | null;
  /** Markers to draw; null draws all. */
  visible: ReadonlySet<string> | null;
  accent: string;
  dark: boolean;
  /** The language of the clusters' counts ("1.2K", "1,2 mil"); by default the page's. */
  locale?: string;
}

interface Sprite {
  /** Painted on first use (labels that never find room are only measured). */
  canvas: CanvasImageSource | null;
  paint: () => CanvasImageSource;
  /** Size and anchor (the point that sits on the location), in CSS pixels. */
  w: number;
  h: number;
  ax: number;
  ay: number;
}

export const PIN_PATH = 'M12 0C5.37 0 0 5.37 0 12c0 8.6 10.2 18.6 11.3 19.7a1 1 0 0 0 1.4 0C13.8 30.6 24 20.6 24 12 24 5.37 18.63 0 12 0z';
export const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
const LABEL_FONT = `600 12px ${FONT}`;
const CULL_MARGIN = 80;
const NEW_SPRITES_PER_FRAME = 24;
/** More point markers than this in view draw as the compact overview. */
const DENSE_MARKERS = 800;
const LABEL_BUCKET = 96;
/** Room around a sprite for its shadow. */
const SPRITE_PAD = 6;

/** jsdom has no canvas; the markers are then simply not painted (the buttons still work). */
const canPaint = typeof navigator === 'undefined' || !/jsdom/i.test(navigator.userAgent);

export class MarkerLayer {
  private items: MarkerItem[] = [];
  private readonly sprites = new Map<string, Sprite>();
  private readonly images = new Map<string, HTMLImageElement | null>();
  private readonly context: CanvasRenderingContext2D | null;
  private width = 0;
  private height = 0;
  private dpr = 1;
  private hitIds: string[] = [];
  private hitBoxes = new Float32Array(0);
  private hitCount = 0;
  private pinPath: Path2D | null = null;

  constructor(
    private readonly canvas: HTMLCanvasElement,
    /** A thumbnail finished loading: the markers need a new frame. */
    private readonly onChange: () => void,
  ) {
    this.context = canPaint ? canvas.getContext('2d') : null;
  }

  /** The markers of the active layer; later items draw on top (sorted top to bottom). */
  setItems(items: readonly MarkerItem[]): void {
    this.items = items.filter((item) => item.type !== 'hidden').sort((a, b) => a.y - b.y || a.x - b.x);
    this.byId = null;
    if (this.hitBoxes.length < this.items.length * 4) this.hitBoxes = new Float32Array(this.items.length * 4);
    this.setClusters(null);
  }

  /**
   * Clusters these items (the index holds those of them that cluster: the others, such as
   * regions' markers, are drawn as always), or stops clustering (null).
   */
  setClusters(clusters: MarkerClusters | null, clustered?: ReadonlySet<string>, deepest: () => boolean = () => false): void {
    this.clusters = clusters;
    this.deepest = deepest;
    this.frame = null;
    this.loose = clusters && clustered ? this.items.filter((item) => !clustered.has(item.id)) : [];
  }

  /** Whether clusters are set (a clustered layer's renderer draws nothing until they are). */
  get hasClusters(): boolean {
    return this.clusters !== null;
  }

  /** What the last frame drew, when clustered: its clusters and lone markers (for the buttons). */
  lastFrame(): ClusterFrame | null {
    return this.frame;
  }

  /** Moves one marker (the editor's drag) without rebuilding the list; the next frame shows it. */
  moveItem(id: string, x: number, y: number): void {
    const item = this.items.find((candidate) => candidate.id === id);
    if (!item) return;
    item.x = x;
    item.y = y;
  }

  resize(width: number, height: number, dpr: number): void {
    this.width = width;
    this.height = height;
    if (dpr !== this.dpr) {
      this.sprites.clear();
      this.compactSprites.clear();
    }
    this.dpr = dpr;
    this.canvas.width = Math.max(1, Math.round(width * dpr));
    this.canvas.height = Math.max(1, Math.round(height * dpr));
    this.canvas.style.width = `${width}px`;
    this.canvas.style.height = `${height}px`;
  }

  /** Paints one frame; answers how many markers were drawn. */
  draw(view: View, state: MarkerDrawState): number {
    const ctx = this.context;
    this.hitCount = 0;
    if (!ctx) return 0;
    const { width, height, dpr } = this;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, height);
    const { visible, selected, hovered, focused } = state;
    const placed = new Map<number, number[]>();
    let drawn = 0;
    const special: MarkerItem[] = [];
    // Label sprites are made as labels come into view; a frame makes only so many, the next
    // frame the rest, so zooming into thousands of labels never stalls one frame.
    this.madeThisFrame = 0;
    let unfinished = false;

    // What is in view (and let through by the filters).
    const inView = this.inView;
    inView.length = 0;
    let points = 0;
    const clusters = this.clusters;
    let frame: ClusterFrame | null = null;
    let source: readonly MarkerItem[] = this.items;
    if (clusters) {
      // Only what the index has in view (sorted top to bottom like the items), and the markers it does not hold.
      frame = clusters.at(view, width, height, this.deepest());
      source = this.loose.length === 0 ? frame.points : [...frame.points, ...this.loose].sort((a, b) => a.y - b.y || a.x - b.x);
      for (const id of [selected, hovered, focused]) {
        const item = id ? this.itemById(id) : undefined;
        if (item && !special.includes(item)) special.push(item);
      }
    }
    this.frame = frame;
    for (const item of source) {
      if (visible && !visible.has(item.id)) continue;
      const sx = item.x * view.k + view.x;
      const sy = item.y * view.k + view.y;
      if (sx < -CULL_MARGIN || sy < -CULL_MARGIN || sx > width + CULL_MARGIN || sy > height + CULL_MARGIN) continue;
      if (item.id === selected || item.id === hovered || item.id === focused) {
        if (!special.includes(item)) special.push(item);
      } else {
        inView.push(item);
        if (item.type !== 'label') points++;
      }
    }
    // Thousands of markers in view: small dots without labels, an overview that stays
    // readable (and cheap to paint); zooming in brings the full markers back.
    const compact = points > DENSE_MARKERS;

    // Labels first (beneath the point markers), each only where no earlier label sits.
    for (let pass = compact ? 1 : 0; pass < 2; pass++) {
      for (const item of inView) {
        if ((item.type === 'label') !== (pass === 0)) continue;
        const sx = item.x * view.k + view.x;
        const sy = item.y * view.k + view.y;
        const sprite = compact ? this.compactSprite(item.color) : this.spriteFor(item, false, state, this.madeThisFrame < NEW_SPRITES_PER_FRAME);
        if (!sprite) {
          unfinished = true;
          continue;
        }
        let left = sx - sprite.ax;
        const top = sy - sprite.ay;
        // A label whose place is on screen but whose text runs past the side is moved in whole.
        if (pass === 0 && sx >= 0 && sx <= width && sprite.w - 2 * SPRITE_PAD <= width) left = Math.min(Math.max(left, -SPRITE_PAD), width - sprite.w + SPRITE_PAD);
        if (pass === 0 && !this.claim(placed, left + CULL_MARGIN, top + CULL_MARGIN, sprite.w, sprite.h)) continue;
        if (!sprite.canvas) {
          // Its place is kept; its pixels come in a later frame when this one has made enough.
          if (this.madeThisFrame >= NEW_SPRITES_PER_FRAME && !compact) {
            unfinished = true;
            continue;
          }
          sprite.canvas = sprite.paint();
          this.madeThisFrame++;
        }
        ctx.drawImage(sprite.canvas, left, top, sprite.w, sprite.h);
        this.addHit(item.id, left, top, sprite.w, sprite.h);
        drawn++;
      }
    }

    // The clusters over the lone markers, the largest on top: the disc from its size's sprite,
    // the count written on the canvas (one sprite per badge size, not per count: each sprite is
    // a canvas of its own to make, about a millisecond apiece, dozens at the first frame).
    if (frame) {
      let font = '';
      for (const cluster of frame.clusters) {
        const sx = cluster.x * view.k + view.x;
        const sy = cluster.y * view.k + view.y;
        if (sx < -CULL_MARGIN || sy < -CULL_MARGIN || sx > width + CULL_MARGIN || sy > height + CULL_MARGIN) continue;
        const lit = cluster.id === hovered || cluster.id === focused;
        const sprite = this.clusterDisc(clusterDiameter(cluster.count) + (lit ? 4 : 0), state);
        const left = sx - sprite.ax;
        const top = sy - sprite.ay;
        ctx.drawImage((sprite.canvas ??= sprite.paint()), left, top, sprite.w, sprite.h);
        const text = clusterBadgeText(cluster.count, state.locale);
        const badgeFont = `700 ${text.length > 3 ? 11 : 12.5}px ${FONT}`;
        if (badgeFont !== font) {
          font = badgeFont;
          ctx.font = font;
          ctx.fillStyle = '#ffffff';
          ctx.textAlign = 'center';
          ctx.textBaseline = 'middle';
        }
        ctx.fillText(text, sx, sy + 0.5);
        if (cluster.id === focused) this.focusRing(ctx, left + SPRITE_PAD, top + SPRITE_PAD, sprite.w - SPRITE_PAD * 2, sprite.h - SPRITE_PAD * 2, 'circle', state);
        this.addHit(cluster.id, left + SPRITE_PAD, top + SPRITE_PAD, sprite.w - SPRITE_PAD * 2, sprite.h - SPRITE_PAD * 2);
        drawn++;
      }
    }

    // Hovered, focused and selected markers on top of everything, a little larger.
    special.sort((a, b) => rank(a.id, state) - rank(b.id, state));
    for (const item of special) {
      const active = item.id === selected;
      const sprite = this.spriteFor(item, active, state, true)!;
      const scale = active ? 1.2 : 1.1;
      const sx = item.x * view.k + view.x;
      const sy = item.y * view.k + view.y;
      const w = sprite.w * scale;
      const h = sprite.h * scale;
      const left = sx - sprite.ax * scale;
      const top = sy - sprite.ay * scale;
      if (active && item.type !== 'label') this.halo(ctx, item, sx, sy, state.accent);
      ctx.drawImage((sprite.canvas ??= sprite.paint()), left, top, w, h);
      if (item.id === focused) this.focusRing(ctx, left, top, w, h, item.type, state);
      this.addHit(item.id, left, top, w, h);
      drawn++;
    }
    if (unfinished) this.onChange();
    return drawn;
  }

  /** The marker under a screen point (the topmost), from the last frame. */
  hit(sx: number, sy: number): string | null {
    const boxes = this.hitBoxes;
    for (let i = this.hitCount - 1; i >= 0; i--) {
      const o = i * 4;
      if (sx >= boxes[o]! && sy >= boxes[o + 1]! && sx <= boxes[o + 2]! && sy <= boxes[o + 3]!) return this.hitIds[i]!;
    }
    return null;
  }

  private addHit(id: string, left: number, top: number, w: number, h: number): void {
    const i = this.hitCount++;
    if (this.hitBoxes.length < this.hitCount * 4) {
      const grown = new Float32Array(this.hitCount * 8);
      grown.set(this.hitBoxes);
      this.hitBoxes = grown;
    }
    const o = i * 4;
    // A little slack around small markers makes them easier to hit with a finger.
    const slack = w < 24 ? 4 : 0;
    this.hitBoxes[o] = left - slack;
    this.hitBoxes[o + 1] = top - slack;
    this.hitBoxes[o + 2] = left + w + slack;
    this.hitBoxes[o + 3] = top + h + slack;
    this.hitIds[i] = id;
  }

  /**
   * Places a label unless it overlaps one placed earlier in this frame (the sprite's shadow
   * margin does not count). Labels are looked up by 96 px buckets, so this stays linear.
   */
  private claim(placed: Map<number, number[]>, left: number, top: number, w: number, h: number): boolean {
    const x0 = left + SPRITE_PAD;
    const y0 = top + SPRITE_PAD;
    const x1 = left + w - SPRITE_PAD;
    const y1 = top + h - SPRITE_PAD;
    const c0 = Math.floor(x0 / LABEL_BUCKET);
    const c1 = Math.floor(x1 / LABEL_BUCKET);
    const r0 = Math.floor(y0 / LABEL_BUCKET);
    const r1 = Math.floor(y1 / LABEL_BUCKET);
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const rects = placed.get(r * 65536 + c);
        if (!rects) continue;
        for (let i = 0; i < rects.length; i += 4) {
          if (x0 < rects[i + 2]! && x1 > rects[i]! && y0 < rects[i + 3]! && y1 > rects[i + 1]!) return false;
        }
      }
    }
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const key = r * 65536 + c;
        const rects = placed.get(key);
        if (rects) rects.push(x0, y0, x1, y1);
        else placed.set(key, [x0, y0, x1, y1]);
      }
    }
    return true;
  }

  private halo(ctx: CanvasRenderingContext2D, item: MarkerItem, sx: number, sy: number, accent: string): void {
    ctx.save();
    ctx.globalAlpha = 0.22;
    ctx.fillStyle = accent;
    ctx.beginPath();
    ctx.ellipse(sx, sy, 16, item.type === 'pin' ? 6 : 16, 0, 0, Math.PI * 2);
    ctx.fill();
    ctx.restore();
  }

  private focusRing(ctx: CanvasRenderingContext2D, left: number, top: number, w: number, h: number, type: MarkerType, state: MarkerDrawState): void {
    ctx.save();
    const pad = 4;
    const radius = type === 'label' ? 8 : Math.max(w, h) / 2 + pad;
    ctx.lineWidth = 4;
    ctx.strokeStyle = state.dark ? '#0f172a' : '#ffffff';
    const path = () => {
      ctx.beginPath();
      if (type === 'label') ctx.roundRect(left - pad, top - pad, w + pad * 2, h + pad * 2, radius);
      else ctx.arc(left + w / 2, top + (type === 'pin' ? w / 2 : h / 2), (type === 'pin' ? w / 2 : radius - pad) + pad, 0, Math.PI * 2);
    };
    path();
    ctx.stroke();
    ctx.lineWidth = 2;
    ctx.strokeStyle = state.accent;
    path();
    ctx.stroke();
    ctx.restore();
  }

  /** The overview's small dot in a colour. */
  private compactSprite(color: string): Sprite {
    let sprite = this.compactSprites.get(color);
    if (!sprite) {
      const dpr = this.dpr;
      const size = 9 + SPRITE_PAD * 2;
      const paint = () => {
        const canvas = document.createElement('canvas');
        canvas.width = canvas.height = Math.ceil(size * dpr);
        const ctx = canvas.getContext('2d')!;
        ctx.scale(dpr, dpr);
        ctx.beginPath();
        ctx.arc(size / 2, size / 2, 4, 0, Math.PI * 2);
        ctx.fillStyle = color;
        ctx.fill();
        ctx.lineWidth = 1.5;
        ctx.strokeStyle = '#ffffff';
        ctx.stroke();
        return canvas;
      };
      sprite = { canvas: null, paint, w: size, h: size, ax: size / 2, ay: size / 2 };
      this.compactSprites.set(color, sprite);
    }
    return sprite;
  }

  /** The marker's sprite; null when it has none yet and may not make one now. */
  private spriteFor(item: MarkerItem, active: boolean, state: MarkerDrawState, mayCreate: boolean): Sprite | null {
    const image = item.type === 'thumbnail' && item.image ? this.image(item.image) : null;
    const text = item.type === 'label' || item.text.length <= 3 ? item.text : '';
    const key = `${item.type}|${item.color}|${text}|${active ? state.accent : ''}|${state.dark ? 1 : 0}|${image ? item.image : ''}`;
    let sprite = this.sprites.get(key);
    if (!sprite) {
      if (!mayCreate) return null;
      this.madeThisFrame++;
      sprite = this.paintSprite(item.type, item.color, text, active, state, image);
      this.sprites.set(key, sprite);
    }
    return sprite;
  }

  private image(url: string): HTMLImageElement | null {
    if (this.images.has(url)) {
      const image = this.images.get(url)!;
      return image && image.complete && image.naturalWidth > 0 ? image : null;
    }
    const image = new Image();
    image.decoding = 'async';
    image.onload = () => this.onChange();
    image.onerror = () => this.images.set(url, null);
    image.src = url;
    this.images.set(url, image);
    return null;
  }

  private itemById(id: string): MarkerItem | undefined {
    this.byId ??= new Map(this.items.map((item) => [item.id, item]));
    return this.byId.get(id);
  }

  /** A cluster's disc (its count is written over it): the accent colour, with a soft ring. */
  private clusterDisc(diameter: number, state: MarkerDrawState): Sprite {
    const key = `cluster|${diameter}|${state.accent}|${state.dark ? 1 : 0}`;
    let sprite = this.sprites.get(key);
    if (!sprite) {
      const dpr = this.dpr;
      const size = diameter + SPRITE_PAD * 2;
      const { accent, dark } = state;
      const paint = () => {
        const canvas = document.createElement('canvas');
        canvas.width = canvas.height = Math.ceil(size * dpr);
        const ctx = canvas.getContext('2d')!;
        ctx.scale(dpr, dpr);
        const c = size / 2;
        const r = diameter / 2;
        // The ring: the accent, translucent, around the disc (how store locators show a crowd).
        ctx.globalAlpha = 0.28;
        ctx.fillStyle = accent;
        ctx.beginPath();
        ctx.arc(c, c, r, 0, Math.PI * 2);
        ctx.fill();
        ctx.globalAlpha = 1;
        ctx.shadowColor = 'rgba(15, 23, 42, 0.35)';
        ctx.shadowBlur = 4;
        ctx.shadowOffsetY = 1.5;
        ctx.beginPath();
        ctx.arc(c, c, r - 5, 0, Math.PI * 2);
        ctx.fill();
        ctx.shadowColor = 'transparent';
        ctx.lineWidth = 2;
        ctx.strokeStyle = dark ? '#0f172a' : '#ffffff';
        ctx.stroke();
        return canvas;
      };
      sprite = { canvas: null, paint, w: size, h: size, ax: size / 2, ay: size / 2 };
      this.sprites.set(key, sprite);
    }
    return sprite;
  }

  private clusters: MarkerClusters | null = null;
  /** The camera is at its deepest zoom: no clusters, every marker. */
  private deepest: () => boolean = () => false;
  private frame: ClusterFrame | null = null;
  /** Markers the clusters' index does not hold (regions' markers), drawn as always. */
  private loose: MarkerItem[] = [];
  private byId: Map<string, MarkerItem> | null = null;
  private measureContext: CanvasRenderingContext2D | null = null;
  private readonly inView: MarkerItem[] = [];
  private readonly compactSprites = new Map<string, Sprite>();
  /** Sprites measured or painted in the current frame. */
  private madeThisFrame = 0;

  /** A sprite's size and anchor now; its pixels when it is first drawn. */
  private paintSprite(type: MarkerType, color: string, text: string, active: boolean, state: MarkerDrawState, image: HTMLImageElement | null): Sprite {
    const pad = SPRITE_PAD;
    let w: number;
    let h: number;
    let lines: string[] = [];
    if (type === 'pin') [w, h] = [24, 32];
    else if (type === 'circle') w = h = 22;
    else if (type === 'dot') w = h = 13;
    else if (type === 'thumbnail') w = h = 42;
    else {
      this.measureContext ??= document.createElement('canvas').getContext('2d')!;
      const measure = this.measureContext;
      measure.font = LABEL_FONT;
      lines = wrapLabel(text, (value) => measure.measureText(value).width);
      w = Math.ceil(Math.max(...lines.map((line) => measure.measureText(line).width))) + (active ? 16 : 6);
      h = lines.length * 15 + (active ? 8 : 3);
    }
    const dpr = this.dpr;
    const paint = (): CanvasImageSource => {
      const width = Math.ceil((w + pad * 2) * dpr);
      const height = Math.ceil((h + pad * 2) * dpr);
      this.pinPath ??= new Path2D(PIN_PATH);
      const look = { type, color, text, lines, active, w, h, image, pin: this.pinPath, accent: state.accent, dark: state.dark };
      // An ImageBitmap where the browser can make one at once: drawing from it needs no copy of
      // a canvas each time, which counts with thousands of different labels.
      if (typeof OffscreenCanvas === 'function') {
        const canvas = new OffscreenCanvas(width, height);
        const ctx = canvas.getContext('2d');
        if (ctx) {
          ctx.scale(dpr, dpr);
          ctx.translate(pad, pad);
          drawMarker(ctx, look);
          return canvas.transferToImageBitmap();
        }
      }
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      const ctx = canvas.getContext('2d')!;
      ctx.scale(dpr, dpr);
      ctx.translate(pad, pad);
      drawMarker(ctx, look);
      return canvas;
    };
    return { canvas: null, paint, w: w + pad * 2, h: h + pad * 2, ax: w / 2 + pad, ay: (type === 'pin' ? 32 : h / 2) + pad };
  }
}

interface MarkerLook {
  type: MarkerType;
  color: string;
  text: string;
  lines: string[];
  active: boolean;
  w: number;
  h: number;
  image: HTMLImageElement | null;
  pin: Path2D;
  accent: string;
  dark: boolean;
}

/** Paints one marker into a sprite's canvas (already translated past the shadow margin). */
function drawMarker(ctx: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D, { type, color, text, lines, active, w, h, image, pin, accent, dark }: MarkerLook): void {
  const shadow = () => {
    ctx.shadowColor = 'rgba(15, 23, 42, 0.35)';
    ctx.shadowBlur = 4;
    ctx.shadowOffsetY = 1.5;
  };
  const noShadow = () => {
    ctx.shadowColor = 'transparent';
  };
  const centreText = (size: number, cx: number, cy: number) => {
    ctx.fillStyle = '#ffffff';
    ctx.font = `700 ${size}px ${FONT}`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(text, cx, cy + 0.5);
  };
  if (type === 'pin') {
    shadow();
    ctx.fillStyle = color;
    ctx.fill(pin);
    noShadow();
    ctx.lineWidth = 1.5;
    ctx.strokeStyle = 'rgba(255, 255, 255, 0.9)';
    ctx.stroke(pin);
    if (text) centreText(text.length > 2 ? 9 : 11, 12, 12);
    else {
      ctx.fillStyle = '#ffffff';
      ctx.beginPath();
      ctx.arc(12, 12, 4.5, 0, Math.PI * 2);
      ctx.fill();
    }
    return;
  }
  if (type === 'circle' || type === 'dot' || type === 'thumbnail') {
    const r = w / 2;
    shadow();
    ctx.fillStyle = type === 'thumbnail' ? '#ffffff' : color;
    ctx.beginPath();
    ctx.arc(r, r, r, 0, Math.PI * 2);
    ctx.fill();
    noShadow();
    const border = type === 'dot' ? 2 : type === 'circle' ? 2.5 : 3;
    if (type === 'thumbnail') {
      ctx.save();
      ctx.beginPath();
      ctx.arc(r, r, r - border, 0, Math.PI * 2);
      ctx.clip();
      if (image) {
        const side = Math.min(image.naturalWidth, image.naturalHeight);
        ctx.drawImage(image, (image.naturalWidth - side) / 2, (image.naturalHeight - side) / 2, side, side, border, border, w - border * 2, h - border * 2);
      } else {
        ctx.fillStyle = color;
        ctx.fill();
      }
      ctx.restore();
      return;
    }
    ctx.lineWidth = border;
    ctx.strokeStyle = '#ffffff';
    ctx.beginPath();
    ctx.arc(r, r, r - border / 2, 0, Math.PI * 2);
    ctx.stroke();
    if (type === 'circle' && text) centreText(text.length > 2 ? 8 : 10, r, r);
    return;
  }
  // A label: text with a halo, or a pill in the accent colour when selected.
  ctx.font = LABEL_FONT;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  if (active) {
    shadow();
    ctx.fillStyle = accent;
    ctx.beginPath();
    ctx.roundRect(0, 0, w, h, 7);
    ctx.fill();
    noShadow();
    ctx.fillStyle = '#ffffff';
    lines.forEach((line, i) => ctx.fillText(line, w / 2, 4 + 7.5 + i * 15));
    return;
  }
  ctx.lineJoin = 'round';
  ctx.lineWidth = 3.5;
  ctx.strokeStyle = dark ? 'rgba(15, 23, 42, 0.92)' : 'rgba(255, 255, 255, 0.95)';
  ctx.fillStyle = dark ? '#f1f5f9' : '#1e293b';
  lines.forEach((line, i) => {
    ctx.strokeText(line, w / 2, 1.5 + 7.5 + i * 15);
    ctx.fillText(line, w / 2, 1.5 + 7.5 + i * 15);
  });
}

function rank(id: string, state: MarkerDrawState): number {
  return id === state.selected ? 2 : id === state.focused ? 1 : 0;
}

/** One line, or two split at the space nearest the middle when the text is long. */
export function wrapLabel(text: string, width: (value: string) => number, max = 120): string[] {
  const clean = text.trim() || ' ';
  if (width(clean) <= max || !clean.includes(' ')) return [truncate(clean, width, max * 1.2)];
  const middle = clean.length / 2;
  let best = -1;
  for (let i = 0; i < clean.length; i++) if (clean[i] === ' ' && (best < 0 || Math.abs(i - middle) < Math.abs(best - middle))) best = i;
  return [truncate(clean.slice(0, best), width, max), truncate(clean.slice(best + 1), width, max)];
}

function truncate(text: string, width: (value: string) => number, max: number): string {
  if (width(text) <= max) return text;
  let end = text.length;
  while (end > 1 && width(`${text.slice(0, end)}…`) > max) end--;
  return `${text.slice(0, end)}…`;
}
