/**
 * Per-account limits on the callable functions (issue 26 item 8): one account's calls beyond
 * the limit answer resource-exhausted (429) with the RateLimit headers and Retry-After, while
 * another account carries on. The count is kept in the process's memory, not written to the
 * database on every call (issue 26 item 5); the limits that guard secrets stay in the database's
 * rate_limits, an unlogged table (no disk flush per attempt).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FUNCTION_CALLS_TOO_MANY } from '../../server/security/function-call-limits.js';
import { databaseTargets } from '../support/databases.js';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

const LIMIT = { max: 5, windowMs: 86_400_000 };

describe.each(databaseTargets)('function call limits on $name', (target) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(target, { functionCallLimit: LIMIT });
  });
  afterAll(() => server?.close());

  const createMap = (user: TestUser, title: string) =>
    fetch(`${server.url}/api/fn/createMap`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: user.cookie },
      body: JSON.stringify({ data: { title } }),
    });

  it('answers the RateLimit headers, then 429 with Retry-After past the limit; another account carries on', async () => {
    // Given two accounts
    const busy = await registerUser(server);
    const other = await registerUser(server);

    // When one calls functions up to its limit (a map, then calls its payload check refuses:
    // they count too, the limit comes before the payload is read), each answer says what is left
    for (let i = 1; i <= LIMIT.max; i++) {
      const answer = i === 1 ? await createMap(busy, 'Mine') : await createMap(busy, '');
      expect(answer.status).toBe(i === 1 ? 200 : 400);
      expect(answer.headers.get('ratelimit-limit')).toBe(String(LIMIT.max));
      expect(answer.headers.get('ratelimit-remaining')).toBe(String(LIMIT.max - i));
      expect(Number(answer.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
      expect(answer.headers.get('ratelimit-policy')).toBe(`${LIMIT.max};w=86400`);
    }

    // Then the next is refused in the catalogue's shape, with when to come back
    const refused = await createMap(busy, 'Second');
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: { status: 'RESOURCE_EXHAUSTED', message: FUNCTION_CALLS_TOO_MANY } });
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);

    // And another account is not held back by it
    expect((await createMap(other, 'Theirs')).status).toBe(200);
  });

  it('counts calls without writing to the database; the limits kept there are in an unlogged table', async () => {
    const user = await registerUser(server);
    expect((await createMap(user, 'Counted')).status).toBe(200);
    const { rows } = await server.database.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM rate_limits WHERE key LIKE 'fn:%'`);
    expect(rows[0]!.n).toBe(0);
    const table = await server.database.db.query<{ relpersistence: string }>(`SELECT relpersistence FROM pg_class WHERE oid = to_regclass('rate_limits')`);
    expect(table.rows[0]!.relpersistence).toBe('u');
  });

  it('leaves a signed-out call to the route: 401, not counted', async () => {
    const answer = await fetch(`${server.url}/api/fn/createMap`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: { title: 'x' } }) });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('ratelimit-limit')).toBeNull();
  });
});
