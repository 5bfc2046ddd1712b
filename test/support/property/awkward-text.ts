/**
 * Ids and names that are legal but awkward, as fast-check arbitraries: numbers, leading digits,
 * a leading `-`, dots, colons, spaces, non-Latin scripts, emoji (two UTF-16 units each, so a
 * cut at a length limit can split one), 200 characters and just past it. What real files carry:
 * Natural Earth's `"-99"`, the US states' `"11"`, floor names in Japanese or Arabic.
 * Used by the core contract's property test (test/server/core-contract.property.test.ts).
 */
import fc from 'fast-check';

/** Texts that broke (or nearly broke) something once, or sit right at a limit. */
const SPECIAL_TEXTS = [
  '11', '-99', '0', '007', '1.5', '-', '_', '1st floor', '-A', 'a.b', 'ns:shop', 'a:b.c-d_e', 'Shop 12',
  '  padded  ', 'Ünïcödé', '東京タワー', 'مركز التسوق', 'Кафе', 'Ελληνικά', '🍕 Pizza', '👩‍👩‍👧 Family',
  "O'Brien & Sons <b>", 'a, b; "c"', 'path3677', 'XMLID_5_', 'US-CA',
  'x'.repeat(200), 'é'.repeat(200), `${'a'.repeat(198)}🍕`, `${'a'.repeat(98)}🍕`, `${'a'.repeat(118)}🍕`,
] as const;

/**
 * Names one unit longer than a field (a floor's or group's 100, a title's 120 or 200) ending in
 * an emoji: cut at the limit, the emoji is split. Legal in a file; the product must cut them
 * whole. Kept apart: issue 26's title cut inside an emoji was a 500 when this was written.
 */
export const EMOJI_AT_LIMITS = [`${'a'.repeat(99)}🍕`, `${'a'.repeat(119)}🍕`, `${'a'.repeat(199)}🍕`] as const;

/** Pieces a generated text is made of, so duplicates and near-duplicates come up often. */
const PIECES = ['11', '-99', '-', '.', ':', ' ', '_', '0', '1st', 'Shop', 'A', 'b', '東京', 'مول', 'Кафе', '🍕', 'é', '&', '"', "'", '<', '#'] as const;

/** Any legal but awkward text (possibly longer than a field allows: files carry such). */
export const awkwardText: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...SPECIAL_TEXTS) },
  { weight: 3, arbitrary: fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 6 }).map((pieces) => pieces.join('')) },
);

/**
 * `text` cut to at most `max` UTF-16 units (zod's `max`) at a code point, never inside an
 * emoji's surrogate pair, and trimmed; `fallback` when nothing is left.
 */
export function clip(text: string, max: number, fallback = 'x'): string {
  let out = '';
  for (const point of text) {
    if (out.length + point.length > max) break;
    out += point;
  }
  return out.trim() || fallback;
}

/** An awkward text that a field of at most `max` characters takes as it is (trimmed, not empty). */
export const fittedText = (max: number): fc.Arbitrary<string> => awkwardText.map((text) => clip(text, max));

/** Ids the document takes (events/element-id.ts: 1 to 64 of A-Z a-z 0-9 _ -), awkward ones first. */
export const awkwardElementId: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('11', '-99', '0', '007', '-', '_', '1st-floor', '-A', 'a_b', 'US-CA', 'x'.repeat(64), '--', '9'),
  fc.stringMatching(/^[A-Za-z0-9_-]{1,10}$/),
);

/** SVG element ids a location's `element` takes (map-document.ts: a letter or _, then word characters, `.`, `:`, `-`; at most 200). */
export const awkwardSvgElementId: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('a.b', 'ns:shop', '_1', 'US-CA', 'a:b.c-d_e', `x${'y'.repeat(199)}`, 'Z', '_-99', '_11'),
  fc.stringMatching(/^[A-Za-z_][\w.:-]{0,12}$/),
);

/** Text in a file: any awkward text, and names split at a limit when `emojiAtLimits` says so. */
export function fileText(options: { emojiAtLimits: boolean }): fc.Arbitrary<string> {
  return options.emojiAtLimits ? fc.oneof({ weight: 6, arbitrary: awkwardText }, { weight: 1, arbitrary: fc.constantFrom(...EMOJI_AT_LIMITS) }) : awkwardText;
}

/** A file's id for a place: text (any of the above) or a JSON number, as GeoJSON allows. */
export const awkwardFileId: fc.Arbitrary<string | number | null> = fc.oneof(
  { weight: 4, arbitrary: awkwardText },
  { weight: 1, arbitrary: fc.constantFrom(11, -99, 0, 1.5, 2 ** 53) },
  { weight: 1, arbitrary: fc.constant(null) },
);

/** `id` made unique among `taken` (adds -2, -3, … within the 64 characters ids have), and taken. */
export function uniqueElementId(id: string, taken: Set<string>): string {
  let candidate = id;
  for (let n = 2; taken.has(candidate); n++) candidate = `${id.slice(0, 60)}-${n}`;
  taken.add(candidate);
  return candidate;
}
