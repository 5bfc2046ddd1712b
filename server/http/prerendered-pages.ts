/**
 * The marketing pages prerendered at build time (scripts/prerender-pages.ts writes them under
 * the client's build, `pages/`): which file answers a path, if one does. The server sends it in
 * place of the empty app shell (index.html), so the page is painted before its script runs.
 * Looked up per request, like the other built files: a rebuilt client is served without a
 * restart, and a build without them (or a path not prerendered) gets the shell as before.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

/** The folder of the prerendered pages, under the client's build. */
export const PRERENDERED_DIR = 'pages';
/** A path a page may be prerendered for: lower-case words, no dots, no empty segment. */
const PAGE_PATH = /^\/(?:[a-z0-9-]+(?:\/[a-z0-9-]+)*)?$/;

/** The page's file under {@link PRERENDERED_DIR}: `/` is `index.html`, `/case-study/retail` is `case-study/retail.html`. */
export function prerenderedPageFile(pathname: string): string {
  return pathname === '/' ? 'index.html' : `${pathname.slice(1)}.html`;
}

/** The built file (relative to the client's build) that answers `url` prerendered, or null. */
export function findPrerenderedPage(clientDist: string, url: string): string | null {
  const pathname = url.split(/[?#]/, 1)[0]!;
  if (!PAGE_PATH.test(pathname)) return null;
  const file = path.posix.join(PRERENDERED_DIR, prerenderedPageFile(pathname));
  return existsSync(path.join(clientDist, file)) ? file : null;
}
