/**
 * The authorization matrix with API tokens (issue 30 item 1): every callable function and
 * every `/api` route, called with `Authorization: Bearer mf_…` instead of a session. A token
 * acts under its owner's access policy, within its scopes, and never reaches billing, the
 * account's own settings or the tokens themselves.
 *
 * Columns: the owner's token with every scope, the owner's token lacking the route's scope, an
 * editor's token (every scope) on the owner's map, a stranger's, a revoked and an expired token.
 * Every function and every route served must have a scope decision (FUNCTION_SCOPES,
 * ROUTE_SCOPES) or be outside the product API (health, probes, Stripe's webhook, the beacon),
 * where a token is not read at all.
 */
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_TOKEN_SCOPES, type ApiTokenScope } from '../../events/api-tokens.js';
import { functionPayloads, type FunctionName } from '../../events/functions.js';
import { FUNCTION_SCOPES, ROUTE_SCOPES, ROUTES_WITHOUT_CALLER, TOKEN_NOT_ALLOWED, scopeOfRoute } from '../../server/auth/api-token-auth.js';
import type { Clock } from '../../server/clock.js';
import { DEFAULT_AUTH_LIMITS } from '../../server/security/auth-limits.js';
import { databaseTargets } from '../support/databases.js';
import { functionTemplates, routeBodyTemplates } from '../support/fuzz/payload-templates.js';
import { share } from '../support/sharing.js';
import { call, createMapAs, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

const OUTSIDE_PRODUCT = ROUTES_WITHOUT_CALLER;

/** A clock an expired token's test moves forward. */
let offsetMs = 0;
const clock: Clock = { now: () => new Date(Date.now() + offsetMs) };

describe.each(databaseTargets)('the authorization matrix with API tokens on $name', (target) => {
  let server: TestServer;
  let owner: TestUser;
  let editor: TestUser & { email: string };
  let stranger: TestUser;
  let mapId: string;
  const routes: Array<{ method: string; url: string }> = [];
  const tokens: Record<string, string> = {};

  async function makeToken(user: TestUser, scopes: readonly ApiTokenScope[], expiresInDays?: number): Promise<{ token: string; tokenId: string }> {
    const made = await call(server, 'createApiToken', { name: `Matrix ${scopes.join(' ')}`, scopes, ...(expiresInDays ? { expiresInDays } : {}) }, user);
    if (made.status !== 200) throw new Error(`createApiToken: ${JSON.stringify(made.body)}`);
    await projected(server, made.body.position);
    return made.body.result;
  }

  async function callWith(token: string, name: string, data: unknown) {
    const response = await fetch(`${server.url}/api/fn/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ data }),
    });
    return { status: response.status, body: (await response.json()) as any };
  }

  async function fetchWith(token: string, method: string, pattern: string, map = mapId) {
    const url = pattern.replace(':id', pattern.startsWith('/api/templates') ? 'mall' : map).replace(':revision', '0');
    const key = `${method} ${pattern}`;
    const body = method === 'POST' ? JSON.stringify({ data: routeBodyTemplates[pattern]?.({ mapId: map, historyId: 'x', email: 'x@example.com' }) ?? {} }) : undefined;
    const response = await fetch(`${server.url}${url}${key === 'GET /api/maps/:id/import/progress' ? '?token=matrix-import-1' : ''}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body } : {}),
    });
    const text = await response.text();
    return { status: response.status, message: response.headers.get('content-type')?.includes('json') ? (JSON.parse(text) as any)?.error?.message : undefined };
  }

  beforeAll(async () => {
    server = await startTestServer(target, {
      clock,
      env: { API_TOKEN_REQUESTS_PER_MINUTE: '100000' },
      authLimits: { ...DEFAULT_AUTH_LIMITS, registerPerIp: { max: 1000, windowMs: 60_000 }, loginPerIp: { max: 1000, windowMs: 60_000 } },
      onRoute: (route: RouteOptions) => {
        for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push({ method, url: route.url ?? '' });
      },
    });
    const person = async (name: string) => {
      const email = `token-${name}-${Date.now()}@example.com`;
      return { ...(await registerUser(server, email)), email };
    };
    owner = await person('owner');
    editor = await person('editor');
    stranger = await person('stranger');
    mapId = await createMapAs(server, owner, 'Token matrix mall');
    await share(server, owner, mapId, editor, 'editor');
    tokens.owner = (await makeToken(owner, API_TOKEN_SCOPES)).token;
    for (const scope of API_TOKEN_SCOPES) tokens[`without ${scope}`] = (await makeToken(owner, API_TOKEN_SCOPES.filter((s) => s !== scope))).token;
    tokens.editor = (await makeToken(editor, API_TOKEN_SCOPES)).token;
    tokens.stranger = (await makeToken(stranger, API_TOKEN_SCOPES)).token;
    const revoked = await makeToken(owner, API_TOKEN_SCOPES);
    const revoke = await call(server, 'revokeApiToken', { tokenId: revoked.tokenId }, owner);
    expect(revoke.status).toBe(200);
    await projected(server, revoke.body.position);
    tokens.revoked = revoked.token;
    tokens.expiring = (await makeToken(owner, API_TOKEN_SCOPES, 1)).token;
  }, 180_000);
  afterAll(() => server?.close());

  it('has a scope decision for every function and every product route', () => {
    expect(Object.keys(FUNCTION_SCOPES).sort()).toEqual(Object.keys(functionPayloads).sort());
    const served = [...new Set(routes.filter((r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/fn/') && r.url !== '/api/live').map((r) => `${r.method} ${r.url}`))];
    const undecided = served.filter((key) => !OUTSIDE_PRODUCT.has(key) && !key.includes(' /api/auth/') && key !== 'POST /api/contact' && !Object.hasOwn(ROUTE_SCOPES, key));
    expect(undecided).toEqual([]);
  });

  it.each(Object.keys(functionPayloads) as FunctionName[])('function %s', async (name) => {
    const scope = FUNCTION_SCOPES[name];
    // Each function on a map of its own (deleteMap deletes it), with a valid payload.
    const own = await createMapAs(server, owner, `Token ${name}`);
    const payload = functionTemplates[name]({ mapId: own, historyId: 'no-such-version', email: `invitee-${name.toLowerCase()}@example.com` });
    const answer = await callWith(tokens.owner!, name, payload);
    if (scope === null) {
      expect(answer.status, name).toBe(403);
      expect(answer.body.error.message).toBe(TOKEN_NOT_ALLOWED);
    } else {
      // Past the access checks: what is left is the payload's business (the template's names may not exist).
      expect([401, 403], `${name}: ${JSON.stringify(answer.body)}`).not.toContain(answer.status);
      expect(answer.status, `${name}: ${JSON.stringify(answer.body)}`).toBeLessThan(500);
      const lacking = await callWith(tokens[`without ${scope}`]!, name, payload);
      expect(lacking.status, name).toBe(403);
      expect(lacking.body.error.message).toBe(`This API token does not have the ${scope} scope.`);
    }
    for (const bad of ['revoked', 'expired'] as const) {
      if (bad === 'expired') offsetMs = 2 * 86_400_000;
      try {
        const refused = await callWith(tokens[bad === 'expired' ? 'expiring' : 'revoked']!, name, payload);
        expect(refused.status, `${name} with a ${bad} token`).toBe(401);
        expect(refused.body.error.message).toMatch(bad === 'expired' ? /^This API token expired on \d{4}-\d{2}-\d{2}\.$/ : /^This API token was revoked\.$/);
      } finally {
        offsetMs = 0;
      }
    }
    // The owner's two test slots: the shared map and one more at a time. What the token's call
    // recorded is waited for first: deleteMap's own answer deletes the map, and a test slot is
    // counted from the maps' list, which a busy machine once had not yet updated when the next
    // test created its map ("No free test slot").
    if (typeof answer.body?.position === 'string') await projected(server, answer.body.position);
    for (const id of [own, ...(name === 'createMap' && typeof answer.body.result === 'string' ? [answer.body.result as string] : [])]) {
      const deleted = await call(server, 'deleteMap', { id }, owner);
      if (deleted.body.position) await projected(server, deleted.body.position);
    }
  }, 60_000);

  it('routes: each token gets what its owner and its scopes allow', async () => {
    const served = [...new Set(routes.filter((r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/fn/') && r.url !== '/api/live').map((r) => `${r.method} ${r.url}`))].sort();
    const answers: Record<string, Record<string, number | string>> = {};
    const expected: Record<string, Record<string, number | string>> = {};
    const allowed = (status: number) => (status !== 401 && status !== 403 && status < 500 ? 'allowed' : status);
    for (const key of served) {
      const [method, pattern] = key.split(' ') as [string, string];
      const outside = OUTSIDE_PRODUCT.has(key);
      const scope = outside ? 'any' : (scopeOfRoute(method, pattern) ?? null);
      const got: Record<string, number | string> = {};
      const want: Record<string, number | string> = {};
      const owned = await fetchWith(tokens.owner!, method, pattern);
      got.owner = scope === null ? `${owned.status} ${owned.message}` : allowed(owned.status);
      want.owner = scope === null ? `403 ${TOKEN_NOT_ALLOWED}` : 'allowed';
      if (scope !== null && scope !== 'any') {
        const lacking = await fetchWith(tokens[`without ${scope}`]!, method, pattern);
        got.lacking = `${lacking.status} ${lacking.message}`;
        want.lacking = `403 This API token does not have the ${scope} scope.`;
      }
      for (const bad of ['revoked', 'expired'] as const) {
        if (bad === 'expired') offsetMs = 2 * 86_400_000;
        try {
          const refused = await fetchWith(tokens[bad === 'expired' ? 'expiring' : 'revoked']!, method, pattern);
          got[bad] = outside ? allowed(refused.status) : refused.status;
          want[bad] = outside ? 'allowed' : 401;
        } finally {
          offsetMs = 0;
        }
      }
      answers[key] = got;
      expected[key] = want;
    }
    expect(answers).toEqual(expected);
  }, 180_000);

  it('an editor’s token may do what the editor may, and no more; a stranger’s token reaches nothing of the map', async () => {
    const statusOf = async (token: string, method: string, pattern: string) => (await fetchWith(token, method, pattern)).status;
    // Reading and editing: the editor may.
    expect(await statusOf(tokens.editor!, 'GET', '/api/maps/:id/data')).toBe(200);
    expect(await statusOf(tokens.editor!, 'GET', '/api/maps/:id/insights')).toBe(200);
    const edited = await callWith(tokens.editor!, 'editMap', { id: mapId, edits: [{ type: 'LayerAdded', layer: { id: 'by-token', name: 'Mezzanine' } }] });
    expect(edited.status).toBe(200);
    // Managing the map is the owner's: refused to the editor's token as to the editor.
    expect((await callWith(tokens.editor!, 'deleteMap', { id: mapId })).status).toBe(403);
    expect((await callWith(tokens.editor!, 'inviteToMap', { mapId, email: 'someone@example.com', role: 'viewer' })).status).toBe(403);
    expect((await callWith(tokens.editor!, 'setMapViewLink', { mapId, enabled: true })).status).toBe(403);
    // The editor's own list holds the shared map, not the owner's others.
    const shared = await fetch(`${server.url}/api/maps/shared`, { headers: { authorization: `Bearer ${tokens.editor}` } });
    expect(((await shared.json()) as any).result.map((m: { id: string }) => m.id)).toContain(mapId);
    // A stranger's token: no view, no edit.
    expect(await statusOf(tokens.stranger!, 'GET', '/api/maps/:id/data')).toBe(403);
    expect(await statusOf(tokens.stranger!, 'GET', '/api/maps/:id/export.json')).toBe(403);
    expect((await callWith(tokens.stranger!, 'editMap', { id: mapId, edits: [{ type: 'LayerAdded', layer: { id: 'nope', name: 'No' } }] })).status).toBe(403);
    // An unknown token, and a malformed one.
    expect(await statusOf(`mf_${'A'.repeat(43)}`, 'GET', '/api/maps')).toBe(401);
    expect(await statusOf('mf_short', 'GET', '/api/maps')).toBe(401);
  });

  it('a token never reaches the account’s settings, billing or tokens', async () => {
    for (const [method, url] of [
      ['GET', '/api/auth/me'],
      ['POST', '/api/auth/update-profile'],
      ['POST', '/api/auth/change-password'],
      ['POST', '/api/auth/delete-account'],
      ['POST', '/api/auth/sign-out-everywhere'],
      ['GET', '/api/account/api-tokens'],
    ] as const) {
      const answer = await fetchWith(tokens.owner!, method, url);
      expect(`${method} ${url} ${answer.status} ${answer.message}`).toBe(`${method} ${url} 403 ${TOKEN_NOT_ALLOWED}`);
    }
    for (const name of ['startCheckout', 'createPortalLink', 'registerLicence', 'publishMap', 'createApiToken', 'revokeApiToken'] as const) {
      const answer = await callWith(tokens.owner!, name, functionTemplates[name]({ mapId, historyId: 'x', email: 'x@example.com' }));
      expect(`${name} ${answer.status}`).toBe(`${name} 403`);
    }
    // The owner is still signed in and their maps are all there (nothing above ran).
    const me = await fetch(`${server.url}/api/auth/me`, { headers: { cookie: owner.cookie } });
    expect(((await me.json()) as any).result.uid).toBe(owner.uid);
  });
});
