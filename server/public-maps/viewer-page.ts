/**
 * The contract between the published-map cache (server/public-maps/public-map-cache.ts: what is
 * kept per revision, compressed once, invalidated by the projections' notices) and the page
 * renderer (the server-rendered viewer at /m/{id}). The cache calls `render` once per map
 * revision (and language) and keeps the string; the renderer never reads the database. A page is kept per revision and language.
 */
import type { PublicMap } from '../../events/http-api.js';
import type { ViewerLocale } from '../../events/locales.js';

export interface ViewerPageRenderer {
  /**
   * The whole HTML document of `/m/{id}` for a published map: the viewer's markup (floor,
   * markers, directory) rendered on the server, the map's JSON for hydration, and the viewer
   * build's scripts and styles, in `locale` (its words, `<html lang dir>`, and its catalogue
   * for the hydration). Pure of the request: the same map and locale give the same bytes.
   */
  render(map: PublicMap, locale: ViewerLocale): Promise<string>;
  /**
   * The page for a map a visitor may not see or that does not exist (sent with 404), and the
   * shell a private test map is rendered in (per request, never kept by a shared cache).
   */
  shell(): Promise<string>;
}
