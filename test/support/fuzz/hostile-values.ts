/**
 * What a careless or hostile client sends, as fast-check arbitraries: texts with NUL and lone
 * surrogates, huge and odd numbers, prototype keys, deep nesting, broken JSON and wrong media
 * types. Shared by the fuzz suites (test/server/fuzz-*.test.ts).
 */
import fc from 'fast-check';

/** The text with each unpaired surrogate replaced (what a URL or header can carry). */
export function wellFormed(text: string): string {
  return text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

/** Any UTF-16 code unit, NUL and lone surrogates included. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));

export const hostileText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'Map\u0000title',
    '\ud800',
    'a\udfffb',
    '\ud83d',
    '__proto__',
    'constructor',
    '../../../etc/passwd',
    '%00',
    "'; DROP TABLE es_events; --",
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    'javascript:alert(1)',
    '\u202eevil',
    '🗺️ Ünïcödé 地图',
    '\r\n\t',
    'null',
    '1e309',
  ),
  fc.string({ unit: codeUnit, maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.integer({ min: 1_000, max: 70_000 }).map((n) => 'x'.repeat(n)),
);

export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(0, -0, -1, 1, 0.5, 1e308, -1e308, 2 ** 53, 2 ** 64, 1e-300, 1000, 1001),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', 'data', 'id', 'mapId', 'uid', 'admin', '') },
  { weight: 1, arbitrary: hostileText.filter((text) => text.length < 200) },
);

/** Any JSON-shaped value, with hostile leaves and keys. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileText,
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(hostileKey, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** Every path to a value inside `value` (the root is the empty path). */
function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const paths = [prefix];
  if (Array.isArray(value)) value.forEach((item, index) => paths.push(...pathsOf(item, [...prefix, index])));
  else if (value && typeof value === 'object') for (const [key, item] of Object.entries(value)) paths.push(...pathsOf(item, [...prefix, key]));
  return paths;
}

function structuredCopy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Texts that break a database that stores text: NUL, or half of a surrogate pair, inside otherwise normal text. */
export const poisonText: fc.Arbitrary<string> = fc
  .tuple(fc.string({ maxLength: 10 }), fc.constantFrom('\u0000', '\ud800', '\udfff', '\ud83d'), fc.string({ maxLength: 10 }))
  .map(([before, poison, after]) => before + poison + after);

/**
 * A valid payload with one thing wrong: a value replaced by a hostile one, a field dropped, a
 * hostile key added, or one of its texts poisoned. Most of the payload still passes validation,
 * so the hostile part reaches deep into the handler instead of stopping at the first check.
 */
export function mutated(template: unknown): fc.Arbitrary<unknown> {
  const paths = pathsOf(template);
  const textPaths = paths.filter((path) => typeof valueAt(template, path) === 'string');
  const structural = fc
    .record({ at: fc.nat({ max: paths.length - 1 }), action: fc.constantFrom('replace', 'replace', 'remove', 'add-key'), value: hostileValue, key: hostileKey })
    .map(({ at, action, value, key }) => {
      const path = paths[at]!;
      if (path.length === 0) return action === 'replace' ? value : template;
      const copy = structuredCopy(template) as Record<string | number, unknown>;
      const parent = valueAt(copy, path.slice(0, -1)) as Record<string | number, unknown>;
      const last = path[path.length - 1]!;
      if (action === 'replace') parent[last] = value;
      else if (action === 'remove') {
        if (Array.isArray(parent)) parent.splice(Number(last), 1);
        else delete parent[last];
      } else {
        const target = parent[last];
        // An own property named like a prototype key, as JSON.parse would make it.
        if (target && typeof target === 'object' && !Array.isArray(target)) Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true });
        else parent[last] = value;
      }
      return copy;
    });
  if (textPaths.length === 0) return structural;
  const textual = fc
    .record({ at: fc.nat({ max: textPaths.length - 1 }), text: fc.oneof(poisonText, hostileText) })
    .map(({ at, text }) => {
      const path = textPaths[at]!;
      const copy = structuredCopy(template);
      const parent = valueAt(copy, path.slice(0, -1)) as Record<string | number, unknown>;
      parent[path[path.length - 1]!] = text;
      return copy;
    });
  return fc.oneof(structural, textual);
}

function valueAt(value: unknown, path: readonly (string | number)[]): unknown {
  return path.reduce<unknown>((node, step) => (node as Record<string | number, unknown>)[step], value);
}

/** Nesting deeper than any schema expects, as raw JSON (too deep for recursion to be safe). */
export const deepJson: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 100, max: 20_000 }), fc.boolean())
  .map(([depth, arrays]) => (arrays ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)));

/** Request bodies that are not the JSON a route expects. */
export const brokenBody: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    'null',
    '[]',
    '"data"',
    '42',
    '{',
    '{"data":',
    '{"data":{}}trailing',
    '{"data":undefined}',
    "{'data':{}}",
    '{"__proto__":{"polluted":"yes"},"data":{}}',
    '{"data":{"__proto__":{"polluted":"yes"}}}',
    '{"constructor":{"prototype":{"polluted":"yes"}},"data":{}}',
    '{"data":{"constructor":{"prototype":{"polluted":"yes"}}}}',
    '{"data":"\\u0000"}',
    '{"data":{"title":"\\ud800"}}',
    '\u0000',
    '\ufeff{"data":{}}',
  ),
  fc.string({ unit: codeUnit, maxLength: 60 }),
  deepJson,
  deepJson.map((deep) => `{"data":${deep}}`),
  fc.json(),
);

/** Content types a careless client sends (undefined: none at all). */
export const contentType: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 6, arbitrary: fc.constant('application/json') },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      undefined,
      'application/json; charset=utf-8',
      'application/json; charset=utf-16',
      'APPLICATION/JSON',
      'text/plain',
      'text/html',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=----x',
      'application/octet-stream',
      'image/svg+xml',
      'application/json, text/plain',
      '',
    ),
  },
);

/** A value for a URL parameter or query string (already percent-encoded where it must be). */
export const hostileParam: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('%00', '%ff', '%', '%2e%2e%2f%2e%2e%2fetc%2fpasswd', '..', '__proto__', 'constructor', '0', '-1', '99999999999999999999999', 'a'.repeat(3000), '%F0%9F%97%BA', '%ED%A0%80'),
  hostileText.filter((text) => text.length < 3000).map((text) => encodeURIComponent(wellFormed(text))),
);
