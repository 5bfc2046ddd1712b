/**
 * The one jsdom window the server's sanitisers (rich text, SVG) work in, made on first use.
 *
 * jsdom is loaded then too, not when this module is imported: loading it takes some 50 MB
 * and a few hundred milliseconds, and most processes never sanitise anything (a server that
 * only serves published maps, a worker that only projects). It is a CommonJS package, so
 * `require` loads it synchronously and the sanitisers stay synchronous functions.
 */
import { createRequire } from 'node:module';
import type { DOMWindow } from 'jsdom';

const require = createRequire(import.meta.url);

let shared: DOMWindow | null = null;

/** The shared window: an empty HTML document; callers build their trees in documents of their own. */
export function domWindow(): DOMWindow {
  if (shared) return shared;
  const { JSDOM } = require('jsdom') as typeof import('jsdom');
  shared = new JSDOM('<!DOCTYPE html><html><head></head><body></body></html>').window;
  return shared;
}
