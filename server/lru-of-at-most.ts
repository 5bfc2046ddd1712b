/**
 * An LRU cache that keeps at most `count` entries without allocating room for all of them at
 * start. lru-cache's `max` preallocates its lists for `max` entries: at 100,000, 14 ms and
 * 1.7 MB per cache before the first entry, and each server makes several (the limiters, the
 * public map cache's languages), which an idle server or each test server paid for nothing.
 * Bounded by `maxSize` with every entry counting 1, the lists grow with what is kept instead,
 * and the least recently used entry is dropped past `count` as with `max`.
 */
import { LRUCache } from 'lru-cache';

/** What lru-cache accepts as a key or a value (any value but null and undefined). */
type Kept = NonNullable<unknown>;
type Options<K extends Kept, V extends Kept> = Omit<LRUCache.Options<K, V, unknown>, 'max' | 'maxSize' | 'sizeCalculation'>;

export function lruOfAtMost<K extends Kept, V extends Kept>(count: number, options: Options<K, V> = {}): LRUCache<K, V> {
  return new LRUCache<K, V>({ ...options, maxSize: count, sizeCalculation: () => 1 } as LRUCache.Options<K, V, unknown>);
}
