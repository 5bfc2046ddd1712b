/**
 * API tokens (issue 30 item 1): made, shown once, kept hashed, listed with their last use and
 * expiry, revoked; and limited per token by @fastify/rate-limit with the standard headers and
 * the catalogue's 429. Who may reach what with a token: authorization-matrix-tokens.test.ts.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_TOKEN_PATTERN } from '../../events/api-tokens.js';
import { streams } from '../../events/streams.js';
import { databaseTargets } from '../support/databases.js';
import { call, createMapAs, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

describe.each(databaseTargets)('API tokens on $name', (target) => {
  let server: TestServer;
  let owner: TestUser;

  beforeAll(async () => {
    server = await startTestServer(target, { env: { API_TOKEN_REQUESTS_PER_MINUTE: '5' } });
    owner = await registerUser(server);
  }, 60_000);
  afterAll(() => server?.close());

  const list = async (user: TestUser) => {
    const response = await fetch(`${server.url}/api/account/api-tokens`, { headers: { cookie: user.cookie } });
    expect(response.status).toBe(200);
    return ((await response.json()) as any).result.tokens as Array<Record<string, unknown>>;
  };
  const withToken = (token: string, path = '/api/maps') => fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });

  it('is shown once, recorded only as its hash, listed with its scopes, expiry and last use, and revoked at once', async () => {
    const made = await call(server, 'createApiToken', { name: '  Store sync  ', scopes: ['maps:read', 'import'], expiresInDays: 30 }, owner);
    expect(made.status).toBe(200);
    const { tokenId, token } = made.body.result as { tokenId: string; token: string };
    expect(token).toMatch(API_TOKEN_PATTERN);
    // It works as soon as the answer comes: no waiting for the read model.
    expect((await withToken(token)).status).toBe(200);

    // The event log holds the hash and a short prefix, never the token.
    const recorded = await server.services.store.readStream(streams.apiTokens(owner.uid));
    expect(recorded.map((event) => event.type)).toEqual(['ApiTokenCreated']);
    expect(JSON.stringify(recorded.map((event) => [event.data, event.metadata]))).not.toContain(token.slice(3));
    expect(recorded[0]!.data).toMatchObject({ tokenHash: createHash('sha256').update(token).digest('hex'), prefix: token.slice(0, 7) });

    const [listed] = await list(owner);
    expect(listed).toMatchObject({ tokenId, name: 'Store sync', scopes: ['maps:read', 'import'], prefix: token.slice(0, 7) });
    expect(JSON.stringify(listed)).not.toContain(token.slice(3));
    const expires = Date.parse(String(listed!.expires)) - Date.parse(String(listed!.created));
    expect(expires).toBe(30 * 86_400_000);

    // Used: the maps list answers as for the owner, and the list shows when.
    const used = await withToken(token);
    expect(used.status).toBe(200);
    expect(((await used.json()) as any).result).toEqual([]);
    const [afterUse] = await list(owner);
    expect(afterUse!.lastUsed).toEqual(expect.any(String));

    // Another account's list does not show it, nor can it revoke it.
    const other = await registerUser(server);
    expect(await list(other)).toEqual([]);
    expect((await call(server, 'revokeApiToken', { tokenId }, other)).status).toBe(404);

    const revoked = await call(server, 'revokeApiToken', { tokenId }, owner);
    expect(revoked.status).toBe(200);
    // Refused as soon as the answer comes (every process reads the same read model, which the answer waited for).
    const refused = await withToken(token);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: { status: 'UNAUTHENTICATED', message: 'This API token was revoked.' } });
    expect(await list(owner)).toEqual([]);
    // Revoking again changes nothing.
    expect((await call(server, 'revokeApiToken', { tokenId }, owner)).body).toEqual({ result: null, position: null });
  });

  it('refuses bad payloads with the field named', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ name: '', scopes: ['maps:read'] }, /Give the token a name/],
      [{ name: 'x', scopes: [] }, /Choose at least one scope/],
      [{ name: 'x', scopes: ['billing'] }, /Scopes are maps:read, maps:write, import and webhooks/],
      [{ name: 'x', scopes: ['import', 'import'] }, /Name each scope once/],
      [{ name: 'x', scopes: ['webhooks'], expiresInDays: 0 }, /at least 1 day/],
      [{ name: 'x', scopes: ['webhooks'], expiresInDays: 1.5 }, /whole number of days/],
    ];
    for (const [payload, message] of cases) {
      const answer = await call(server, 'createApiToken', payload, owner);
      expect(answer.status, JSON.stringify(payload)).toBe(400);
      expect(answer.body.error.message).toMatch(message);
    }
  });

  it('edits a map as its owner, recorded as theirs', async () => {
    const mapId = await createMapAs(server, owner, 'Token-edited mall');
    const made = await call(server, 'createApiToken', { name: 'Writer', scopes: ['maps:write'] }, owner);
    await projected(server, made.body.position);
    const response = await fetch(`${server.url}/api/fn/editMap`, {
      method: 'POST',
      headers: { authorization: `Bearer ${made.body.result.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ data: { id: mapId, edits: [{ type: 'LayerAdded', layer: { id: 'upper', name: 'Upper floor' } }] } }),
    });
    expect(response.status).toBe(200);
    const events = await server.services.store.readStream(streams.map(mapId));
    expect(events.at(-1)!.metadata).toMatchObject({ userId: owner.uid });
  });

  it('is rate-limited per token with the x-ratelimit headers and a 429 in the catalogue’s shape', async () => {
    const first = await call(server, 'createApiToken', { name: 'Busy script', scopes: ['maps:read'] }, owner);
    const second = await call(server, 'createApiToken', { name: 'Other script', scopes: ['maps:read'] }, owner);
    await projected(server, second.body.position);
    const remaining: string[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await withToken(first.body.result.token);
      expect(response.status).toBe(200);
      expect(response.headers.get('x-ratelimit-limit')).toBe('5');
      expect(Number(response.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
      remaining.push(response.headers.get('x-ratelimit-remaining')!);
    }
    expect(remaining).toEqual(['4', '3', '2', '1', '0']);
    const limited = await withToken(first.body.result.token);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    const body = (await limited.json()) as any;
    expect(body.error.status).toBe('RESOURCE_EXHAUSTED');
    expect(body.error.message).toMatch(/^Too many requests with this API token: at most 5 a minute\. Try again in /);
    // Another token has its own budget; the owner's session is not counted here at all.
    const other = await withToken(second.body.result.token);
    expect(other.status).toBe(200);
    expect(other.headers.get('x-ratelimit-remaining')).toBe('4');
    const session = await fetch(`${server.url}/api/maps`, { headers: { cookie: owner.cookie } });
    expect(session.status).toBe(200);
    expect(session.headers.get('x-ratelimit-limit')).toBeNull();
  });
});
