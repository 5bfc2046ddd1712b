/**
 * The local test Stripe's API key and webhook signing secret are made per installation and
 * kept in DATA_DIR (issue 14, item 3): never a constant, the same for every process on one
 * DATA_DIR, readable by the server's user only. A production server runs the local test
 * Stripe only when LOCAL_STRIPE=1 says so; otherwise billing says it is not configured.
 */
import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streams } from '../../events/streams.js';
import { buildApp } from '../../server/app.js';
import { localPrices, subscriptionObject } from '../../server/billing/local-stripe/local-stripe-api.js';
import { LOCAL_STRIPE_KEYS_FILE, localStripeKeys } from '../../server/billing/local-stripe/local-stripe-keys.js';
import { signWebhook, stripeEvent } from '../../server/billing/local-stripe/local-webhooks.js';
import { loadConfig } from '../../server/config.js';
import { openTestPGlite } from '../support/pglite-template.js';
import { openServices } from '../../server/services.js';
import { pgliteTarget } from '../support/databases.js';
import { billingSnapshot } from '../../projections/billing.js';
import { call, projected, registerUser, startTestServer, type TestServer } from '../support/test-server.js';

const run = promisify(execFile);
const OLD_WEBHOOK_SECRET = 'whsec_mapfold_local_test_checkout';
const OLD_API_KEY = 'sk_test_mapfold_local';

const dirs: string[] = [];
function dataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'mapfold-keys-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('the local test Stripe’s keys', () => {
  it('are made on the first start, random, in a file only the server’s user can read, and read back after', async () => {
    const dir = dataDir();
    const first = await localStripeKeys(dir);
    expect(first.apiKey).toMatch(/^sk_test_[A-Za-z0-9_-]{40,}$/);
    expect(first.webhookSecret).toMatch(/^whsec_[A-Za-z0-9_-]{40,}$/);
    expect([first.apiKey, first.webhookSecret]).not.toContain(OLD_API_KEY);
    expect([first.apiKey, first.webhookSecret]).not.toContain(OLD_WEBHOOK_SECRET);
    const file = path.join(dir, LOCAL_STRIPE_KEYS_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(first);
    expect(await localStripeKeys(dir)).toEqual(first);
    // Another installation gets keys of its own.
    const other = await localStripeKeys(dataDir());
    expect(other.apiKey).not.toBe(first.apiKey);
    expect(other.webhookSecret).not.toBe(first.webhookSecret);
  });

  it('are the same for every process starting at once on one DATA_DIR', async () => {
    const dir = path.join(dataDir(), 'not-yet-made');
    const script = `import { localStripeKeys } from './server/billing/local-stripe/local-stripe-keys.ts'; console.log(JSON.stringify(await localStripeKeys(${JSON.stringify(dir)})));`;
    const processes = Array.from({ length: 3 }, () => run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script]));
    const inThisProcess = Array.from({ length: 20 }, () => localStripeKeys(dir));
    const answers = [...(await Promise.all(processes)).map(({ stdout }) => JSON.parse(stdout)), ...(await Promise.all(inThisProcess))];
    const saved = JSON.parse(readFileSync(path.join(dir, LOCAL_STRIPE_KEYS_FILE), 'utf8'));
    expect(answers).toHaveLength(23);
    for (const answer of answers) expect(answer).toEqual(saved);
    // The losers' candidate files are gone.
    expect(readdirSync(dir)).toEqual([LOCAL_STRIPE_KEYS_FILE]);
  });

  it('stop the start with a clear message when the file is damaged', async () => {
    const dir = dataDir();
    writeFileSync(path.join(dir, LOCAL_STRIPE_KEYS_FILE), '{"apiKey": "sk_test_mapfold_local", "webhookSecret": "whsec_mapfold_local_test_checkout"}');
    await expect(localStripeKeys(dir)).rejects.toThrow(/local-stripe-keys\.json are not valid; delete the file/);
    writeFileSync(path.join(dir, LOCAL_STRIPE_KEYS_FILE), '{"apiKey": ');
    await expect(localStripeKeys(dir)).rejects.toThrow(/local-stripe-keys\.json could not be read/);
  });
});

