/** Which coding a cached public map goes out in, and when it is a 304 (RFC 9110 §12.5.3, §13.1.2). */
import { describe, expect, it } from 'vitest';
import { chooseEncoding, ifNoneMatchMatches } from '../../server/public-maps/http-negotiation.js';

describe('Accept-Encoding', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['GZIP', 'gzip'],
    ['deflate', 'identity'],
    ['gzip;q=1.0, br;q=0.5', 'gzip'],
    ['br;q=0.2, gzip;q=0.8, identity;q=0.1', 'gzip'],
    ['br;q=0, *', 'gzip'],
    ['br;q=0, gzip;q=0', 'identity'],
    ['*', 'br'],
    ['*;q=0.5, gzip', 'gzip'],
    ['identity', 'identity'],
    ['br;q=0.5, identity;q=1', 'identity'],
    ['gzip;q=0.000', 'identity'],
    ['gzip;q=banana', 'identity'],
    ['identity;q=0', null],
    ['*;q=0', null],
    ['br ; q=0.9 , gzip ; q=0.9', 'br'],
  ] as const)('%j gives %j', (header, coding) => {
    expect(chooseEncoding(header)).toBe(coding);
    // The memoised answer is the same.
    expect(chooseEncoding(header)).toBe(coding);
  });
});

describe('If-None-Match', () => {
  const etag = '"m1.42.1"';
  it.each([
    [undefined, false],
    ['"m1.42.1"', true],
    ['W/"m1.42.1"', true],
    ['"other", "m1.42.1"', true],
    ['"other",W/"m1.42.1"', true],
    ['"a,b", "m1.42.1"', true],
    ['*', true],
    [' * ', true],
    ['"m1.42.2"', false],
    ['m1.42.1', false],
    ['"m1.42.1', false],
    ['"other" "m1.42.1"', false],
    ['"m1.42"', false],
  ] as const)('%j matches: %j', (header, matches) => {
    expect(ifNoneMatchMatches(header, etag)).toBe(matches);
  });
});
