/** The one check for NUL and unpaired surrogates, over any value and as part of a zod schema. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { findUnsafeText, isSafeText, UNSAFE_TEXT_MESSAGE, unsafeTextIssue, unsafeTextMessage, withSafeText } from '../../events/safe-text.js';

describe('isSafeText', () => {
  it('takes any well-formed text, paired surrogates (emoji) included', () => {
    for (const text of ['', 'Harbour Market', 'Café – 2ᵉ étage', '😀 and 𝄞', 'tab\tnew line\n\u0001']) expect(isSafeText(text)).toBe(true);
  });

  it('refuses NUL and every kind of unpaired surrogate', () => {
    for (const text of ['\u0000', 'a\u0000b', '\ud800', 'x\ud83d', '\udc00y', '\ude00\ud83d', '😀\udc00']) expect(isSafeText(text)).toBe(false);
  });
});

describe('findUnsafeText', () => {
  it('given clean values of any shape, finds nothing', () => {
    expect(findUnsafeText({ data: { title: 'Mall', layers: [{ id: 'g', name: 'Ground' }], n: 3, ok: true, none: null } })).toBeNull();
    expect(findUnsafeText(undefined)).toBeNull();
  });

  it('names the path of the first unsafe text: in a value, in an array, in an object key', () => {
    expect(findUnsafeText({ data: { title: 'a\u0000' } })).toEqual(['data', 'title']);
    expect(findUnsafeText({ data: { edits: [{ ok: 'x' }, { changes: { about: '\ud800' } }] } })).toEqual(['data', 'edits', 1, 'changes', 'about']);
    expect(findUnsafeText({ data: { 'bad\u0000key': 1 } })).toEqual(['data', 'bad\u0000key']);
    expect(findUnsafeText({ first: '\u0000', second: '\ud800' })).toEqual(['first']);
    expect(findUnsafeText('\u0000')).toEqual([]);
  });

  it('walks objects without a prototype (as query strings are parsed), skips bytes', () => {
    const query = Object.assign(Object.create(null) as Record<string, string>, { q: '\u0000' });
    expect(findUnsafeText(query)).toEqual(['q']);
    expect(findUnsafeText(Buffer.from([0, 0xed, 0xa0, 0x80]))).toBeNull();
  });

  it('survives a body nested far deeper than the call stack, and cycles', () => {
    let deep: unknown = '\u0000';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(findUnsafeText(deep)).toHaveLength(200_000);
    const cyclic: Record<string, unknown> = { name: 'ok' };
    cyclic.self = cyclic;
    expect(findUnsafeText(cyclic)).toBeNull();
  });

  it('property: in any JSON value, one unsafe character put in any string is found at its path', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom('\u0000', '\ud800', '\udfff'), fc.nat(), (value, bad, pick) => {
        expect(findUnsafeText(value)).toBeNull();
        const paths = stringPaths(value);
        if (paths.length === 0) return;
        const path = paths[pick % paths.length]!;
        const poisoned = setAt(structuredClone(value), path, `${getAt(value, path) as string}${bad}`);
        expect(findUnsafeText(poisoned)).toEqual(path);
      }),
      { numRuns: 200 },
    );
  });
});

describe('unsafeTextMessage', () => {
  it('says where, in the style of the other invalid-argument messages, with unsafe keys escaped', () => {
    expect(unsafeTextMessage({ data: { title: 'a\u0000' } })).toBe(`data.title: ${UNSAFE_TEXT_MESSAGE}`);
    expect(unsafeTextMessage({ data: { ['k\ud800']: 1 } })).toBe(`data.k\\ud800: ${UNSAFE_TEXT_MESSAGE}`);
    expect(unsafeTextMessage('\u0000', 'Request body')).toBe(`Request body: ${UNSAFE_TEXT_MESSAGE}`);
    expect(unsafeTextMessage({ title: 'fine' })).toBeNull();
  });
});

describe('withSafeText', () => {
  const Message = withSafeText(z.object({ topic: z.string(), tags: z.array(z.string()).optional() }));

  it('refuses unsafe text anywhere in what the schema keeps, at its path', () => {
    const parsed = Message.safeParse({ topic: 'map:1', tags: ['a', 'b\ud800'] });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues).toEqual([expect.objectContaining({ code: 'custom', message: UNSAFE_TEXT_MESSAGE, path: ['tags', 1] })]);
    expect(unsafeTextIssue(parsed.error!)).toBe(`tags.1: ${UNSAFE_TEXT_MESSAGE}`);
  });

  it('passes clean values unchanged, and keys the schema strips never matter', () => {
    expect(Message.parse({ topic: 'map:1' })).toEqual({ topic: 'map:1' });
    expect(Message.parse({ topic: 'map:1', ['x\u0000']: 1 })).toEqual({ topic: 'map:1' });
  });

  it("leaves other issues to the schema's own messages", () => {
    const parsed = Message.safeParse({ topic: 7 });
    expect(unsafeTextIssue(parsed.error!)).toBeNull();
  });
});

type Path = Array<string | number>;

function stringPaths(value: unknown, path: Path = []): Path[] {
  if (typeof value === 'string') return [path];
  if (Array.isArray(value)) return value.flatMap((item, index) => stringPaths(item, [...path, index]));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => stringPaths(item, [...path, key]));
  return [];
}

function getAt(value: unknown, path: Path): unknown {
  return path.reduce<unknown>((at, key) => (at as Record<string | number, unknown>)[key], value);
}

function setAt(value: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const parent = getAt(value, path.slice(0, -1)) as Record<string | number, unknown>;
  parent[path.at(-1)!] = replacement;
  return value;
}