describe('a server running the local test Stripe', () => {
  let server: TestServer;
  let dir: string;

  beforeAll(async () => {
    dir = dataDir();
    server = await startTestServer(pgliteTarget, { env: { DATA_DIR: dir } });
  });
  afterAll(() => server?.close());

  it('uses its installation’s keys, and refuses the constants that were once in the source', async () => {
    const saved = JSON.parse(readFileSync(path.join(dir, LOCAL_STRIPE_KEYS_FILE), 'utf8'));
    expect(server.services.localStripe).toEqual(saved);

    const webhook = (payload: string, signature: string) =>
      fetch(`${server.url}/api/stripe/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body: payload });
    // A forged Professional subscription for a victim, signed with the old constant secret.
    const victim = await registerUser(server);
    const [price] = localPrices(server.services.config.stripe.prices).filter((each) => each.plan === 'professional');
    const subscription = subscriptionObject({ customer: 'cus_forged', price: price!, quantity: 5, metadata: { uid: victim.uid, plan: 'professional' }, now: new Date() });
    const forgedPayload = JSON.stringify(stripeEvent('customer.subscription.created', subscription, new Date()));
    const forged = await webhook(forgedPayload, signWebhook(forgedPayload, OLD_WEBHOOK_SECRET));
    expect(forged.status).toBe(400);
    expect(await forged.json()).toMatchObject({ error: { status: 'INVALID_ARGUMENT', message: 'Webhook signature verification failed.' } });
    // Signed with this installation's secret, an event is taken.
    const payload = JSON.stringify(stripeEvent('customer.created', { id: 'cus_someone', object: 'customer' }, new Date()));
    expect((await webhook(payload, signWebhook(payload, saved.webhookSecret))).status).toBe(200);
    expect((await billingSnapshot(server.services.db, victim.uid, false)).subscriptions).toEqual([]);

    const api = (key: string) => fetch(`${server.url}/local-stripe/v1/subscriptions/sub_nothing`, { headers: { authorization: `Bearer ${key}` } });
    const oldKey = await api(OLD_API_KEY);
    expect(oldKey.status).toBe(401);
    expect(await oldKey.json()).toMatchObject({ error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } });
    expect((await api(saved.apiKey)).status).toBe(404);
  });

  it('makes checkouts through its own API with those keys', async () => {
    const user = await registerUser(server);
    const started = await call(server, 'startCheckout', { plan: 'basic', interval: 'monthly', quantity: 1 }, user);
    expect(started.status).toBe(200);
    await projected(server, started.body.position, ['billing']);
    let session;
    for (const deadline = Date.now() + 15_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 20))) {
      session = (await billingSnapshot(server.services.db, user.uid, false)).checkoutSessions[0];
      if (session?.status !== 'pending') break;
    }
    expect(session).toMatchObject({ status: 'ready', error: null, url: expect.stringMatching(/\/local-stripe\/checkout\/cs_test_/) });
  });
});

describe('billing on a production server', () => {
  async function productionApp(env: Record<string, string>) {
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
    const config = loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir(), PUBLIC_URL: 'http://127.0.0.1:3000', ...env });
    const db = await openTestPGlite();
    const services = await openServices(config, { db, logger: { info: () => {}, error: () => {} } });
    const app = await buildApp(services, false, { loggerInstance: logger });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    return {
      app,
      /** Enough of a test server for registerUser and call. */
      server: { url: `http://127.0.0.1:${port}`, services } as unknown as TestServer,
      services,
      config,
      warnings: () => lines.map((line) => JSON.parse(line) as { level: number; msg: string }).filter((entry) => entry.level === 40).map((entry) => entry.msg),
      async close() {
        await app.close();
        await services.close();
      },
    };
  }

  it('without Stripe’s keys or LOCAL_STRIPE=1: no local test Stripe, no keys, billing answers unavailable, start-up warns', async () => {
    const production = await productionApp({});
    try {
      expect(production.config.stripe.mode).toBe('off');
      expect(production.services.localStripe).toBeNull();
      expect(existsSync(path.join(production.config.dataDir, LOCAL_STRIPE_KEYS_FILE))).toBe(false);
      expect(production.warnings()).toEqual([
        'Billing is not configured on this server. Set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET for Stripe, or LOCAL_STRIPE=1 for the local test Stripe (no payment is taken).',

        // Purchase codes are not checked either (no ENVATO_TOKEN): said at start-up too.
        'Licence registration is not configured on this server: purchase codes cannot be checked with the marketplace. Set ENVATO_TOKEN to check purchase codes with the marketplace, or LOCAL_LICENCES=1 to accept them unchecked (test installs only).',
      ]);

      const owner = await registerUser(production.server);
      for (const [name, data] of [
        ['startCheckout', { plan: 'basic', interval: 'monthly', quantity: 1 }],
        ['createPortalLink', { returnUrl: '/maps#subscribe' }],
      ] as const) {
        const answer = await call(production.server, name, data, owner);
        expect(answer.status, name).toBe(503);
        expect(answer.body, name).toEqual({ error: { status: 'UNAVAILABLE', message: 'Billing is not configured on this server.' } });
      }
      // Nothing was recorded for the checkout that could not start.
      expect(await production.services.store.readStream(streams.customer(owner.uid))).toEqual([]);
      // Nothing to forge into and nothing to post to.
      for (const url of ['/api/stripe/webhook', '/local-stripe/checkout/cs_test_x/complete', '/local-stripe/v1/checkout/sessions']) {
        const answer = await production.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'quantity=1' });
        expect(answer.statusCode, url).toBe(404);
      }
    } finally {
      await production.close();
    }
  });

  it('with LOCAL_STRIPE=1: the local test Stripe runs, with keys of its own', async () => {
    const production = await productionApp({ LOCAL_STRIPE: '1' });
    try {
      expect(production.config.stripe.mode).toBe('local');
      expect(production.services.localStripe?.apiKey).toMatch(/^sk_test_/);
      // Billing says nothing; only the purchase codes, which no ENVATO_TOKEN checks, are warned of.
      expect(production.warnings()).toEqual([
        'Licence registration is not configured on this server: purchase codes cannot be checked with the marketplace. Set ENVATO_TOKEN to check purchase codes with the marketplace, or LOCAL_LICENCES=1 to accept them unchecked (test installs only).',
      ]);
      const api = await production.app.inject({ method: 'GET', url: '/local-stripe/v1/subscriptions/sub_x', headers: { authorization: `Bearer ${production.services.localStripe!.apiKey}` } });
      expect(api.statusCode).toBe(404);
      expect(api.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
    } finally {
      await production.close();
    }
  });
});
