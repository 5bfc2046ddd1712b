/**
 * The plain comparison server of the public read bench answers like the real one only if it
 * picks the same encoding and 304s the same If-None-Match (bench/negotiation.ts).
 */
import { describe, expect, it } from 'vitest';
import { acceptedEncodings, chooseEncoding, etagMatches } from '../../bench/negotiation.js';

describe('chooseEncoding', () => {
  const available = ['br', 'gzip', 'identity'];

  it('takes the server’s first preference among what the browser accepts', () => {
    expect(chooseEncoding('gzip, deflate, br, zstd', available)).toBe('br');
    expect(chooseEncoding('br, gzip', ['gzip', 'br', 'identity'])).toBe('gzip');
    expect(chooseEncoding('gzip', available)).toBe('gzip');
  });

  it('sends identity without a header, or when nothing stored is accepted', () => {
    expect(chooseEncoding(undefined, available)).toBe('identity');
    expect(chooseEncoding('', available)).toBe('identity');
    expect(chooseEncoding('deflate, zstd', available)).toBe('identity');
    expect(chooseEncoding('br', ['identity'])).toBe('identity');
  });

  it('honours q=0 and the wildcard', () => {
    expect(chooseEncoding('br;q=0, gzip;q=0.5', available)).toBe('gzip');
    expect(chooseEncoding('*', available)).toBe('br');
    expect(chooseEncoding('br;q=0, *;q=0.1', available)).toBe('gzip');
    expect(chooseEncoding('*;q=0', available)).toBe('identity');
  });

  it('reads weights case-insensitively and with spaces', () => {
    expect([...acceptedEncodings('GZip ; q=0.3 , BR')]).toEqual([['gzip', 0.3], ['br', 1]]);
  });
});

describe('etagMatches', () => {
  it('matches the tag, one of a list, weak forms and *', () => {
    expect(etagMatches('"demo.3.2"', '"demo.3.2"')).toBe(true);
    expect(etagMatches('"a", "demo.3.2"', '"demo.3.2"')).toBe(true);
    expect(etagMatches('W/"demo.3.2"', '"demo.3.2"')).toBe(true);
    expect(etagMatches('*', '"demo.3.2"')).toBe(true);
  });

  it('does not match another revision or no header', () => {
    expect(etagMatches('"demo.2.2"', '"demo.3.2"')).toBe(false);
    expect(etagMatches(undefined, '"demo.3.2"')).toBe(false);
    expect(etagMatches('demo.3.2', '"demo.3.2"')).toBe(false);
  });
});
