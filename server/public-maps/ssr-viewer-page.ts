/**
 * The server-rendered viewer page (the {@link ViewerPageRenderer} of `/m/{id}`): the built
 * viewer.html (its hashed scripts and stylesheets) with
 *  - the viewer's markup in `#viewer-root`, rendered by Preact on the server (preact/compat)
 *    (dist/server/viewer-server.js, built from client/src/viewer-server.tsx by `npm run build`):
 *    the floor, the markers and the directory, on screen before or without JavaScript;
 *  - the map's JSON for hydration in a data block (events/viewer-page-data.ts), `<` and the like
 *    escaped, so no text of the map ends the block; the prefetch script goes, the map is here;
 *  - the map's title and a description in `<title>`, `<meta name="description">` and Open Graph,
 *    and the oEmbed discovery link (GET /oembed, events/oembed.ts).
 *
 * Rich text: the page carries no location description as markup. Descriptions are shown only
 * in the details popup, which the browser renders after sanitising them with DOMPurify (they
 * were sanitised on the server before being recorded too, server/content/rich-text-sanitizer.ts);
 * in this page they are JSON strings inside the data block, which is never parsed as HTML.
 * Everything else is text the renderer (preact-render-to-string) escapes.
 *
 * `shell()` is viewer.html as built: the client renders alone and fetches the map (a test map
 * shown to its owner, a map that does not exist). Without the server build the renderer falls
 * back to the shell for every map, so a client-only build still serves working pages.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DomainError } from '../../events/errors.js';
import { assetsOf, readClientManifest, VIEWER_MANIFEST, type ClientManifest } from '../client-manifest.js';
import type { PublicMap } from '../../events/http-api.js';
import { directoryOrder } from '../../events/directory-order.js';
import { directionOf, type ViewerLocale } from '../../events/locales.js';
import { serializeViewerPageData, VIEWER_DATA_ID } from '../../events/viewer-page-data.js';
import { regionTintsMarkup, type RegionFill } from './region-tints.js';
import type { ViewerPageRenderer } from './viewer-page.js';

export interface SsrViewerPageOptions {
  /** Where the browser build lives (its viewer.html). */
  clientDist: string;
  /** Where the server build lives (its viewer-server.js). */
  serverDist: string;
  /** The site's public address (share links, embed code, Open Graph). */
  publicUrl: string;
  /**
   * Reads a floor's SVG by its address (`/files/{id}`, a built-in floor), or null: its regions
   * are then tinted in the page for visitors without JavaScript (region-tints.ts).
   */
  readFloor?: (url: string) => Promise<string | null>;
}

interface RegionTints {
  fileUrl: string;
  markup: string;
}
interface ServerRenderer {
  renderViewer(map: PublicMap, publicUrl: string, tints: RegionTints | null, locale: ViewerLocale, directoryOrder?: readonly number[]): string;
  viewerTranslator(locale: ViewerLocale): PageTranslator;
  /** The source modules hydrating this map's page loads first (client/src/viewer-server.tsx). */
  firstRenderModules?(map: PublicMap): string[];
}

/** What the page takes of the renderer's translator (client/src/i18n/translator.ts). */
interface PageTranslator {
  messages: Readonly<Record<string, unknown>>;
  t(id: 'viewer.pageDescription', values: { title: string; places: number; floors: number }): string;
}

interface LooseDocument {
  settings?: { defaultLayer?: string | null };
  layers?: Array<{ id: string; file?: { kind?: string; url?: string } | null }>;
  locations?: Array<{ layer?: string; hidden?: boolean; element?: string | null; color?: string | null; groups?: string[] }>;
  groups?: Array<{ id: string; color?: string }>;
  styles?: { regions?: { base?: string } };
}

/**
 * The tints of the floor the page opens on (the map's default floor, else its first), as the
 * live floor fills them: each location's region in its colour, else its first group's, else
 * the map's region colour (svg-layer.ts).
 */
