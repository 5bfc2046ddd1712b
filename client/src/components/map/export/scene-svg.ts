/**
 * A scene (scene.ts) as one standalone SVG document: the title band, the map's area clipped to
 * its frame (the background, the floor's drawing with its regions coloured, or its image, or
 * the plain sheet), the markers drawn as the canvas draws them, and the legend. It references
 * nothing outside itself (pictures are `data:` URLs, fonts a system stack every tool has), so it
 * opens in a browser, Inkscape or Illustrator alike, and a canvas can draw it (rasterize.ts).
 *
 * Every text and attribute value is escaped here; the floor's markup comes already sanitised
 * and serialised as XML (floor-drawing.ts).
 */
import { FONT, PIN_PATH } from '../marker-layer';
import { LABEL_FONT_SIZE, LABEL_LINE, type Scene, type SceneMarker } from './scene';

/** The floor as it goes into the picture. */
export type PictureFloor =
  /** The drawing's `<svg>` element as XML (regions coloured) and its CSS, scoped to `#mfx-floor`. */
  | { kind: 'svg'; markup: string; css: string }
  /** A raster floor as a `data:` URL. */
  | { kind: 'image'; href: string }
  /**
   * A street basemap as MapLibre drew it (a PNG `data:` URL) filling the map's area, and the
   * attribution its tiles' licences ask for, written in its corner over the markers.
   */
  | { kind: 'basemap'; href: string; attribution: string }
  /** No file (a plain sheet), or one that could not be read. */
  | { kind: 'none' };

export interface PictureAssets {
  floor: PictureFloor;
  /** Thumbnails as `data:` URLs, by their address; one missing draws a plain disc. */
  images: ReadonlyMap<string, string>;
}

export const SVG_NS = 'http://www.w3.org/2000/svg';
const XLINK_NS = 'http://www.w3.org/1999/xlink';

