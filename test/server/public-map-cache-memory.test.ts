/**
 * The published-map cache on its own, over a database that only answers its one query: the
 * LRU is bounded by bytes, loads of one map share a query, and a notice during a load keeps
 * the load from storing what it read before (the race guard). The HTTP side and real
 * databases: public-map-cache.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LIVE_CHANNEL } from '../../projections/live-notices.js';
import type { NotificationHandler, QueryResult } from '../../ports/database.js';
import { PublicMapCache, type PublicMapRow as Row } from '../../server/public-maps/public-map-cache.js';

function fakeDatabase() {
  const rows = new Map<string, Row>();
  const handlers: NotificationHandler[] = [];
  let gate: Promise<void> | null = null;
  const db = {
    queries: 0,
    rows,
    /** Queries wait until the returned function is called. */
    hold(): () => void {
      let release!: () => void;
      gate = new Promise((resolve) => (release = resolve));
      return () => {
        gate = null;
        release();
      };
    },
    notify(projection: string, topics: string[]) {
      for (const handler of handlers) handler(JSON.stringify({ projection, position: '1:1', topics }));
    },
    async query<T>(_sql: string, params: readonly unknown[] = []): Promise<QueryResult<T>> {
      db.queries++;
      // The row is read when the query runs: what a notice changes meanwhile is not seen.
      const row = rows.get(String(params[0]));
      const snapshot = row ? { ...row } : null;
      if (gate) await gate;
      return { rows: (snapshot ? [snapshot] : []) as T[], rowCount: snapshot ? 1 : 0 };
    },
    async listen(channel: string, handler: NotificationHandler) {
      expect(channel).toBe(LIVE_CHANNEL);
      handlers.push(handler);
      return async () => {};
    },
  };
  return db;
}

const renderer = { render: async (map: { title: string }) => `<html>${map.title}</html>`, shell: async () => '<html>shell</html>' };
const quiet = { warn: () => {} };

/** A row as the cache's query answers it: the document's rest, its locations and its paths apart (projections/map-data.ts). */
function publishedMap(id: string, revision: string, payload = 'x') {
  return { id, title: `Map ${id}`, data: { version: 2, payload }, locations: null, paths: '{"points":[]}', revision, state: 1 };
}

describe('the published-map cache', () => {
  it('keeps maps up to its bound in bytes (every encoding counted), dropping the least recently read', async () => {
    const db = fakeDatabase();
    // Random text barely compresses: each map costs about three times its JSON.
    const payload = () => randomBytes(60 * 1024).toString('base64');
    for (const id of ['a', 'b', 'c']) db.rows.set(id, publishedMap(id, '1', payload()));
    const probe = new PublicMapCache({ db, maxBytes: 64 * 1024 * 1024, renderer, logger: quiet });
    await probe.json('a');
    const oneMap = probe.stats.bytes;
    expect(oneMap).toBeGreaterThan(2 * 80 * 1024);

    const cache = new PublicMapCache({ db, maxBytes: Math.floor(oneMap * 2.5), renderer, logger: quiet });
    await cache.json('a');
    await cache.json('b');
    await cache.json('a'); // now b is the least recently read
    await cache.json('c');
    expect(cache.has('json', 'b')).toBe(false);
    expect(cache.has('json', 'a')).toBe(true);
    expect(cache.has('json', 'c')).toBe(true);
    expect(cache.stats.bytes).toBeLessThanOrEqual(Math.floor(oneMap * 2.5));
    const before = db.queries;
    expect((await cache.json('a')).kind).toBe('published');
    expect(db.queries).toBe(before);
    await cache.json('b');
    expect(db.queries).toBe(before + 1);
  });

  it('reads a map once for a burst of requests', async () => {
    const db = fakeDatabase();
    db.rows.set('m', publishedMap('m', '3'));
    const cache = new PublicMapCache({ db, maxBytes: 1024 * 1024, renderer, logger: quiet });
    const release = db.hold();
    const answers = Promise.all([cache.json('m'), cache.json('m'), cache.json('m')]);
    release();
    for (const answer of await answers) expect(answer.kind).toBe('published');
    expect(db.queries).toBe(1);
  });

  it('does not keep what a load read before a notice that came during it', async () => {
    const db = fakeDatabase();
    db.rows.set('m', publishedMap('m', '3'));
    const cache = new PublicMapCache({ db, maxBytes: 1024 * 1024, renderer, logger: quiet });
    await cache.start();

    const release = db.hold();
    const early = cache.json('m');
    // The map changes and its projection says so while the load's query is out.
    db.rows.set('m', { ...publishedMap('m', '4'), title: 'Renamed' });
    db.notify('map_data', ['map:m']);
    release();

    // The early request gets what it read (a read from just before the change), but it is not kept...
    const first = await early;
    expect(first.kind === 'published' && first.body.etag).toBe('"v1.m.3.1"');
    expect(cache.has('json', 'm')).toBe(false);
    // ...so the next request reads the map as it is now.
    const kept = await cache.json('m');
    expect(kept.kind === 'published' && kept.body.etag).toBe('"v1.m.4.1"');
    expect(cache.has('json', 'm')).toBe(true);
    expect(db.queries).toBe(2);
  });

  it('forgets an unknown map when it is created, even while a load of it was out', async () => {
    const db = fakeDatabase();
    const cache = new PublicMapCache({ db, maxBytes: 1024 * 1024, renderer, logger: quiet });
    await cache.start();
    expect((await cache.json('new')).kind).toBe('absent');
    expect((await cache.json('new')).kind).toBe('absent');
    expect(db.queries).toBe(1);

    db.rows.set('new', publishedMap('new', '0'));
    db.notify('maps_list', ['maps:owner', 'map:new']);
    expect((await cache.json('new')).kind).toBe('published');

    // Deleted during a load that still saw it: the deletion is what is kept.
    const release = db.hold();
    db.notify('map_data', ['map:new']);
    const during = cache.json('new');
    db.rows.delete('new');
    db.notify('map_data', ['map:new']);
    release();
    expect((await during).kind).toBe('published');
    expect(cache.has('json', 'new')).toBe(false);
    expect((await cache.json('new')).kind).toBe('absent');
  });

  it('never keeps a test map, and drops a map that became one', async () => {
    const db = fakeDatabase();
    db.rows.set('t', { ...publishedMap('t', '1'), state: 0 });
    const cache = new PublicMapCache({ db, maxBytes: 1024 * 1024, renderer, logger: quiet });
    await cache.start();
    expect((await cache.json('t')).kind).toBe('test');
    expect((await cache.page('t')).kind).toBe('test');
    expect(cache.stats.entries).toBe(0);

    db.rows.set('p', publishedMap('p', '1'));
    expect((await cache.page('p')).kind).toBe('published');
    expect(cache.has('html', 'p')).toBe(true);
    db.rows.set('p', { ...publishedMap('p', '2'), state: 0 });
    db.notify('maps_list', ['map:p']);
    expect(cache.has('html', 'p')).toBe(false);
    expect((await cache.page('p')).kind).toBe('test');
  });
});
