/**
 * The insights CSV after a beacon flood (issue 26 item 8): a map whose read model holds more
 * rows than one CSV may (made-up searches by the hundred thousand) gets its CSV in pages, cut
 * at CSV_ROWS_MAX rows with a last line saying so, and the pages together are every row once,
 * in the table's order, whatever the page size.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSV_ROWS_MAX, insightsCsv } from '../../server/insights/insights-report.js';
import { databaseTargets } from '../support/databases.js';
import { createMapAs, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

const DAY = '2026-03-02';

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
});
