/**
 * The snippet a customer pastes into their website to show a map: a responsive box of the
 * map's proportions with the viewer in an iframe. The viewer's share menu shows it, the editor's
 * share panel too, and the server's oEmbed answer (GET /oembed) gives it to CMSs that embed by URL.
 */

export interface EmbedOptions {
  mapId: string;
  /** The site's public address, e.g. `https://maps.example.com` (a trailing slash is fine). */
  publicUrl: string;
  /** The map's title, for the iframe's accessible name. */
  title: string;
  /** Width divided by height of the box; default 16:10. Kept between 3:4 and 21:9. */
  aspectRatio?: number;
  /** Open on a location (`?location={id}`). */
  locationId?: string;
  /**
   * false: the viewer counts nothing for the map's owner (`?insights=off`), for a host page
   * that has no consent from its visitors (client/README.md "Insights").
   */
  insights?: boolean;
}

/** The viewer's address for a map (and, optionally, one of its locations). */
export function viewerUrl(publicUrl: string, mapId: string, locationId?: string): string {
  const url = new URL(`m/${encodeURIComponent(mapId)}`, publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`);
  if (locationId) url.searchParams.set('location', locationId);
  return url.toString();
}

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The box's least height: room for the viewer's search bar and controls beside a flat map, on
 * a page column. Never more than 80% of the screen's width: on a phone a fixed 420 px stood the
 * box far taller than the map, which then filled only a band of it (the map keeps its
 * proportions). A phone's page column is about the screen's width; the snippet stays one box
 * (host pages style it), so the screen's width stands for the column's. A browser without
 * min() keeps the fixed floor.
 */
export const EMBED_MIN_HEIGHT_PX = 420;

/** The HTML of the embed: a box that keeps its proportions at any width, holding the iframe. */
export function embedSnippet({ mapId, publicUrl, title, aspectRatio = 16 / 10, locationId, insights = true }: EmbedOptions): string {
  const ratio = Math.min(21 / 9, Math.max(3 / 4, Number.isFinite(aspectRatio) && aspectRatio > 0 ? aspectRatio : 16 / 10));
  const url = new URL(viewerUrl(publicUrl, mapId, locationId));
  if (!insights) url.searchParams.set('insights', 'off');
  const src = escapeAttribute(url.toString());
  const name = escapeAttribute(`Map: ${title}`);
  return (
    `<div style="position:relative;width:100%;aspect-ratio:${Number(ratio.toFixed(4))};min-height:${EMBED_MIN_HEIGHT_PX}px;min-height:min(${EMBED_MIN_HEIGHT_PX}px,80vw);max-height:90vh">` +
    `<iframe src="${src}" title="${name}" loading="lazy" allow="fullscreen" allowfullscreen ` +
    `style="position:absolute;inset:0;width:100%;height:100%;border:0;border-radius:12px"></iframe>` +
    `</div>`
  );
}

/**
 * The embed at a fixed size (px), for a host that sets one: an oEmbed consumer that asked for at
 * most `width` × `height` (GET /oembed's maxwidth and maxheight). Narrower on a narrower column.
 */
export function fixedEmbedSnippet({ mapId, publicUrl, title, locationId, width, height }: Omit<EmbedOptions, 'aspectRatio' | 'insights'> & { width: number; height: number }): string {
  const src = escapeAttribute(viewerUrl(publicUrl, mapId, locationId));
  const name = escapeAttribute(`Map: ${title}`);
  return `<iframe src="${src}" title="${name}" width="${Math.round(width)}" height="${Math.round(height)}" loading="lazy" allow="fullscreen" allowfullscreen style="max-width:100%;border:0;border-radius:12px"></iframe>`;
}
