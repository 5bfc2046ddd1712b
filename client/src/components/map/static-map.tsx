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
 */
import type { CSSProperties } from 'react';
import type { MarkerItem } from './marker-layer';

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
}

const percent = (value: number, of: number) => `${Math.round((value / of) * 100_000) / 1000}%`;
const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const HEX_COLOUR = /^#[0-9a-fA-F]{3,8}$/;
const TYPES = new Set(['pin', 'circle', 'dot', 'label', 'thumbnail']);

/** The markers as markup, each at its place in percent of the layer. */
export function markersMarkup(items: readonly MarkerItem[], width: number, height: number): string {
  const dense = items.length > DENSE;
  let html = '';
  for (const item of items) {
    const type = dense ? 'compact' : TYPES.has(item.type) ? item.type : 'circle';
    const colour = HEX_COLOUR.test(item.color) ? `;--c:${item.color}` : '';
    const text = type === 'label' ? escapeText(item.text ?? '') : '';
    html += `<span class="mf-static__marker mf-static__marker--${type}" style="left:${percent(item.x, width)};top:${percent(item.y, height)}${colour}">${text}</span>`;
  }
  return html;
}

export function StaticMap({ width, height, fileUrl, sheet, items }: StaticMapProps) {
  // The box is the layer fitted into the viewport (a size container): the narrower of its
  // width and its height at the layer's aspect ratio.
  const box = { '--mf-static-ratio': `${width} / ${height}`, '--mf-static-aspect': width / height } as CSSProperties;
  return (
    <div className="mf-static" aria-hidden="true">
      <div className="mf-static__box" style={box}>
        {fileUrl ? <img className="mf-static__floor" src={fileUrl} alt="" width={width} height={height} decoding="async" /> : <div className="mf-static__sheet" style={{ background: sheet }} />}
        <div className="mf-static__markers" dangerouslySetInnerHTML={{ __html: markersMarkup(items, width, height) }} />
      </div>
    </div>
  );
}
