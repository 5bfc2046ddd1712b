/**
 * SVG element references: what a location's `element` may name, and the one mapping from any
 * raw id to such a reference. Apart from element-id.ts (whose schema needs zod) so the
 * drawing code of the viewer takes it without zod.
 */

/** Longest SVG element id a location's `element` may name. */
export const SVG_ELEMENT_ID_MAX = 200;
/** What a location's `element` may be: an id a CSS selector and `href="#…"` take as they are. */
const SVG_ELEMENT_ID = /^[A-Za-z_][\w.:-]*$/;

/** Whether `id` is a valid SVG element id as a location's `element` takes it. */
export function isSvgElementId(id: string): boolean {
  return id.length <= SVG_ELEMENT_ID_MAX && SVG_ELEMENT_ID.test(id);
}

/** Made ids start with this: a valid start for any raw id (`11` → `id-11`, `-99` → `id--99`). */
const PREFIX = 'id-';
/** Characters kept as they are after the prefix; any other is written `_{hex}_` (an `_` too, so the escape reads one way). */
const KEPT = /^[A-Za-z0-9.:-]$/;

/**
 * The one mapping from any raw id (a GeoJSON feature's `"11"` or `"-99"`, a KML placemark's,
 * a CSV cell, an SVG's `id="1st floor"`) to a valid SVG element id: valid ids are returned
 * unchanged; any other becomes {@link PREFIX} followed by its characters, those outside
 * letters, digits, `.`, `:` and `-` escaped as `_{code point in hex}_` (`"Rhode Island"` →
 * `id-Rhode_20_Island`). Pure and deterministic, so a drawing made from a file and the
 * locations naming its regions agree, and an upcaster reads an old event's id the same way.
 *
 * Distinct raw ids give distinct results, with two limits no mapping that leaves valid ids
 * alone can avoid: a valid raw id spelt like another's result (`id-11` beside `11`), and ids
 * whose result would pass 200 characters, which are cut and end in a 64-bit hash of the raw
 * id. Callers that must never merge two ids (an import's regions) still de-duplicate.
 */
export function elementIdFor(rawId: string): string {
  if (isSvgElementId(rawId)) return rawId;
  let made = PREFIX;
  for (const character of rawId) made += KEPT.test(character) ? character : `_${character.codePointAt(0)!.toString(16)}_`;
  if (made.length <= SVG_ELEMENT_ID_MAX) return made;
  const hash = `-${hash64(rawId)}`;
  return made.slice(0, SVG_ELEMENT_ID_MAX - hash.length) + hash;
}

/** A 64-bit FNV-1a hash of the text's UTF-16 units, in 16 hex digits (two 32-bit halves with different offsets). */
function hash64(text: string): string {
  let high = 0x811c9dc5;
  let low = 0x050c5d1f;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    high = Math.imul(high ^ unit, 0x01000193) >>> 0;
    low = Math.imul(low ^ unit ^ (high >>> 13), 0x01000193) >>> 0;
  }
  return high.toString(16).padStart(8, '0') + low.toString(16).padStart(8, '0');
}
