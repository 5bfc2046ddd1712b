/**
 * No request body can reach a prototype (issue 14, item 1). Every route that takes a body,
 * found in the running app's route table so a new one is covered too, gets form bodies with
 * `__proto__` / `constructor[prototype]` keys (the local test Stripe's pages and its API, as
 * Stripe's SDK would post them) and poisoned JSON. After each one no object has gained a
 * property, Object.prototype and Array.prototype are as they were, and the server still
 * answers; a real checkout posted with a hostile quantity still completes. Bodies are parsed
 * before any database work, so PGlite alone is enough here (billing.test.ts runs the flow on
 * both databases).
 */
import { until } from '../support/until.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functionPayloads } from '../../events/functions.js';
import { billingSnapshot } from '../../projections/billing.js';
import { pgliteTarget } from '../support/databases.js';
import { call, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

const HOSTILE_FORMS = [
  'quantity[__proto__][polluted]=yes',
  '__proto__[polluted]=yes',
  'constructor[prototype][polluted]=yes',
  'quantity[constructor][prototype][polluted]=yes',
  'action=quantity&quantity[__proto__][polluted]=yes',
  'mode=subscription&line_items[0][__proto__][polluted]=yes&line_items[0][price]=price_basic_monthly&line_items[0][quantity]=1',
  'metadata[__proto__][polluted]=yes&customer[__proto__][polluted]=yes',
  'line_items[__proto__][polluted]=yes',
  '__proto__[toString]=yes&__proto__[hasOwnProperty]=yes',
  'constructor[prototype][toString]=yes',
];

const HOSTILE_JSON = [
  '{"data": {"__proto__": {"polluted": "yes"}}}',
  '{"__proto__": {"polluted": "yes"}, "data": {}}',
  '{"data": {"constructor": {"prototype": {"polluted": "yes"}}}}',
  '{"data": {"title": "x", "mapData": {"__proto__": {"polluted": "yes"}}}}',
];

/** What a prototype holds: each own property's descriptor, compared by identity. */
function snapshot(proto: object) {
  return Object.fromEntries(Reflect.ownKeys(proto).map((key) => [String(key), Object.getOwnPropertyDescriptor(proto, key)]));
}


describe('no request body reaches a prototype', () => {
  let server: TestServer;
  let user: TestUser;
  const objectBefore = snapshot(Object.prototype);
  const arrayBefore = snapshot(Array.prototype);

  beforeAll(async () => {
    server = await startTestServer(pgliteTarget);
    user = await registerUser(server);
  });
  afterAll(() => server?.close());

  async function expectNothingPollutedAndServerAnswers(what: string) {
    expect(({} as Record<string, unknown>).polluted, what).toBeUndefined();
    expect(([] as unknown as Record<string, unknown>).polluted, what).toBeUndefined();
    expect(snapshot(Object.prototype), what).toEqual(objectBefore);
    expect(snapshot(Array.prototype), what).toEqual(arrayBefore);
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status, what).toBe(200);
  }

  /** Every route that takes a body, from the app's own route table, with its parameters filled in. */
  function routesWithBodies(): string[] {
    const table = ['POST', 'PUT', 'PATCH', 'DELETE'].map((method) => server.app.printRoutes({ method: method as 'POST', commonPrefix: false })).join('\n');
    const paths = [...new Set([...table.matchAll(/(\/\S*) \(/g)].map((match) => match[1]!))];
    expect(paths).toContain('/local-stripe/checkout/:id/complete');
    expect(paths).toContain('/local-stripe/v1/checkout/sessions');
    return paths.flatMap((path) =>
      path === '/api/fn/:name' ? Object.keys(functionPayloads).map((name) => `/api/fn/${name}`) : [path.replace(/:(\w+)/g, (_match, name: string) => `made_up_${name}`)],
    );
  }

  const post = (path: string, contentType: string, body: string) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': contentType, cookie: user.cookie, authorization: `Bearer ${server.services.localStripe!.apiKey}` },
      body,
    });

  it('refuses or ignores __proto__ and constructor.prototype in every form body, on every route', async () => {
    const routes = routesWithBodies();
    for (const path of routes) {
      for (const body of HOSTILE_FORMS) {
        const response = await post(path, 'application/x-www-form-urlencoded', body);
        expect(response.status, `${path} ${body}`).toBeLessThan(500);
        await expectNothingPollutedAndServerAnswers(`${path} ${body}`);
      }
    }
  });

  it('refuses JSON with __proto__ or constructor.prototype keys as invalid-argument, on every route', async () => {
    // These take the raw bytes (a file; a signed Stripe event; a file to import, whose map must exist first), not parsed JSON.
    const raw = new Set(['/api/files', '/api/stripe/webhook', '/api/maps/made_up_id/import']);
    for (const path of routesWithBodies()) {
      for (const body of HOSTILE_JSON) {
        const response = await post(path, 'application/json', body);
        const answer = (await response.json()) as { error?: { status?: string; type?: string } };
        expect(response.status, `${path} ${body}`).toBeLessThan(500);
        if (!raw.has(path)) {
          expect(response.status, `${path} ${body}`).toBe(400);
          // The local test Stripe answers in Stripe's shape, the app in the error catalogue's.
          expect(path.startsWith('/local-stripe/v1/') ? answer.error?.type : answer.error?.status, `${path} ${body}`).toBe(
            path.startsWith('/local-stripe/v1/') ? 'invalid_request_error' : 'INVALID_ARGUMENT',
          );
        }
        await expectNothingPollutedAndServerAnswers(`${path} ${body}`);
      }
    }
  });

  it('answers unreadable bodies to the local test Stripe’s API as Stripe-shaped 400s, not 500s', async () => {
    const tooDeep = 'metadata[a][b][c][d][e][f][g]=deep';
    const tooManyFields = Array.from({ length: 1500 }, (_, index) => `metadata[k${index}]=v`).join('&');
    const arrayTooLong = 'line_items[5000][price]=x';
    for (const [contentType, body] of [
      ['application/x-www-form-urlencoded', tooDeep],
      ['application/x-www-form-urlencoded', tooManyFields],
      ['application/x-www-form-urlencoded', arrayTooLong],
      ['application/json', '{"mode": '],
      ['text/plain', 'mode=subscription'],
      ['application/x-www-form-urlencoded', `metadata[big]=${'x'.repeat(80 * 1024)}`],
    ] as const) {
      const response = await post('/local-stripe/v1/checkout/sessions', contentType, body);
      expect(response.status, `${contentType} ${body.slice(0, 40)}`).toBe(400);
      expect(await response.json()).toMatchObject({ error: { type: 'invalid_request_error', message: expect.any(String) } });
    }
    // The pages refuse the same bodies with the app's invalid-argument.
    const page = await post('/local-stripe/checkout/cs_test_nothing/complete', 'application/x-www-form-urlencoded', tooDeep);
    expect(page.status).toBe(400);
    expect(await page.json()).toMatchObject({ error: { status: 'INVALID_ARGUMENT' } });
    // Stripe's metadata is a map of strings; anything else is refused, not stored.
    const nested = await post('/local-stripe/v1/checkout/sessions', 'application/x-www-form-urlencoded', 'mode=subscription&line_items[0][price]=price_basic_monthly&line_items[0][quantity]=1&success_url=x&cancel_url=y&metadata[uid][a]=b');
    expect(nested.status).toBe(400);
    expect(await nested.json()).toMatchObject({ error: { type: 'invalid_request_error', param: 'metadata' } });
  });

  it('completes a real checkout posted with a hostile quantity, at the checkout’s own quantity', async () => {
    const started = await call(server, 'startCheckout', { plan: 'basic', interval: 'monthly', quantity: 2 }, user);
    expect(started.status).toBe(200);
    await projected(server, started.body.position, ['billing']);
    const ready = await until(() => billingSnapshot(server.services.db, user.uid, false), (b) => b.checkoutSessions[0]?.status === 'ready', 'the checkout url', 15_000);
    const checkout = new URL(ready.checkoutSessions[0]!.url!).pathname;
    const done = await post(`${checkout}/complete`, 'application/x-www-form-urlencoded', 'quantity[__proto__][polluted]=yes&quantity[constructor][prototype][polluted]=yes');
    expect(done.status).toBe(303);
    await expectNothingPollutedAndServerAnswers('the real checkout');
    const after = await until(() => billingSnapshot(server.services.db, user.uid, false), (b) => b.subscriptions[0]?.status === 'active', 'the subscription', 15_000);
    expect(after.subscriptions[0]).toMatchObject({ plan: 'basic', quantity: 2 });
  });
});
