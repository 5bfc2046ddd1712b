/**
 * Parsers and sanitisers the server loads on first use, not at start: most processes never
 * read a KML, sanitise markup or tint a drawing's regions (a server that only serves published
 * maps, a worker that only projects), and each is megabytes of an idle server's memory (parse5
 * about 9 MB, xmldom about 7 MB, measured alone). Each is a CommonJS package too, so `require`
 * loads it synchronously and the functions that use it stay synchronous; jsdom, which the
 * sanitisers load the same way (dom-window.ts), then shares the same parse5.
 */
import { createRequire } from 'node:module';
import type createDOMPurify from 'dompurify';

const require = createRequire(import.meta.url);

let parse5: typeof import('parse5') | null = null;
/** parse5, the HTML parser jsdom itself uses. */
export function loadParse5(): typeof import('parse5') {
  return (parse5 ??= require('parse5') as typeof import('parse5'));
}

let xmldom: typeof import('@xmldom/xmldom') | null = null;
/** @xmldom/xmldom's DOMParser and friends (KML imports, the viewer page's region tints). */
export function loadXmlDom(): typeof import('@xmldom/xmldom') {
  return (xmldom ??= require('@xmldom/xmldom') as typeof import('@xmldom/xmldom'));
}

let domPurify: typeof createDOMPurify | null = null;
/** DOMPurify's factory (its CommonJS build exports the function itself). */
export function loadDomPurify(): typeof createDOMPurify {
  return (domPurify ??= require('dompurify') as typeof createDOMPurify);
}