async function tintsOf(map: PublicMap, readFloor: (url: string) => Promise<string | null>): Promise<RegionTints | null> {
  const doc = map.data as LooseDocument | null;
  const layers = doc?.layers ?? [];
  const layer = layers.find((candidate) => candidate.id === doc?.settings?.defaultLayer) ?? layers[0];
  const fileUrl = layer?.file?.kind === 'svg' ? layer.file.url : undefined;
  if (!layer || !fileUrl) return null;
  const groupColors = new Map((doc?.groups ?? []).map((group) => [group.id, group.color ?? null]));
  const regions: RegionFill[] = (doc?.locations ?? [])
    .filter((location) => location.layer === layer.id && !location.hidden && location.element)
    .map((location) => ({ element: location.element!, color: location.color ?? (location.groups?.[0] ? groupColors.get(location.groups[0]) ?? null : null) }));
  if (regions.length === 0) return null;
  const svg = await readFloor(fileUrl).catch(() => null);
  const markup = svg ? regionTintsMarkup(svg, regions, doc?.styles?.regions?.base ?? '') : null;
  return markup ? { fileUrl, markup } : null;
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

interface MapFacts {
  locations: number;
  layers: number;
}

/** How many locations and floors a map shows (a document from the read model: checked loosely). */
function factsOf(map: PublicMap): MapFacts {
  const data = map.data as { locations?: Array<{ hidden?: boolean }>; layers?: unknown[] } | null;
  const locations = Array.isArray(data?.locations) ? data.locations.filter((location) => !location?.hidden).length : 0;
  return { locations, layers: Array.isArray(data?.layers) ? data.layers.length : 0 };
}

/** The directory's order of a map's shown locations in the page's language, or undefined for a malformed document. */
function directoryOrderOf(map: PublicMap, locale: ViewerLocale): number[] | undefined {
  const locations = (map.data as { locations?: unknown } | null)?.locations;
  if (!Array.isArray(locations) || !locations.every((location) => typeof (location as { title?: unknown } | null)?.title === 'string')) return undefined;
  return directoryOrder(locations as Array<{ title: string; hidden?: boolean }>, locale);
}

/** The scripts of these modules the page does not link already (none without a manifest). */
function preloadsOf(page: string, manifest: ClientManifest | null, modules: readonly string[]): string[] {
  if (!manifest || modules.length === 0) return [];
  return assetsOf(manifest, modules).scripts.filter((href) => !page.includes(`"${href}"`));
}

/** The page's description: what the map is, in one sentence, in the page's language. */
export function describeMap(map: PublicMap, translator: PageTranslator): string {
  const { locations, layers } = factsOf(map);
  return translator.t('viewer.pageDescription', { title: map.title, places: locations, floors: layers });
}

/** The built page with this head and body, in `locale`: every replacement must find its mark. */
function assemble(template: string, map: PublicMap, markup: string, publicUrl: string, locale: ViewerLocale, translator: PageTranslator, order: readonly number[] | undefined, preloads: readonly string[]): string {
  const title = escapeHtml(`${map.title} · Mapfold`);
  const description = escapeHtml(describeMap(map, translator));
  const base = publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`;
  const pageUrl = new URL(`m/${encodeURIComponent(map.id)}`, base).toString();
  const url = escapeHtml(pageUrl);
  // oEmbed discovery (oembed.com §4): CMSs that embed by URL find GET /oembed here.
  const oembed = escapeHtml(`${new URL('oembed', base).toString()}?url=${encodeURIComponent(pageUrl)}&format=json`);
  const replace = (page: string, pattern: RegExp, by: string) => {
    if (!pattern.test(page)) throw new Error(`viewer.html has changed: ${pattern} is not in it.`);
    // A function, so `$` in a map's text is never read as a replacement pattern.
    return page.replace(pattern, () => by);
  };
  let page = template;
  page = replace(page, /<html lang="[^"]*">/, `<html lang="${locale}" dir="${directionOf(locale)}">`);
  page = replace(page, /<title>[^<]*<\/title>/, `<title>${title}</title>`);
  page = replace(
    page,
    /<meta name="description" content="[^"]*" \/>/,
    `<meta name="description" content="${description}" />\n    <meta property="og:type" content="website" />\n    <meta property="og:title" content="${escapeHtml(map.title)}" />\n    <meta property="og:description" content="${description}" />\n    <meta property="og:url" content="${url}" />\n    <link rel="alternate" type="application/json+oembed" href="${oembed}" title="${escapeHtml(map.title)}" />`,
  );
  // What the hydration loads first, fetched while the page is read instead of after hydrating.
  // Linked at the end of the body, not in the head: there they took the main thread before the
  // first paint (25 alternated loads of 2,000 locations: first paint 188 ms at the end, 200 in
  // the head, 188 without; ready 346, 366 and 385 ms).
  if (preloads.length) page = replace(page, /\n\s*<\/body>/, `\n${preloads.map((href) => `    <link rel="modulepreload" crossorigin href="${escapeHtml(href)}">`).join('\n')}\n  </body>`);
  // The map is in the page: no need to start fetching it.
  page = replace(page, /\s*<!--[^>]*-->\s*<script src="\/viewer-prefetch\.js"><\/script>/, '');
  const data = `<script type="application/json" id="${VIEWER_DATA_ID}">${serializeViewerPageData({ map, publicUrl, locale, messages: translator.messages, ...(order ? { directoryOrder: order } : {}) })}</script>`;
  page = replace(page, /<div id="viewer-root"><\/div>/, `<div id="viewer-root">${markup}</div>\n    ${data}`);
  return page;
}

export function ssrViewerPage({ clientDist, serverDist, publicUrl, readFloor }: SsrViewerPageOptions): ViewerPageRenderer {
  const templatePath = path.join(clientDist, 'viewer.html');
  const serverEntry = path.join(serverDist, 'viewer-server.js');
  // Loaded once (a rebuilt server renderer needs a restart; the cache keeps pages per revision anyway).
  let renderer: Promise<ServerRenderer | null> | null = null;
  const loadRenderer = () =>
    (renderer ??= import(pathToFileURL(serverEntry).href).then(
      (module: Partial<ServerRenderer>) => (module.renderViewer && module.viewerTranslator ? (module as ServerRenderer) : null),
      () => null,
    ));
  const template = async () => {
    try {
      // Read each time, like the static files: a rebuilt client is served without a restart.
      return await readFile(templatePath, 'utf8');
    } catch {
      throw new DomainError('not-found', 'The viewer is not built (npm run build).');
    }
  };

  return {
    async render(map, locale) {
      const [page, server, tints, manifest] = await Promise.all([template(), loadRenderer(), readFloor ? tintsOf(map, readFloor) : null, readClientManifest(clientDist, VIEWER_MANIFEST)]);
      if (!server) return page;
      // The directory's order, sorted once here for the page and its hydration (events/directory-order.ts).
      const order = directoryOrderOf(map, locale);
      const markup = server.renderViewer(map, publicUrl, tints, locale, order);
      return assemble(page, map, markup, publicUrl, locale, server.viewerTranslator(locale), order, preloadsOf(page, manifest, server.firstRenderModules?.(map) ?? []));
    },
    shell: template,
  };
}
