/**
 * Text no boundary lets in: NUL, which PostgreSQL cannot keep in `text` or `jsonb`, and
 * unpaired UTF-16 surrogates, which have no UTF-8 form (PostgreSQL refuses them too, and a
 * browser would show U+FFFD). One check for any value, whatever its shape, so no field can be
 * forgotten: the server runs it over every request's body, query and parameters and every
 * websocket message; {@link withSafeText} adds it to a whole boundary schema.
 */
import { z } from 'zod';

/** Said after the field's path, in the style of the other invalid-argument messages. */
export const UNSAFE_TEXT_MESSAGE = 'must not contain NUL characters or unpaired surrogates';

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// eslint-disable-next-line no-control-regex -- NUL is the very character this finds
const UNSAFE_CHARACTER = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** True when the text has no NUL and every surrogate is paired (well-formed UTF-16). */
export function isSafeText(text: string): boolean {
  return !text.includes('\u0000') && !LONE_SURROGATE.test(text);
}

export type TextPath = Array<string | number>;

interface Visit {
  value: unknown;
  parent: Visit | null;
  key: string | number | null;
}

function pathOf(visit: Visit, last?: string): TextPath {
  const reversed: TextPath = last === undefined ? [] : [last];
  for (let at: Visit | null = visit; at && at.key !== null; at = at.parent) reversed.push(at.key);
  return reversed.reverse();
}

/** Bytes (a webhook's or an upload's raw body) are not text; every other object is walked. */
function isBytes(value: object): boolean {
  return ArrayBuffer.isView(value) || value instanceof ArrayBuffer;
}

/**
 * The path of the first unsafe text in `value`, in document order: a string, or an object's
 * key (the path then ends with that key), at any depth; `[]` when `value` itself is such a
 * string; null when there is none. Walks without recursion, so a deeply nested body cannot
 * overflow the stack, and visits each object once.
 */
export function findUnsafeText(value: unknown): TextPath | null {
  const stack: Visit[] = [{ value, parent: null, key: null }];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const current = visit.value;
    if (typeof current === 'string') {
      if (!isSafeText(current)) return pathOf(visit);
      continue;
    }
    if (typeof current !== 'object' || current === null || seen.has(current)) continue;
    seen.add(current);
    if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--) stack.push({ value: current[index], parent: visit, key: index });
      continue;
    }
    if (isBytes(current)) continue;
    // Own enumerable keys: what JSON, forms and query strings make (with or without a prototype).
    const record = current as Record<string, unknown>;
    const keys = Object.keys(record);
    for (const key of keys) if (!isSafeText(key)) return pathOf(visit, key);
    for (let index = keys.length - 1; index >= 0; index--) stack.push({ value: record[keys[index]!], parent: visit, key: keys[index]! });
  }
  return null;
}

/** A path segment as it can be shown: NUL and lone surrogates written as `\uXXXX` escapes. */
export function printableSegment(segment: string | number): string | number {
  if (typeof segment === 'number') return segment;
  return segment.replace(UNSAFE_CHARACTER, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The invalid-argument message for the first unsafe text in `value` ("data.title: must not
 * contain ..."), or null. `name` stands for `value` itself when the path is empty.
 */
export function unsafeTextMessage(value: unknown, name = 'value'): string | null {
  const path = findUnsafeText(value);
  if (!path) return null;
  const where = path.length > 0 ? path.map(printableSegment).join('.') : name;
  return `${where}: ${UNSAFE_TEXT_MESSAGE}`;
}

/**
 * The schema with the check added over its whole value: one issue at the path of the first
 * unsafe text. It sees what the schema keeps (keys an object strips never reach anyone).
 * Wrap each boundary schema once instead of refining its text fields one by one.
 */
export function withSafeText<T extends z.ZodType>(schema: T): T {
  return schema.check((context) => {
    const path = findUnsafeText(context.value);
    if (path) context.issues.push({ code: 'custom', message: UNSAFE_TEXT_MESSAGE, path: path.map(printableSegment), input: context.value });
  }) as T;
}

/** The message of a failed parse's unsafe-text issue ("topic: must not contain ..."), if it has one. */
export function unsafeTextIssue(error: z.ZodError): string | null {
  const issue = error.issues.find((candidate) => candidate.code === 'custom' && candidate.message === UNSAFE_TEXT_MESSAGE);
  return issue ? `${issue.path.length > 0 ? issue.path.join('.') : 'value'}: ${UNSAFE_TEXT_MESSAGE}` : null;
}

const graphemes = typeof Intl !== 'undefined' && 'Segmenter' in Intl ? new Intl.Segmenter(undefined, { granularity: 'grapheme' }) : null;

/**
 * The text cut to at most `max` UTF-16 units (the length zod's `max` counts) at a grapheme
 * boundary: never inside a surrogate pair (a lone half is text no boundary lets in, and
 * PostgreSQL refuses it) nor between an emoji and its modifiers or a letter and its accents.
 * Text within `max` is returned as it is.
 */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  if (!graphemes) {
    // Without Intl.Segmenter, code points: a cut never leaves half a surrogate pair.
    const end = /[\ud800-\udbff]/.test(text.charAt(max - 1)) ? max - 1 : max;
    return text.slice(0, Math.max(0, end));
  }
  let end = 0;
  for (const { segment } of graphemes.segment(text)) {
    if (end + segment.length > max) break;
    end += segment.length;
  }
  return text.slice(0, end);
}
