/**
 * GET /api/admin/maps (spec §6: an admin loads maps by author instead of by owner) against a
 * real database: each filter, paging with the cursor, bad filters, and who may ask.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MapListItem } from '../../events/read-models.js';
import { databaseTargets } from '../support/databases.js';
import { call, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

interface Page {
  items: MapListItem[];
  next: string | null;
  total: number;
}

describe.each(databaseTargets)('GET /api/admin/maps on $name', (target) => {
  let server: TestServer;
  let ana: TestUser;
  let ben: TestUser;
  let admin: TestUser;
  let unverifiedAdmin: TestUser;
  /** Every map made in beforeAll. */
  const made: { id: string; author: string; title: string; state: number; created: string }[] = [];

  async function make(user: TestUser, title: string): Promise<string> {
    const answer = await call(server, 'createMap', { title }, user);
    expect(answer.status).toBe(200);
    await projected(server, answer.body.position);
    return answer.body.result as string;
  }

  beforeAll(async () => {
    server = await startTestServer(target, { env: { ADMIN_EMAILS: 'admin@example.com,late-admin@example.com' } });
    ana = await registerUser(server);
    ben = await registerUser(server);
    admin = await registerUser(server, 'admin@example.com');
    unverifiedAdmin = await registerUser(server, 'late-admin@example.com', { verified: false });
    const plan: [TestUser, string][] = [
      [ana, 'Harbour Mall'],
      [ana, 'Campus plan'],
      [ben, 'harbour view apartments'],
      [ben, '50% off outlet'],
      ...Array.from({ length: 8 }, (_, i): [TestUser, string] => [admin, `Admin map ${i}`]),
    ];
    const states = [0, 1, 0, 3, 2, 9, 1, 0, 3, 1, 0, 2];
    for (const [i, [user, title]] of plan.entries()) {
      const id = await make(user, title);
      // Deterministic states and creation days, two maps per day (ties broken by id).
      const created = new Date(Date.UTC(2025, 0, 1 + Math.floor(i / 2), 12)).toISOString();
      await server.database.db.query('UPDATE maps_list SET state = $2, created = $3::timestamptz WHERE id = $1', [id, states[i], created]);
      made.push({ id, author: user.uid, title, state: states[i]!, created });
    }
  });
  afterAll(() => server.close());

  /** Newest created first, ties by id descending: the order the query promises. */
  const ordered = (maps: typeof made) =>
    [...maps].sort((a, b) => (a.created === b.created ? (a.id < b.id ? 1 : -1) : a.created < b.created ? 1 : -1)).map((m) => m.id);

  async function get(query: string, user: TestUser | null = admin) {
    const response = await fetch(`${server.url}/api/admin/maps${query ? `?${query}` : ''}`, { headers: user ? { cookie: user.cookie } : {} });
    return { status: response.status, body: (await response.json()) as { result: Page; position: string; error?: { status: string; message: string } } };
  }

  async function ids(query: string) {
    const answer = await get(query);
    expect(answer.status).toBe(200);
    expect(answer.body.result.total).toBe(answer.body.result.items.length);
    return answer.body.result.items.map((item) => item.id);
  }

  it('answers every map, newest first, with the total and the position', async () => {
    const answer = await get('');
    expect(answer.status).toBe(200);
    expect(answer.body.position).toMatch(/^\d+:\d+$/);
    const { items, next, total } = answer.body.result;
    expect(total).toBe(12);
    expect(next).toBeNull();
    expect(items.map((item) => item.id)).toEqual(ordered(made));
    const harbour = items.find((item) => item.title === 'Harbour Mall')!;
    expect(harbour).toEqual({
      id: made[0]!.id,
      title: 'Harbour Mall',
      uid: ana.uid,
      author: ana.uid,
      created: '2025-01-01T12:00:00.000Z',
      edited: expect.any(String),
      state: 0,
      subscribed: false,
      metrics: { layerCount: expect.any(Number), locationCount: 0 },
      history: [],
    });
  });

  it('filters by author, exactly', async () => {
    expect(await ids(`author=${encodeURIComponent(ana.uid)}`)).toEqual(ordered(made.filter((m) => m.author === ana.uid)));
    expect(await ids(`author=${encodeURIComponent(ben.uid)}`)).toEqual(ordered(made.filter((m) => m.author === ben.uid)));
    expect(await ids(`author=${encodeURIComponent(ana.uid.slice(0, -1))}`)).toEqual([]);
  });

  it('filters by title text in any case, with % and _ taken literally', async () => {
    expect(await ids('q=HARBOUR')).toEqual(ordered(made.filter((m) => /harbour/i.test(m.title))));
    expect(await ids('q=50%25')).toEqual([made[3]!.id]);
    expect(await ids('q=%25')).toEqual([made[3]!.id]);
    expect(await ids('q=_')).toEqual([]);
    expect(await ids(`q=map%203&author=${encodeURIComponent(admin.uid)}`)).toEqual([made[7]!.id]);
  });

  it('filters by state, repeated or comma-separated', async () => {
    const expected = ordered(made.filter((m) => m.state === 1 || m.state === 3));
    expect(expected.length).toBe(5);
    expect(await ids('state=1&state=3')).toEqual(expected);
    expect(await ids('state=1,3')).toEqual(expected);
    expect(await ids('state=9')).toEqual([made[5]!.id]);
    expect(await ids('state=4')).toEqual([]);
  });

  it('filters by creation date, both ends included; date-times are exact', async () => {
    const between = (from: string, to: string) => ordered(made.filter((m) => m.created >= from && m.created <= to));
    expect(await ids('from=2025-01-02&to=2025-01-03')).toEqual(between('2025-01-02', '2025-01-03T23:59:59.999Z'));
    expect((await ids('from=2025-01-02&to=2025-01-03')).length).toBe(4);
    expect(await ids('from=2025-01-06')).toEqual(between('2025-01-06', '2026'));
    expect(await ids('to=2025-01-01')).toEqual(between('2000', '2025-01-01T23:59:59.999Z'));
    expect(await ids('from=2025-01-01T12:00:01Z&to=2025-01-02T12:00:00Z')).toEqual(between('2025-01-02', '2025-01-02T12:00:00.000Z'));
    expect(await ids('from=2025-01-02T13:00:00%2B01:00&to=2025-01-02T12:00:00Z')).toEqual(between('2025-01-02', '2025-01-02T12:00:00.000Z'));
  });

  it('combines filters', async () => {
    expect(await ids(`author=${encodeURIComponent(admin.uid)}&state=0,1&from=2025-01-04`)).toEqual(
      ordered(made.filter((m) => m.author === admin.uid && (m.state === 0 || m.state === 1) && m.created >= '2025-01-04')),
    );
  });

  it('pages through every map with the cursor: no duplicates, no gaps', async () => {
    for (const limit of [1, 2, 5, 11, 12]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const answer = await get(`limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
        expect(answer.status).toBe(200);
        expect(answer.body.result.total).toBe(12);
        expect(answer.body.result.items.length).toBeLessThanOrEqual(limit);
        seen.push(...answer.body.result.items.map((item) => item.id));
        cursor = answer.body.result.next;
        if (cursor) expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
        pages++;
      } while (cursor && pages < 20);
      expect(seen).toEqual(ordered(made));
      expect(pages).toBe(Math.ceil(12 / limit));
    }
  });

  it('pages through a filtered list, the cursor keeping the filter', async () => {
    const first = await get('state=0&limit=2');
    expect(first.body.result.total).toBe(4);
    const second = await get(`state=0&limit=2&cursor=${first.body.result.next}`);
    expect(second.body.result.next).toBeNull();
    expect([...first.body.result.items, ...second.body.result.items].map((item) => item.id)).toEqual(ordered(made.filter((m) => m.state === 0)));
  });

  it('defaults to 25 per page', async () => {
    for (let i = 0; i < 14; i++) await make(admin, `Bulk ${i}`);
    const answer = await get(`q=bulk`);
    expect(answer.body.result.total).toBe(14);
    const all = await get('');
    expect(all.body.result.total).toBe(26);
    expect(all.body.result.items).toHaveLength(25);
    expect(all.body.result.next).not.toBeNull();
    const rest = await get(`cursor=${all.body.result.next}`);
    expect(rest.body.result.items).toHaveLength(1);
    expect(rest.body.result.next).toBeNull();
    expect(new Set([...all.body.result.items, ...rest.body.result.items].map((item) => item.id)).size).toBe(26);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=ten', 'limit'],
    ['limit=1.5', 'limit'],
    ['limit=5&limit=6', 'limit'],
    ['state=live', 'state'],
    ['state=1,', 'state'],
    ['state=1.5', 'state'],
    ['from=2025-13-01', 'from'],
    ['from=yesterday', 'from'],
    ['to=2025-02-30', 'to'],
    ['from=2025-02-02&to=2025-02-01', 'to'],
    ['cursor=not-a-cursor', 'cursor'],
    [`cursor=${Buffer.from('{"created":"x","id":"y"}').toString('base64url')}`, 'cursor'],
    ['cursor=%2F%2F', 'cursor'],
    ['author=', 'author'],
    ['author=a&author=b', 'author'],
    [`q=${'x'.repeat(201)}`, 'q'],
    ['owner=abc', 'owner'],
  ])('refuses %s as invalid-argument naming %s', async (query, field) => {
    const answer = await get(query);
    expect(answer.status).toBe(400);
    expect(answer.body.error!.status).toBe('INVALID_ARGUMENT');
    expect(answer.body.error!.message).toMatch(new RegExp(`^${field}\\b`));
  });

  it('refuses a signed-out caller with 401', async () => {
    const answer = await get('', null);
    expect(answer.status).toBe(401);
    expect(answer.body.error).toEqual({ status: 'UNAUTHENTICATED', message: 'Unauthenticated' });
  });

  it("refuses a normal user with 403, whoever's maps they ask for, and shows them nothing", async () => {
    for (const query of ['', `author=${encodeURIComponent(ben.uid)}`, `author=${encodeURIComponent(ana.uid)}`, 'limit=0']) {
      const answer = await get(query, ana);
      expect(answer.status).toBe(403);
      expect(answer.body.error!.status).toBe('PERMISSION_DENIED');
      expect(answer.body).not.toHaveProperty('result');
    }
  });

  it('refuses an admin whose address is not verified yet with 403 (the claim waits for the proof)', async () => {
    const answer = await get('', unverifiedAdmin);
    expect(answer.status).toBe(403);
    expect(answer.body.error!.message).toBe('Only admins may query every map.');
  });

  it('answers only GET', async () => {
    const response = await fetch(`${server.url}/api/admin/maps`, { method: 'POST', headers: { cookie: admin.cookie, 'content-type': 'application/json' }, body: '{}' });
    expect(response.status).toBe(404);
  });
});
