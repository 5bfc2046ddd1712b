/**
 * The data a server-rendered viewer page carries for its hydration (GET /m/{id}): the map the
 * server rendered and the site's public address, as JSON in a `<script type="application/json">`
 * (a data block: never run, so the pages' Content-Security-Policy, which allows no inline
 * script, has nothing to refuse), its locations compact. Written by
 * server/public-maps/ssr-viewer-page.ts, read by client/src/viewer-main.tsx.
 */
import { compactDocument, expandDocument, pageLocationDefaults } from './compact-locations.js';
import type { PublicMap } from './http-api.js';
import type { ViewerLocale } from './locales.js';

/** The id of the page's data block. */
export const VIEWER_DATA_ID = 'mapfold-viewer-data';

export interface ViewerPageData {
  map: PublicMap;
  /** The site's public address, for the share link and the embed code. */
  publicUrl: string;
  /** The language the page was rendered in (events/locales.ts), and so hydrates in. */
  locale: ViewerLocale;
  /** That language's compiled catalogue (client/src/i18n/translator.ts): the page brings its words. */
  messages: Readonly<Record<string, unknown>>;
  /**
   * The shown locations' indices in the directory's order as the server sorted them for the
   * page's language (events/directory-order.ts): the browser's own sort is then one pass.
   */
  directoryOrder?: readonly number[];
}

/**
 * The JSON of the page's data block, safe inside a `<script>` element: `<`, `>` and `&` are
 * written as `\u003c`, `\u003e`, `\u0026` (JSON.parse reads them back as they were), so no
 * text in a map, not even `</script>` or `<!--` in a title, can end the block or open markup.
 * U+2028 and U+2029 are escaped too, for any reader that takes the JSON for JavaScript.
 */
export function serializeViewerPageData(data: ViewerPageData): string {
  // The locations without their default-valued fields, and the defaults once (events/compact-locations.ts): a third of the bytes.
  const locationDefaults = pageLocationDefaults(data.map.data);
  const page: ViewerPageData & { locationDefaults: typeof locationDefaults } = { ...data, map: { ...data.map, data: compactDocument(data.map.data, locationDefaults) }, locationDefaults };
  return JSON.stringify(page).replace(/[<>&\u2028\u2029]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The page's data block read back: the map's locations whole again, as the viewer takes them. */
export function readViewerPageData(text: string): ViewerPageData {
  const data = JSON.parse(text) as ViewerPageData & { locationDefaults?: Record<string, unknown> };
  if (data.locationDefaults) data.map.data = expandDocument(data.map.data, data.locationDefaults);
  return data;
}
