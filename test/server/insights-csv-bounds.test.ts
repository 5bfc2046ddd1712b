/**
 * The insights CSV after a beacon flood (issue 26 item 8): a map whose read model holds more
 * rows than one CSV may (made-up searches by the hundred thousand) gets its CSV in pages, cut
 * at CSV_ROWS_MAX rows with a last line saying so, and the pages together are every row once,
 * in the table's order, whatever the page size. The report (totals, top lists) is added up
 * from the same kind of pages, other requests answered between them (checked by the order of
 * the queries, not by a clock), and is what one GROUP BY per list gave, ties included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultRegionStyles, defaultSettings } from '../../events/map-document.js';
import { emptyPathNetwork } from '../../events/path-network.js';
import type { Queryable } from '../../ports/database.js';
import { CSV_ROWS_MAX, insightsCsv, insightsReport } from '../../server/insights/insights-report.js';
import { databaseTargets } from '../support/databases.js';
import { interleavingProbe } from '../support/interleaving-probe.js';
import { createMapAs, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

const DAY = '2026-03-02';
const readsRange = (sql: string) => sql.includes('FROM map_insights');

/** A map with these locations (id and title), in this order. */
function documentWith(locations: Array<[string, string]>) {
  return {
    version: 3,
    settings: { ...defaultSettings(), defaultLayer: 'ground' },
    layers: [{ id: 'ground', name: 'Ground floor', file: null }],
    locations: locations.map(([id, title], i) => ({ id, title, layer: 'ground', x: i / locations.length, y: 0.5, groups: [] })),
    groups: [],
    styles: { regions: defaultRegionStyles() },
    paths: emptyPathNetwork(),
  };
}

/** The top lists as the report's one GROUP BY per list ordered them before it was paged. */
async function groupedTopLists(db: Queryable, mapId: string, from: string, to: string) {
  const keys = (kind: string) =>
    db
      .query<{ key: string; count: string }>(
        `SELECT key, sum(count)::text AS count FROM map_insights WHERE map_id = $1 AND day BETWEEN $2::date AND $3::date AND kind = $4
          GROUP BY key ORDER BY sum(count) DESC, key LIMIT 10`,
        [mapId, from, to, kind],
      )
      .then(({ rows }) => rows.map((row) => ({ text: row.key, count: Number(row.count) })));
  const locations = (kind: string) =>
    db
      .query<{ id: string; title: string; count: string }>(
        `SELECT i.key AS id, l.data->>'title' AS title, sum(i.count)::text AS count
           FROM map_insights i JOIN map_locations l ON l.map_id = i.map_id AND l.id = i.key
          WHERE i.map_id = $1 AND i.day BETWEEN $2::date AND $3::date AND i.kind = $4
          GROUP BY i.key, l.data->>'title' ORDER BY sum(i.count) DESC, l.data->>'title', i.key LIMIT 10`,
        [mapId, from, to, kind],
      )
      .then(({ rows }) => rows.map((row) => ({ id: row.id, title: row.title, count: Number(row.count) })));
  return {
    topLocations: await locations('open'),
    topDirections: await locations('directions'),
    topSearches: await keys('search'),
    searchesWithoutResults: await keys('search_miss'),
  };
}

async function collect(lines: AsyncIterable<string>): Promise<string[]> {
  let text = '';
  for await (const part of lines) text += part;
  return text.replace(/^\uFEFF/, '').trim().split('\r\n');
}

