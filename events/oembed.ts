/**
 * oEmbed (https://oembed.com, version 1.0) for a published map's page: a CMS that embeds by URL
 * (WordPress, Ghost, Notion, and anything using iframely or embed.ly) is given a link to
 * `GET /oembed?url=…` in the page's head (discovery, §4) and asks it for the HTML to show.
 * The answer is a `rich` type whose HTML is the very snippet the share menu copies
 * (events/embed-snippet.ts), sized to the consumer's maxwidth and maxheight (§2.2).
 */
import { z } from 'zod';
import { embedSnippet, fixedEmbedSnippet } from './embed-snippet.js';

/** The embed's proportions when nothing else is asked: the snippet's 16:10. */
const ASPECT_RATIO = 16 / 10;
/** The width answered when the consumer gives no maxwidth (px). */
export const OEMBED_DEFAULT_WIDTH = 800;
/** Below this a map cannot be used: a consumer asking for less still gets this much (px). */
const MIN_WIDTH = 200;

/** The request's query (§2.2); sizes arrive as strings, and nonsense is a 400, not a guess. */
export const OEmbedQuery = z.object({
  url: z.string().min(1).max(2048),
  maxwidth: z.coerce.number().int().positive().max(100_000).optional(),
  maxheight: z.coerce.number().int().positive().max(100_000).optional(),
  format: z.string().max(16).optional(),
});
export type OEmbedQuery = z.infer<typeof OEmbedQuery>;

/** The answer (§2.3.4 and §2.3.4.4 for `rich`). */
export const OEmbedRich = z.object({
  version: z.literal('1.0'),
  type: z.literal('rich'),
  title: z.string(),
  provider_name: z.literal('Mapfold'),
  provider_url: z.string(),
  html: z.string(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  /** Seconds a consumer may keep the answer: as long as a CDN keeps the page. */
  cache_age: z.number().int().nonnegative(),
});
export type OEmbedRich = z.infer<typeof OEmbedRich>;

/**
 * The map a URL names, when it is this site's viewer page (`{PUBLIC_URL}/m/{id}`, with a
 * `?location=`), else null: any other site's or page's URL has no oEmbed answer here.
 */
export function viewerPageOf(url: string, publicUrl: string): { mapId: string; locationId: string | null } | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const base = new URL(publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`);
  // http and https of the same host are the same site to a person pasting a link.
  if (parsed.host !== base.host || !/^https?:$/.test(parsed.protocol)) return null;
  if (!parsed.pathname.startsWith(base.pathname)) return null;
  const match = /^m\/([A-Za-z0-9_-]{1,128})\/?$/.exec(parsed.pathname.slice(base.pathname.length));
  if (!match) return null;
  return { mapId: match[1]!, locationId: parsed.searchParams.get('location') || null };
}

/** The size to answer: the default 16:10, within the consumer's maxwidth and maxheight. */
export function embedSize(maxwidth?: number, maxheight?: number): { width: number; height: number } {
  let width = Math.max(MIN_WIDTH, Math.min(OEMBED_DEFAULT_WIDTH, maxwidth ?? OEMBED_DEFAULT_WIDTH));
  let height = Math.round(width / ASPECT_RATIO);
  if (maxheight !== undefined && height > maxheight) {
    height = Math.max(Math.round(MIN_WIDTH / ASPECT_RATIO), maxheight);
    width = Math.round(height * ASPECT_RATIO);
  }
  return { width, height };
}

/** The oEmbed answer for a published map. */
export function oembedFor(
  map: { id: string; title: string },
  { publicUrl, locationId, maxwidth, maxheight, cacheAge }: { publicUrl: string; locationId: string | null; maxwidth?: number | undefined; maxheight?: number | undefined; cacheAge: number },
): OEmbedRich {
  const { width, height } = embedSize(maxwidth, maxheight);
  const location = locationId ? { locationId } : {};
  // Asked for at most a size: an iframe of that size (as video sites answer); else the share menu's responsive box.
  const html =
    maxwidth !== undefined || maxheight !== undefined
      ? fixedEmbedSnippet({ mapId: map.id, publicUrl, title: map.title, width, height, ...location })
      : embedSnippet({ mapId: map.id, publicUrl, title: map.title, ...location });
  return {
    version: '1.0',
    type: 'rich',
    title: map.title,
    provider_name: 'Mapfold',
    provider_url: new URL(publicUrl).origin + '/',
    html,
    width,
    height,
    cache_age: cacheAge,
  };
}