/** Text and attribute values for XML: `&`, `<`, `>`, both quotes, and characters XML forbids. */
export function escapeXml(text: string): string {
  return text
    // Characters XML 1.0 does not allow at all (not even escaped): a strict parser refuses the file.
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const n = (value: number) => String(Math.round(value * 100) / 100);
/** A `data:` picture only (anything else would load from elsewhere). */
const isDataImage = (href: string) => /^data:image\/(?:png|jpe?g|gif|webp|svg\+xml)[;,]/i.test(href);

export function sceneSvg(scene: Scene, assets: PictureAssets): string {
  const { width, height, map } = scene;
  const out: string[] = [];
  const font = escapeXml(FONT.replace(/"/g, "'"));
  // Its language for whatever reads it (`xml:lang` for XML tools, `lang` for browsers), and right
  // to left for Arabic: the texts' `start` is then their right end, so they are placed from the right.
  const rtl = scene.dir === 'rtl';
  const language = `${scene.lang ? ` xml:lang="${escapeXml(scene.lang)}" lang="${escapeXml(scene.lang)}"` : ''}${rtl ? ' direction="rtl"' : ''}`;
  const side = (x: number) => (rtl ? width - x : x);
  out.push(
    `<svg xmlns="${SVG_NS}" xmlns:xlink="${XLINK_NS}" version="1.1" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${font}"${language}>`,
    `<title>${escapeXml(scene.floorName ? `${scene.title} – ${scene.floorName}` : scene.title)}</title>`,
    '<defs>',
    `<clipPath id="mfx-frame"><rect x="0" y="0" width="${map.width}" height="${map.height}"/></clipPath>`,
    '<filter id="mfx-shadow" x="-50%" y="-50%" width="200%" height="200%"><feDropShadow dx="0" dy="1.5" stdDeviation="2" flood-color="#0f172a" flood-opacity="0.35"/></filter>',
    `<path id="mfx-pin" d="${PIN_PATH}"/>`,
    '</defs>',
    `<rect width="${width}" height="${height}" fill="${scene.paper}"/>`,
  );
  if (scene.header > 0) {
    out.push(
      '<g id="mfx-title">',
      `<text x="${side(20)}" y="30" font-size="18" font-weight="700" fill="${scene.ink}">${escapeXml(scene.title)}</text>`,
      `<text x="${side(20)}" y="50" font-size="13" font-weight="500" fill="${scene.muted}">${escapeXml(scene.floorName)}</text>`,
      '</g>',
    );
  }
  out.push(`<g id="mfx-map" transform="translate(${map.x} ${map.y})" clip-path="url(#mfx-frame)">`, `<rect width="${map.width}" height="${map.height}" fill="${scene.background}"/>`);
  out.push(floorMarkup(scene, assets.floor));
  out.push('<g id="mfx-markers">');
  for (const marker of scene.markers) out.push(markerMarkup(marker, scene, assets.images));
  out.push('</g>');
  if (assets.floor.kind === 'basemap' && assets.floor.attribution) out.push(attributionMarkup(assets.floor.attribution, scene));
  out.push('</g>');
  if (scene.header > 0) out.push(`<line x1="0" y1="${map.y + 0.5}" x2="${width}" y2="${map.y + 0.5}" stroke="${scene.dark ? '#1e293b' : '#e2e8f0'}"/>`);
  if (scene.legend.length > 0) {
    out.push('<g id="mfx-legend" font-size="13" font-weight="500">');
    const title = scene.legendTitle;
    if (title) out.push(`<text id="mfx-legend-title" x="${n(title.x)}" y="${n(title.y)}" dominant-baseline="central" font-weight="700" fill="${scene.ink}">${escapeXml(title.text)}</text>`);
    // Each entry's swatch, then its name, in reading order (right to left: the swatch on the right).
    const step = rtl ? -1 : 1;
    for (const entry of scene.legend) {
      out.push(
        `<circle cx="${n(entry.x + step * 6)}" cy="${n(entry.y)}" r="6" fill="${entry.color}"/>`,
        `<text x="${n(entry.x + step * 18)}" y="${n(entry.y)}" dominant-baseline="central" fill="${scene.ink}">${escapeXml(entry.name)}</text>`,
      );
    }
    out.push('</g>');
  }
  out.push('</svg>');
  return out.join('\n');
}

/** The basemap's attribution in the map's bottom corner, as MapLibre shows it: small text on a pale band. */
function attributionMarkup(text: string, scene: Scene): string {
  const size = 10;
  // A plain estimate of its width (10 px text, a system font): the band only needs to be about right.
  const width = Math.min(scene.map.width, Math.ceil(text.length * size * 0.52) + 10);
  const x = scene.map.width - width;
  const y = scene.map.height - 16;
  return `<g id="mfx-attribution" font-size="${size}" direction="ltr"><rect x="${n(x)}" y="${n(y)}" width="${n(width)}" height="16" fill="${scene.dark ? '#0f172a' : '#ffffff'}" fill-opacity="0.8"/><text x="${n(scene.map.width - 5)}" y="${n(y + 8)}" text-anchor="end" dominant-baseline="central" fill="${scene.dark ? '#cbd5e1' : '#334155'}">${escapeXml(text)}</text></g>`;
}

function floorMarkup(scene: Scene, floor: PictureFloor): string {
  if (floor.kind === 'basemap') {
    return isDataImage(floor.href) ? `<g id="mfx-floor"><image x="0" y="0" width="${scene.map.width}" height="${scene.map.height}" preserveAspectRatio="none" href="${escapeXml(floor.href)}"/></g>` : '';
  }
  const { k, tx, ty } = scene;
  const { width, height } = scene.floor;
  const place = `translate(${n(tx)} ${n(ty)}) scale(${k})`;
  if (floor.kind === 'svg') {
    const style = floor.css.trim() ? `<style>${escapeXml(floor.css)}</style>` : '';
    return `<g id="mfx-floor" transform="${place}">${style}${floor.markup}</g>`;
  }
  if (floor.kind === 'image' && isDataImage(floor.href)) {
    return `<g id="mfx-floor" transform="${place}"><image x="0" y="0" width="${width}" height="${height}" preserveAspectRatio="none" href="${escapeXml(floor.href)}"/></g>`;
  }
  // A plain sheet, as the renderer draws a floor without a file (rounded, a soft shadow).
  const radius = n(12 / k);
  return `<g id="mfx-floor" transform="${place}"><rect width="${width}" height="${height}" rx="${radius}" fill="${scene.floor.sheet}" filter="url(#mfx-shadow)"/></g>`;
}

function markerMarkup(marker: SceneMarker, scene: Scene, images: ReadonlyMap<string, string>): string {
  const { x, y, color } = marker;
  const id = `data-location="${escapeXml(marker.id)}"`;
  const scale = marker.active ? 1.2 : 1;
  const centreText = (size: number, cx: number, cy: number) =>
    marker.text ? `<text x="${cx}" y="${cy + 0.5}" font-size="${size}" font-weight="700" fill="#ffffff" text-anchor="middle" dominant-baseline="central">${escapeXml(marker.text)}</text>` : '';
  const halo = marker.active && marker.type !== 'label' ? `<ellipse cx="${n(x)}" cy="${n(y)}" rx="16" ry="${marker.type === 'pin' ? 6 : 16}" fill="${scene.accent}" fill-opacity="0.22"/>` : '';
  switch (marker.type) {
    case 'compact':
      return `<circle ${id} cx="${n(x)}" cy="${n(y)}" r="4" fill="${color}" stroke="#ffffff" stroke-width="1.5"/>`;
    case 'pin': {
      const inner = marker.text ? centreText(marker.text.length > 2 ? 9 : 11, 12, 12) : '<circle cx="12" cy="12" r="4.5" fill="#ffffff"/>';
      return `${halo}<g ${id} transform="translate(${n(x)} ${n(y)}) scale(${scale}) translate(-12 -32)"><use href="#mfx-pin" xlink:href="#mfx-pin" fill="${color}" filter="url(#mfx-shadow)"/><use href="#mfx-pin" xlink:href="#mfx-pin" fill="none" stroke="#ffffff" stroke-opacity="0.9" stroke-width="1.5"/>${inner}</g>`;
    }
    case 'circle':
    case 'dot': {
      const r = marker.type === 'dot' ? 6.5 : 11;
      const border = marker.type === 'dot' ? 2 : 2.5;
      const text = marker.type === 'circle' ? centreText(marker.text.length > 2 ? 8 : 10, 0, 0) : '';
      return `${halo}<g ${id} transform="translate(${n(x)} ${n(y)}) scale(${scale})"><circle r="${r}" fill="${color}" filter="url(#mfx-shadow)"/><circle r="${r - border / 2}" fill="none" stroke="#ffffff" stroke-width="${border}"/>${text}</g>`;
    }
    case 'thumbnail': {
      const href = marker.image ? images.get(marker.image) : undefined;
      const clip = `mfx-clip-${escapeXml(marker.id)}`;
      const picture =
        href && isDataImage(href)
          ? `<clipPath id="${clip}"><circle r="18"/></clipPath><image x="-18" y="-18" width="36" height="36" preserveAspectRatio="xMidYMid slice" clip-path="url(#${clip})" href="${escapeXml(href)}"/>`
          : `<circle r="18" fill="${color}"/>`;
      return `${halo}<g ${id} transform="translate(${n(x)} ${n(y)}) scale(${scale})"><circle r="21" fill="#ffffff" filter="url(#mfx-shadow)"/>${picture}</g>`;
    }
    case 'label':
      return labelMarkup(marker, scene, id);
    case 'cluster': {
      // A badge as the canvas draws it (marker-layer.ts): a translucent ring, the disc, its count.
      const r = marker.width / 2;
      const ring = scene.dark ? '#0f172a' : '#ffffff';
      return `<g data-cluster="${escapeXml(marker.text)}" transform="translate(${n(x)} ${n(y)})"><circle r="${r}" fill="${color}" fill-opacity="0.28"/><circle r="${r - 5}" fill="${color}" stroke="${ring}" stroke-width="2" filter="url(#mfx-shadow)"/><text y="0.5" font-size="${marker.text.length > 3 ? 11 : 12.5}" font-weight="700" fill="#ffffff" text-anchor="middle" dominant-baseline="central">${escapeXml(marker.text)}</text></g>`;
    }
  }
}

/** A label: text with a halo (the map's colours), or a pill in the accent when selected. */
function labelMarkup(marker: SceneMarker, scene: Scene, id: string): string {
  const lines = marker.lines;
  const h = lines.length * LABEL_LINE + (marker.active ? 8 : 3);
  const top = marker.y - h / 2;
  const first = top + (marker.active ? 4 : 1.5) + LABEL_LINE / 2;
  const tspans = lines.map((line, i) => `<tspan x="${n(marker.x)}" y="${n(first + i * LABEL_LINE)}">${escapeXml(line)}</tspan>`).join('');
  const text = (paint: string) =>
    `<text font-size="${LABEL_FONT_SIZE}" font-weight="600" text-anchor="middle" dominant-baseline="central" ${paint}>${tspans}</text>`;
  if (marker.active) {
    return `<g ${id}><rect x="${n(marker.x - marker.width / 2)}" y="${n(top)}" width="${marker.width}" height="${h}" rx="7" fill="${scene.accent}" filter="url(#mfx-shadow)"/>${text('fill="#ffffff"')}</g>`;
  }
  const haloColour = scene.dark ? '#0f172a' : '#ffffff';
  const ink = scene.dark ? '#f1f5f9' : '#1e293b';
  return `<g ${id}>${text(`fill="${ink}" stroke="${haloColour}" stroke-opacity="0.95" stroke-width="3.5" stroke-linejoin="round" paint-order="stroke"`)}</g>`;
}
