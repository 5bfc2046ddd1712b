/** server/lru-of-at-most.ts: bounded by a count, as lru-cache's `max` is, without preallocating for it. */
import { describe, expect, it } from 'vitest';
import { lruOfAtMost } from '../../server/lru-of-at-most.js';

describe('an LRU of at most n entries', () => {
  it('keeps at most n, dropping the least recently used past it', () => {
    const cache = lruOfAtMost<string, number>(3);
    for (const key of ['a', 'b', 'c']) cache.set(key, 1);
    cache.get('a');
    cache.set('d', 2);
    expect(cache.size).toBe(3);
    expect([...cache.keys()].sort()).toEqual(['a', 'c', 'd']);
    // Setting a key it holds replaces the value and keeps the count.
    cache.set('c', 3);
    expect(cache.size).toBe(3);
    expect(cache.get('c')).toBe(3);
  });

  it('takes the other options, a ttl among them', () => {
    let now = 5_000;
    const cache = lruOfAtMost<string, true>(10, { ttl: 1_000, ttlResolution: 0, perf: { now: () => now } });
    cache.set('gone', true);
    now = 6_001;
    expect(cache.has('gone')).toBe(false);
  });

  it('still holds n entries at 100,000, each counted once whatever its value', () => {
    const cache = lruOfAtMost<number, { window: number; count: number }>(100_000);
    for (let key = 0; key < 100_500; key++) cache.set(key, { window: 0, count: key });
    expect(cache.size).toBe(100_000);
    expect(cache.has(499)).toBe(false);
    expect(cache.has(500)).toBe(true);
  });
});
