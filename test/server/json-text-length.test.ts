/**
 * How a subscription tells whether its read may have stopped at the byte bound
 * (server/event-store/postgres-event-store.ts): the length of an event's data as JSON text,
 * printed only as far as the bound needs (issue 26 item 8: printing a big import's parts whole,
 * once per subscription per read, was the import's costliest JavaScript on PGlite).
 */
import { describe, expect, it } from 'vitest';
import { jsonTextLength } from '../../server/event-store/postgres-event-store.js';

describe('the JSON text length of an event’s data', () => {
  it('is JSON.stringify’s length, whatever the value', () => {
    const values: unknown[] = [
      null,
      0,
      -1.5e-7,
      true,
      '',
      'Café “quoted” \\ \n \u0000 \ud83d\ude00',
      [],
      {},
      [1, 'two', null, [3, [4]], { five: 5 }],
      { 'key "quoted"': 'value', 'ünï': [undefined, null], skipped: undefined, nested: { deeper: [{}, []] } },
      { type: 'ImportApplied', locations: Array.from({ length: 50 }, (_, i) => ({ id: `shop-${i}`, title: `Shop ${i}`, x: i / 50, y: 0.5, groups: [] })) },
      { at: new Date(0) },
    ];
    for (const value of values) expect(jsonTextLength(value, Infinity)).toBe(JSON.stringify(value).length);
  });

  it('stops printing once the text is long enough', () => {
    let read = 0;
    const locations = Array.from({ length: 100_000 }, (_, i) => ({
      get id() {
        read++;
        return `shop-${i}`;
      },
      title: 'A store',
    }));
    const length = jsonTextLength({ type: 'ImportApplied', locations }, 1_000);
    // About thirty locations' worth read, not a hundred thousand.
    expect(read).toBeLessThan(100);
    expect(length).toBeGreaterThanOrEqual(1_000);
    expect(length).toBeLessThan(JSON.stringify({ locations: locations.slice(0, 100) }).length);
    // Under the bound: the exact length.
    expect(jsonTextLength({ small: [1, 2, 3] }, 1_000)).toBe(JSON.stringify({ small: [1, 2, 3] }).length);
  });
});
