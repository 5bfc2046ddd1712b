/**
 * How long browsers and CDNs may keep the client's built files (served by `@fastify/static`).
 * Vite names what it bundles after its content (`assets/app-1a2B3c4D.js`): such a file never
 * changes under its name, so it is kept for a year without asking again (`immutable`). Every
 * other file (the pages, `favicon.svg`, the demo's drawings under `assets/demo/`) keeps its
 * name across releases: it is revalidated on each use (`no-cache`: kept, but asked about with
 * its ETag, a 304 when unchanged).
 */
/** `assets/name-hash.ext`, or its precompressed copy (`.br`, `.gz`), which the static plugin names when it sends one. */
const CONTENT_HASHED = /^assets\/[^/]+-[A-Za-z0-9_-]{8}\.[a-z0-9]+(\.br|\.gz)?$/;

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

/** The Cache-Control for a built file, by its path under the client's folder. */
export function staticCacheControl(filePath: string): string {
  return CONTENT_HASHED.test(filePath.replace(/\\/g, '/').replace(/^\/+/, '')) ? IMMUTABLE : REVALIDATE;
}
