/**
 * Standing fuzz guard (issue 14). Every callable function and every route the app serves is
 * fed what a careless or hostile client sends: wrong types, huge, deep, NUL and lone-surrogate
 * texts, `__proto__` and `constructor` keys, missing `data`, broken JSON, wrong media types,
 * odd URL parameters and query strings. Whatever comes in:
 *   - the answer is never a 5xx, and an API error has the catalogue's shape {error:{status,message}};
 *   - no prototype is polluted and the server keeps answering;
 *   - a stranger (signed out, unverified, or another user) changes nothing of the victim's:
 *     her map's stream, her billing stream, her account;
 *   - the owner's own malformed edits never leave her map unreadable.
 * Routes are read from the app's own route tree, so a route added later is fuzzed too.
 * Bounded for CI: FUZZ_RUNS (default 100) runs per property per database, each run with a new
 * seed; a longer hunt is FUZZ_RUNS=1000 npx vitest run test/server/fuzz.test.ts.
 */
import fc from 'fast-check';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functionPayloads, type FunctionName } from '../../events/functions.js';
import { databaseTargets } from '../support/databases.js';
import { brokenBody, contentType, hostileKey, hostileParam, hostileText, hostileValue, mutated, wellFormed } from '../support/fuzz/hostile-values.js';
import { functionTemplates, routeBodyTemplates, type Victim } from '../support/fuzz/payload-templates.js';
import { routeTable, type RouteEntry } from '../support/fuzz/route-table.js';
import { StatusTally } from '../support/fuzz/status-tally.js';
import { call, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 100);
// FUZZ_SEED replays a failure CI printed (its `seed`), e.g. FUZZ_SEED=1844391992.
if (process.env.FUZZ_SEED) fc.configureGlobal({ seed: Number(process.env.FUZZ_SEED) });
const FUNCTION_NAMES = Object.keys(functionPayloads) as FunctionName[];
const isFunctionName = (name: string): name is FunctionName => Object.hasOwn(functionPayloads, name);
/** Requests that end the caller's own session: sent signed out, so the stranger stays signed in. */
const SESSION_ENDING = new Set(['/api/auth/logout', '/api/auth/sign-out-everywhere', '/api/auth/delete-account']);

interface Identity {
  name: string;
  cookie?: string;
  remoteAddress: string;
}