describe.each(databaseTargets)('the insights CSV after a flood, on $name', { timeout: 180_000 }, (target) => {
  let server: TestServer;
  let owner: TestUser;
  let mapId: string;

  beforeAll(async () => {
    server = await startTestServer(target);
    owner = await registerUser(server);
    mapId = await createMapAs(server, owner, 'Flooded');
    // What a flood leaves: a few hundred thousand searches nobody made, over two days, and a view count.
    await server.database.db.query(
      `INSERT INTO map_insights (map_id, day, kind, key, count)
       SELECT $1, $2::date + (n % 2), 'search', 'made up ' || n, 1 + n % 7 FROM generate_series(1, $3::int) AS n`,
      [mapId, DAY, CSV_ROWS_MAX + 500],
    );
    await server.database.db.query(`INSERT INTO map_insights (map_id, day, kind, key, count) VALUES ($1, $2::date, 'view', '', 42)`, [mapId, DAY]);
  });
  afterAll(() => server?.close());

  it('stops at CSV_ROWS_MAX rows and says so on its last line', async () => {
    const response = await fetch(`${server.url}/api/maps/${mapId}/insights?from=${DAY}&to=2026-03-03&format=csv`, { headers: { cookie: owner.cookie } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (await response.text()).replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('day,metric,item,title,count');
    expect(lines).toHaveLength(1 + CSV_ROWS_MAX + 1);
    expect(lines.at(-1)).toBe(',note,"The report stops at 100,000 rows: choose fewer days (from, to) for the rest.",,');
    expect(lines).toContain(`${DAY},search,made up 2,,3`);
  });

  it('reads every row once, in order, whatever the page size', async () => {
    const whole = await collect(insightsCsv(server.database.db, mapId, DAY, DAY, { maxRows: 1_000, pageRows: 1_000 }));
    const paged = await collect(insightsCsv(server.database.db, mapId, DAY, DAY, { maxRows: 1_000, pageRows: 7 }));
    expect(paged).toEqual(whole);
    expect(whole).toHaveLength(1 + 1_000 + 1);
    const rows = whole.slice(1, -1);
    expect(new Set(rows).size).toBe(rows.length);
    // Day, metric, then item: the first thousand are that day's searches, in the key's order.
    expect(rows.every((line) => line.startsWith(`${DAY},search,made up `))).toBe(true);
    const short = await collect(insightsCsv(server.database.db, mapId, '2026-01-01', '2026-01-31', { pageRows: 7 }));
    expect(short).toEqual(['day,metric,item,title,count']);
  });

  it('adds the report up from pages, answering another request between them', async () => {
    const db = server.database.db;
    const probe = interleavingProbe(db, readsRange);
    const report = await insightsReport(probe.db, mapId, DAY, '2026-03-03');
    await probe.settled();
    const { order } = probe;
    expect(report.totals).toEqual({ views: 42, searches: Number((await db.query<{ sum: string }>(`SELECT sum(count)::text AS sum FROM map_insights WHERE map_id = $1 AND kind = 'search'`, [mapId])).rows[0]!.sum), searchesWithoutResults: 0, opens: 0, directions: 0 });
    expect(report.days).toEqual([{ day: DAY, views: 42 }, { day: '2026-03-03', views: 0 }]);
    expect(report.topSearches).toEqual((await groupedTopLists(db, mapId, DAY, '2026-03-03')).topSearches);
    // Many pages (the flood's 100,500 rows), and the other request answered before the last.
    expect(order.filter((entry) => entry === 'page read').length).toBeGreaterThan(10);
    expect(order.indexOf('other answered')).toBeLessThan(order.lastIndexOf('page read'));
  });

  it('lists what one GROUP BY per list gave, ties in its order, whatever the page size', async () => {
    const titles: Array<[string, string]> = [
      ['cafe', 'Café Noir'],
      ['shoes', 'Shoe Palace'],
      ['books', 'Books'],
      ['zeta', 'Alpha'],
      ['alpha', 'Alpha'],
      ['10', 'Ten'],
      ['-99', 'Minus'],
      ...Array.from({ length: 30 }, (_, i): [string, string] => [`shop-${i}`, `Shop ${i % 4}`]),
    ];
    const tied = await createMapAs(server, owner, 'Ties', documentWith(titles));
    // Counts spread over three days, many tied: searches of every kind of text, opens of
    // locations on the map and of ids that are not (never listed), directions likewise.
    await server.database.db.query(
      `INSERT INTO map_insights (map_id, day, kind, key, count)
       SELECT $1, $2::date + (n % 3), 'search', (ARRAY['café', 'Café', 'toilets', 'Zoo', 'zoo', '10', '-99', 'ünï', '日本', 'a b'])[1 + n % 10] || (n % 7), 1 + n % 3
         FROM generate_series(1, 200) AS n
       UNION ALL SELECT $1, $2::date + (n % 3), 'search_miss', 'miss ' || (n % 25), 2 FROM generate_series(1, 150) AS n
       UNION ALL SELECT $1, $2::date + (n % 3), 'open', (ARRAY['cafe', 'shoes', 'books', 'zeta', 'alpha', '10', '-99', 'made-up', 'gone'])[1 + n % 9], 1 + n % 2 FROM generate_series(1, 90) AS n
       UNION ALL SELECT $1, $2::date + (n % 3), 'open', 'shop-' || (n % 30), 3 FROM generate_series(1, 60) AS n
       UNION ALL SELECT $1, $2::date + (n % 3), 'open', 'ghost-' || n, 50 FROM generate_series(1, 40) AS n
       UNION ALL SELECT $1, $2::date + (n % 3), 'directions', 'shop-' || (n % 30), 1 FROM generate_series(1, 30) AS n
       UNION ALL SELECT $1, $2::date + n, 'view', '', n FROM generate_series(0, 2) AS n
       ON CONFLICT DO NOTHING`,
      [tied, DAY],
    );
    const db = server.database.db;
    const expected = await groupedTopLists(db, tied, DAY, '2026-03-04');
    expect(expected.topLocations).toHaveLength(10);
    expect(expected.topSearches).toHaveLength(10);
    const whole = await insightsReport(db, tied, DAY, '2026-03-04');
    const paged = await insightsReport(db, tied, DAY, '2026-03-04', { pageRows: 7, orderRows: 3 });
    for (const report of [whole, paged]) {
      expect({ topLocations: report.topLocations, topDirections: report.topDirections, topSearches: report.topSearches, searchesWithoutResults: report.searchesWithoutResults }).toEqual(expected);
      expect(report.days).toEqual([{ day: DAY, views: 0 }, { day: '2026-03-03', views: 1 }, { day: '2026-03-04', views: 2 }]);
    }
    expect(paged).toEqual(whole);
  });
});
