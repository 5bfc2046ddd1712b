/**
 * An import's events are bounded in count and in size (events/import-planner.ts importChunks):
 * 5,000 items at most, and at most IMPORT_CHUNK_CHARACTERS of JSON, so long descriptions make
 * more, smaller events and none reaches an event store's limit (KurrentDB: 16 MB).
 */
import { describe, expect, it } from 'vitest';
import { importChunks } from '../../events/import-planner.js';
import { IMPORT_CHUNK, IMPORT_CHUNK_CHARACTERS } from '../../events/map-edits.js';

describe('importChunks', () => {
  it('cuts small items by count', () => {
    const items = Array.from({ length: 12_000 }, (_, i) => ({ id: `S${i}` }));
    expect(importChunks(items).map((chunk) => chunk.length)).toEqual([IMPORT_CHUNK, IMPORT_CHUNK, 2_000]);
  });
  it('cuts big items by size, every item kept in order', () => {
    const items = Array.from({ length: 5_000 }, (_, i) => ({ id: `S${i}`, description: 'x'.repeat(20_000) }));
    const chunks = importChunks(items);
    expect(chunks.length).toBeGreaterThan(20);
    for (const chunk of chunks) expect(JSON.stringify(chunk).length).toBeLessThanOrEqual(IMPORT_CHUNK_CHARACTERS + chunk.length);
    expect(chunks.flat()).toEqual(items);
  });
  it('gives nothing for nothing', () => {
    expect(importChunks([])).toEqual([]);
  });
});