describe.each(databaseTargets)('fuzz on $name', (target) => {
  let server: TestServer;
  let ana: TestUser;
  let victim: Victim;
  let strangers: Identity[];
  let owner: Identity;
  let routes: RouteEntry[];
  const tally = new StatusTally();
  const serverErrors: string[] = [];
  const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();

  beforeAll(async () => {
    // Errors the app logs, so a failing run says what broke, not only that it did.
    const logger = pino({ level: 'error' }, { write: (line: string) => void serverErrors.push(line) });
    server = await startTestServer(target, { loggerInstance: logger });
    const email = `ana-${Date.now()}@example.com`;
    ana = await registerUser(server, email);
    const mallory = await registerUser(server);
    const unverified = await registerUser(server, undefined, { verified: false });
    const created = await call(server, 'createMap', functionTemplates.createMap({ mapId: '', historyId: '', email }), ana);
    expect(created.status).toBe(200);
    const mapId = created.body.result as string;
    const version = await call(server, 'saveMapHistory', { mapId, name: 'First' }, ana);
    expect(version.status).toBe(200);
    await projected(server, version.body.position);
    victim = { mapId, historyId: version.body.result.historyId, email };
    strangers = [
      { name: 'signed out', remoteAddress: '198.51.100.9' },
      { name: 'forged session', cookie: 'mapfold_session=forged-session-token', remoteAddress: '198.51.100.10' },
      { name: 'unverified', cookie: unverified.cookie, remoteAddress: '192.0.2.5' },
      { name: 'another user', cookie: mallory.cookie, remoteAddress: '203.0.113.7' },
    ];
    owner = { name: 'owner', cookie: ana.cookie, remoteAddress: '203.0.113.99' };
    routes = routeTable(server.app).filter((route) => route.method !== 'HEAD' && route.url !== '/api/live');
  });

  afterAll(async () => {
    console.info(`fuzz on ${target.name}: ${tally.toString()}; 5xx: ${tally.count((status) => status >= 500)}`);
    await server?.close();
  });

  /** What a stranger must never change: the victim's streams, as ids of their events. */
  async function victimFingerprint() {
    const ids = async (stream: string) => (await server.services.store.readStream(stream)).map((event) => event.id).join(',');
    return { map: await ids(`map-${victim.mapId}`), comments: await ids(`map-comments-${victim.mapId}`), customer: await ids(`customer-${ana.uid}`) };
  }

  async function send(request: { method: string; url: string; body?: string; type?: string | undefined; identity: Identity; headers?: Record<string, string> }) {
    const headers: Record<string, string> = { ...request.headers };
    if (request.type !== undefined) headers['content-type'] = request.type;
    if (request.identity.cookie) headers.cookie = request.identity.cookie;
    const response = await server.app.inject({
      method: request.method as 'GET',
      url: request.url,
      headers,
      remoteAddress: request.identity.remoteAddress,
      ...(request.body !== undefined && request.method !== 'GET' ? { payload: request.body } : {}),
    });
    tally.add(response.statusCode);
    const logged = response.statusCode >= 500 ? ` logged: ${serverErrors.slice(-1)[0]?.slice(0, 1500) ?? 'nothing'}` : '';
    const where = `${request.method} ${request.url.slice(0, 200)} as ${request.identity.name} (${request.type ?? 'no type'}) body ${JSON.stringify(request.body?.slice(0, 300))}: ${response.statusCode} ${response.body.slice(0, 300)}${logged}`;
    expect(response.statusCode, where).toBeLessThan(500);
    if (request.url.startsWith('/api/') && response.statusCode >= 400) {
      const body = JSON.parse(response.body) as { error?: { status?: unknown; message?: unknown } };
      expect(typeof body.error?.status, where).toBe('string');
      expect(typeof body.error?.message, where).toBe('string');
    }
    expect(Object.getOwnPropertyNames(Object.prototype).sort(), where).toEqual(prototypeKeys);
    expect(({} as Record<string, unknown>).polluted, where).toBeUndefined();
    return response;
  }

  /** A callable function's body: mostly a mutated valid payload, sometimes anything at all. */
  const functionBody = (name: FunctionName) =>
    fc.oneof(
      { weight: 6, arbitrary: mutated(functionTemplates[name](victim)).map((data) => JSON.stringify({ data })) },
      { weight: 2, arbitrary: hostileValue.map((data) => JSON.stringify({ data })) },
      { weight: 1, arbitrary: hostileValue.map((value) => JSON.stringify(value)) },
      { weight: 2, arbitrary: brokenBody },
    );

  it('callable functions: a stranger\'s generated payloads never give a 5xx and change nothing of the victim\'s', async () => {
    const before = await victimFingerprint();
    const names = fc.constantFrom<string>(...FUNCTION_NAMES, 'unknownFunction', '__proto__', 'constructor', 'toString');
    const request = names.chain((name) =>
      fc.record({
        name: fc.constant(name),
        body: isFunctionName(name) ? functionBody(name) : brokenBody,
        identity: fc.constantFrom(...strangers),
        type: contentType,
      }),
    );
    await fc.assert(
      fc.asyncProperty(request, async ({ name, body, identity, type }) => {
        await send({ method: 'POST', url: `/api/fn/${name}`, body, type, identity });
      }),
      { numRuns: RUNS },
    );
    expect(await victimFingerprint()).toEqual(before);
  });

  /** A URL for a route pattern, with parameters and query strings a careless client would send. */
  const urlFor = (route: RouteEntry) =>
    fc
      .record({
        params: fc.array(fc.oneof(fc.constant(victim.mapId), fc.constant(victim.historyId), fc.constantFrom('demo', '1', 'x'), hostileParam), { minLength: 4, maxLength: 4 }),
        query: fc.option(fc.dictionary(hostileKey.map((key) => encodeURIComponent(wellFormed(key))), hostileParam, { maxKeys: 3 }), { nil: undefined }),
      })
      .map(({ params, query }) => {
        let index = 0;
        const path = route.url.replace(/:[A-Za-z_]+/g, () => params[index++ % params.length]!).replace(/\*$/, params[3]!);
        const search = query ? Object.entries(query).map(([key, value]) => `${key}=${value}`).join('&') : '';
        // A request line always has a path, even for the catch-all route "*" whose parameter came out empty.
        const absolute = path.startsWith('/') ? path : `/${path}`;
        return search ? `${absolute}?${search}` : absolute;
      });

  /** A form body as browsers and Stripe's SDK send it, with keys that try to climb prototypes. */
  const formBody = fc
    .array(
      fc.tuple(
        fc.oneof(
          fc.constantFrom('quantity', 'quantity[__proto__][polluted]', '__proto__[polluted]', 'constructor[prototype][polluted]', 'a[b][c][d][e][f][g][h][i][j][k]', 'line_items[99999999][price]', 'action', 'metadata[__proto__]'),
          hostileText.filter((text) => text.length < 100),
        ),
        hostileText.filter((text) => text.length < 2000),
      ),
      { maxLength: 6 },
    )
    .map((pairs) => new URLSearchParams(pairs.map(([key, value]) => [wellFormed(key), wellFormed(value)])).toString());

  const routeRequest = (identities: Identity[]) =>
    fc
      .constantFrom(...routes)
      .chain((route) =>
        fc.record({
          route: fc.constant(route),
          url: urlFor(route),
          identity: fc.constantFrom(...(SESSION_ENDING.has(route.url) ? identities.filter((identity) => !identity.cookie) : identities)),
          type: route.url.startsWith('/local-stripe/') ? fc.constantFrom('application/x-www-form-urlencoded', 'application/json', undefined) : contentType,
          body: route.url.startsWith('/local-stripe/')
            ? fc.oneof(formBody, brokenBody)
            : fc.oneof(
                { weight: 4, arbitrary: (routeBodyTemplates[route.url] ? mutated(routeBodyTemplates[route.url]!(victim)) : hostileValue).map((data) => JSON.stringify({ data })) },
                { weight: 2, arbitrary: brokenBody },
              ),
          // eslint-disable-next-line no-control-regex -- a header value cannot hold CR, LF or NUL
          signature: fc.option(hostileText.map((text) => wellFormed(text).replace(/[\r\n\u0000]/g, '')), { nil: undefined }),
        }),
      );

  it('every route: a stranger\'s generated requests never give a 5xx and change nothing of the victim\'s', async () => {
    expect(routes.length).toBeGreaterThan(30);
    const before = await victimFingerprint();
    await fc.assert(
      fc.asyncProperty(routeRequest(strangers), async ({ route, url, identity, type, body, signature }) => {
        await send({
          method: route.method,
          url,
          body,
          type,
          identity,
          ...(route.url === '/api/stripe/webhook' && signature !== undefined ? { headers: { 'stripe-signature': signature } } : {}),
        });
      }),
      { numRuns: RUNS * 2 },
    );
    expect(await victimFingerprint()).toEqual(before);
    // The victim can still sign in and is who she was.
    const me = await send({ method: 'GET', url: '/api/auth/me', identity: owner });
    expect(JSON.parse(me.body).result).toMatchObject({ uid: ana.uid, displayName: 'Test User' });
  });

  it('the owner\'s own malformed payloads never give a 5xx and never leave her map unreadable', async () => {
    const ownFunctions = FUNCTION_NAMES.filter((name) => name !== 'deleteMap');
    const request = fc.constantFrom(...ownFunctions).chain((name) => fc.record({ name: fc.constant(name), body: functionBody(name) }));
    await fc.assert(
      fc.asyncProperty(request, async ({ name, body }) => {
        await send({ method: 'POST', url: `/api/fn/${name}`, body, type: 'application/json', identity: owner });
      }),
      { numRuns: RUNS },
    );
    // Whatever was accepted was recorded as events every reader can read back.
    for (const url of [`/api/maps/${victim.mapId}/data`, `/api/maps/${victim.mapId}/audit.json`, `/api/maps/${victim.mapId}/export.json`, `/api/maps/${victim.mapId}/comments`, '/api/maps']) {
      const response = await send({ method: 'GET', url, identity: owner });
      expect(response.statusCode, url).toBe(200);
    }
  });

  it('the server still works after the fuzz: a normal request is answered and projected', async () => {
    expect((await send({ method: 'GET', url: '/api/health', identity: owner })).statusCode).toBe(200);
    // (createMap may be refused by now: the owner's fuzz can fill her free test slots.)
    const saved = await call(server, 'saveMapHistory', { mapId: victim.mapId, name: 'After the storm' }, ana);
    expect(saved.status).toBe(200);
    await projected(server, saved.body.position);
  });
});
