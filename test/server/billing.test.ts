/**
 * Billing over HTTP on both databases, with Stripe's real SDK against the local test Stripe:
 * checkout through the local checkout page, webhooks (signatures, duplicates, any order),
 * slots (publish, unpublish, shrinking subscriptions), licences, and who may do what.
 */
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatPosition } from '../../events/position.js';
import { streams } from '../../events/streams.js';
import { billingSnapshot, licenceOfMap, readCustomer } from '../../projections/billing.js';
import { expireLicences } from '../../server/billing/licence-expiry.js';
import { LocalStripeStore } from '../../server/billing/local-stripe/local-stripe-store.js';
import { localPrices, localStripeApi, subscriptionObject } from '../../server/billing/local-stripe/local-stripe-api.js';
import { signWebhook, stripeEvent } from '../../server/billing/local-stripe/local-webhooks.js';
import { loadConfig } from '../../server/config.js';
import { CHECKOUT_LICENCE_NOTE } from '../../server/billing/stripe-gateway.js';
import { LICENCES_NOT_CONFIGURED } from '../../events/billing-api.js';
import { openTestPGlite } from '../support/pglite-template.js';
import { until } from '../support/until.js';
import { databaseTargets } from '../support/databases.js';
import { call, openLive, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';


function shuffle<T>(items: T[], seed: number): T[] {
  const copy = [...items];
  let state = seed;
  for (let index = copy.length - 1; index > 0; index--) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const other = state % (index + 1);
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}

const CODE_A = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const CODE_B = '1b2c3d4e-5f6a-4b7c-9d8e-0f1a2b3c4d5e';

describe.each(databaseTargets)('billing on $name', (target) => {
  let server: TestServer;
  let admin: TestUser;

  beforeAll(async () => {
    server = await startTestServer(target);
    admin = await registerUser(server, 'admin@example.com');
  });
  afterAll(() => server?.close());

  const ok = async (name: string, data: unknown, user: TestUser) => {
    const answer = await call(server, name, data, user);
    if (answer.status !== 200) throw new Error(`${name}: ${answer.status} ${JSON.stringify(answer.body)}`);
    // Billing's functions answer the position of their last event: a customer's (the billing
    // read model reads it) or a map's (the maps' read models do). Publishing writes both (the
    // slot, then the map), and the billing read model follows customer streams only, so its
    // slots are waited for at the caller's last customer event, not at the map's.
    if (answer.body.position) await projected(server, answer.body.position, name === 'startCheckout' ? ['billing'] : ['maps_list', 'map_data']);
    const lastCustomerEvent = (await server.services.store.readStream(streams.customer(user.uid))).at(-1);
    if (lastCustomerEvent) await projected(server, formatPosition(lastCustomerEvent.position), ['billing']);
    if (name === 'registerLicence') await until(() => licenceOfMap(server.services.db, (data as { mapId: string }).mapId), Boolean, 'the licence');
    return answer.body.result;
  };
  const billing = (user: TestUser) => billingSnapshot(server.services.db, user.uid, false);
  /** This installation's local test Stripe keys, as the running server has them (never a constant). */
  const keys = () => server.services.localStripe!;
  const local = (url: string) => `${server.url}${new URL(url).pathname}`;
  const form = (body: Record<string, string>) => ({
    method: 'POST',
    redirect: 'manual' as const,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body).toString(),
  });

  /** Subscribes through the local checkout page, as a person would; answers the subscription id. */
  async function subscribe(user: TestUser, plan: 'basic' | 'professional', quantity: number): Promise<string> {
    const { sessionId } = await ok('startCheckout', { plan, interval: 'monthly', quantity }, user);
    const ready = await until(() => billing(user), (b) => b.checkoutSessions.some((s) => s.id === sessionId && s.status !== 'pending'), 'the checkout url');
    const session = ready.checkoutSessions.find((s) => s.id === sessionId)!;
    expect(session).toMatchObject({ status: 'ready', error: null });
    const page = await fetch(local(session.url!));
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('TEST MODE');
    expect(html).toContain('No card is needed and no real payment is taken.');
    // What a slot needs, said again beside the pay button (Stripe's custom_text.submit).
    expect(html).toContain(CHECKOUT_LICENCE_NOTE);
    const done = await fetch(`${local(session.url!)}/complete`, form({ quantity: String(quantity) }));
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toMatch(/\/maps\?checkout=success#subscribe$/);
    const after = await until(
      () => billing(user),
      (b) => b.subscriptions.some((s) => s.plan === plan && s.status === 'active') && b.checkoutSessions[0]?.status === 'completed',
      'the subscription',
    );
    return after.subscriptions.find((s) => s.plan === plan)!.id;
  }

  async function portal(user: TestUser): Promise<string> {
    const { url } = await ok('createPortalLink', { returnUrl: '/maps#subscribe' }, user);
    return local(url);
  }

  /** Signs an event as Stripe would, with the webhook secret the app is configured with, and posts it. */
  const deliver = (event: Record<string, unknown>, timestamp?: number) => {
    const payload = JSON.stringify(event);
    return fetch(`${server.url}/api/stripe/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signWebhook(payload, keys().webhookSecret, timestamp) },
      body: payload,
    });
  };
  /** Waits until the billing reactor has handled these (recorded) Stripe events. */
  const reacted = async (events: Record<string, unknown>[]) => {
    for (const event of events) {
      const [recorded] = await server.services.store.readStream(streams.stripeEvent(String(event.id)));
      await server.app.billingReactor.waitFor(recorded!.position);
    }
  };

  it('subscribes through the local checkout: the session url, then an active subscription with its slots', async () => {
    const user = await registerUser(server);
    await subscribe(user, 'basic', 3);
    const snapshot = await billing(user);
    expect(snapshot.subscriptions[0]).toMatchObject({ plan: 'basic', status: 'active', quantity: 3, cancelAt: null, priceId: 'price_basic_monthly', product: 'prod_mapfold_basic', interval: 'monthly' });
    expect(snapshot.slots.basic).toEqual({ used: 0, total: 3 });
    expect(snapshot.slots.test).toEqual({ used: 0, total: 2 });
    expect(snapshot.checkoutSessions[0]).toMatchObject({ status: 'completed' });

    // The billing page: cancel at the period's end sets cancel_at (the Canceled badge), still active.
    const billingPage = await portal(user);
    const page = await (await fetch(billingPage)).text();
    expect(page).toContain('Return to Mapfold');
    const subscriptionId = snapshot.subscriptions[0]!.id;
    // A form the page cannot use is answered with its own HTML message, nothing changed.
    for (const [body, title] of [
      [{ action: 'upgrade' }, 'Unknown action'],
      [{}, 'Unknown action'],
      [{ action: 'quantity', quantity: '0' }, 'Quantity not valid'],
      [{ action: 'quantity' }, 'Quantity not valid'],
    ] as const) {
      const refused = await fetch(`${billingPage}/subscriptions/${subscriptionId}`, form(body));
      expect(refused.status, title).toBe(400);
      expect(refused.headers.get('content-type'), title).toMatch(/^text\/html/);
      expect(await refused.text(), title).toContain(title);
    }
    const nested = await fetch(`${billingPage}/subscriptions/${subscriptionId}`, { ...form({}), body: 'action[a]=cancel' });
    expect(await nested.text()).toContain('Unknown action');
    const cancelled = await fetch(`${billingPage}/subscriptions/${subscriptionId}`, form({ action: 'cancel' }));
    expect(cancelled.status).toBe(303);
    const after = await until(() => billing(user), (b) => b.subscriptions[0]!.cancelAt !== null, 'the cancel date');
    expect(after.subscriptions[0]!.status).toBe('active');
  });

  it('refuses a checkout outside the spec’s rules before anything is recorded', async () => {
    const user = await registerUser(server);
    for (const data of [
      { plan: 'basic', interval: 'monthly', quantity: 0 },
      { plan: 'basic', interval: 'monthly', quantity: 1001 },
      { plan: 'basic', interval: 'monthly', quantity: 2.5 },
      { plan: 'basic', interval: 'weekly', quantity: 1 },
      { plan: 'gold', interval: 'monthly', quantity: 1 },
    ]) {
      const answer = await call(server, 'startCheckout', data, user);
      expect(answer.status, JSON.stringify(data)).toBe(400);
    }
    expect(await server.services.store.readStream(streams.customer(user.uid)).catch(() => [])).toHaveLength(0);
  });

  it('verifies webhook signatures on the raw body and records each Stripe event once', async () => {
    const post = (payload: string, signature: string) =>
      fetch(`${server.url}/api/stripe/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body: payload });
    const payload = JSON.stringify(stripeEvent('customer.created', { id: 'cus_unknown', object: 'customer' }, new Date()));
    const secret = keys().webhookSecret;
    const signature = signWebhook(payload, secret);
    const first = await post(payload, signature);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ received: true });
    expect(await (await post(payload, signature)).json()).toEqual({ received: true, duplicate: true });
    // Changed by one character after signing.
    expect((await post(payload.replace('cus_unknown', 'cus_unknowN'), signature)).status).toBe(400);
    // Signed with another secret, or with the constant the local test Stripe once had in its source.
    expect((await post(payload, signWebhook(payload, 'whsec_someone_else'))).status).toBe(400);
    expect((await post(payload, signWebhook(payload, 'whsec_mapfold_local_test_checkout'))).status).toBe(400);
    // Signed ten minutes ago, or dated ten minutes ahead: outside the 5-minute tolerance either way.
    const seconds = Math.floor(Date.now() / 1000);
    for (const signedAt of [seconds - 600, seconds + 600, seconds + 310]) {
      const refused = await post(payload.replace('cus_unknown', `cus_at_${signedAt}`), signWebhook(payload.replace('cus_unknown', `cus_at_${signedAt}`), secret, signedAt));
      expect(refused.status, `signed at ${signedAt - seconds} s`).toBe(400);
      expect(await refused.json()).toEqual({ error: { status: 'INVALID_ARGUMENT', message: 'Webhook signature verification failed.' } });
    }
    // A little ahead (clocks differ) is still fine.
    const ahead = payload.replace('evt_', 'evt_ahead_');
    expect((await post(ahead, signWebhook(ahead, secret, seconds + 60))).status).toBe(200);
    expect((await fetch(`${server.url}/api/stripe/webhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: payload })).status).toBe(400);
    // Each refused delivery is counted for the operators.
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(Number(/mapfold_webhook_failures_total\{provider="stripe"\} (\d+)/.exec(metrics)?.[1])).toBeGreaterThanOrEqual(6);
  });

  it('serves the local test Stripe’s API only to its own key', async () => {
    const path = `${server.url}/local-stripe/v1/subscriptions/sub_nothing`;
    expect((await fetch(path)).status).toBe(401);
    expect((await fetch(path, { headers: { authorization: 'Bearer sk_live_someone' } })).status).toBe(401);
    // The key it once had as a constant in its source opens nothing now.
    expect((await fetch(path, { headers: { authorization: 'Bearer sk_test_mapfold_local' } })).status).toBe(401);
    const missing = await fetch(path, { headers: { authorization: `Bearer ${keys().apiKey}` } });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
    // Its pages take form posts from this site only.
    const crossSite = await fetch(`${server.url}/local-stripe/checkout/cs_test_x/complete`, { method: 'POST', headers: { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' }, body: 'quantity=1' });
    expect(crossSite.status).toBe(403);
  });

  it('answers a form its schema refuses as Stripe does, naming the param', async () => {
    const create = (body: string) =>
      fetch(`${server.url}/local-stripe/v1/checkout/sessions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${keys().apiKey}`, 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
    const valid = 'mode=subscription&line_items[0][price]=price_basic_monthly&line_items[0][quantity]=2&success_url=https://a.example/ok&cancel_url=https://a.example/no';
    const created = await create(`${valid}&metadata[uid]=u1&automatic_tax[enabled]=true`);
    expect(created.status).toBe(200);
    expect(await created.json()).toMatchObject({ object: 'checkout.session', metadata: { uid: 'u1' }, automatic_tax: { enabled: true }, line_items: { quantity: 2 } });
    for (const [body, param, message] of [
      [valid.replace('quantity]=2', 'quantity]=0'), 'line_items[0][quantity]', /^Invalid line_items\[0\]\[quantity\]: quantity must be a whole number/],
      [valid.replace('&success_url=https://a.example/ok', ''), 'success_url', /^Missing required param: success_url\.$/],
      [valid.replace('mode=subscription', 'mode=payment'), 'mode', /only subscription mode/],
      [valid.replace('line_items[0][price]=price_basic_monthly', 'line_items[0][price]=price_nothing'), 'line_items[0][price]', /^No such price: 'price_nothing'$/],
      [`${valid}&subscription_data[metadata][uid][a]=b`, 'subscription_data[metadata]', /metadata must be a map of strings/],
    ] as const) {
      const refused = await create(body);
      expect(refused.status, param).toBe(400);
      const answer = (await refused.json()) as { error: { type: string; message: string; param: string } };
      expect(answer.error, param).toMatchObject({ type: 'invalid_request_error', param });
      expect(answer.error.message, param).toMatch(message);
    }
  });

  it('ends in the same state whether 40 subscription events arrive in order, shuffled or twice', async () => {
    const store = await LocalStripeStore.open(server.services.db);
    const [price] = localPrices(server.services.config.stripe.prices);
    const users = [await registerUser(server), await registerUser(server), await registerUser(server)];
    const finals = [];
    for (const [index, user] of users.entries()) {
      const customer = `cus_order_${index}_${Date.now()}`;
      await store.put({ id: customer, object: 'customer' });
      let subscription = subscriptionObject({ customer, price: price!, quantity: 1, metadata: { uid: user.uid }, now: new Date('2026-11-01T00:00:00Z') });
      const events: Record<string, unknown>[] = [];
      for (let step = 1; step <= 40; step++) {
        subscription = { ...subscription, items: { ...(subscription.items as object), data: [{ ...(subscription.items as any).data[0], quantity: 1 + (step % 17) }] } };
        if (step === 30) subscription = { ...subscription, cancel_at: 1_900_000_000, cancel_at_period_end: true };
        await store.put(subscription);
        events.push(stripeEvent(step === 1 ? 'customer.subscription.created' : 'customer.subscription.updated', subscription, new Date(Date.now() + step * 1000)));
      }
      const deliveries = index === 0 ? events : index === 1 ? shuffle(events, 7) : shuffle([...events, ...events.slice(0, 16)], 11);
      let last = '';
      for (const event of deliveries) {
        const payload = JSON.stringify(event);
        const response = await fetch(`${server.url}/api/stripe/webhook`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'stripe-signature': signWebhook(payload, keys().webhookSecret) },
          body: payload,
        });
        expect(response.status).toBe(200);
        last = String(event.id);
      }
      const recorded = await server.services.store.readStream(streams.stripeEvent(last));
      await server.app.billingReactor.waitFor(recorded[0]!.position);
      await until(() => billing(user), (b) => b.subscriptions[0]?.quantity === 1 + (40 % 17), 'the final quantity');
      const { id: _id, ...view } = (await billing(user)).subscriptions[0]!;
      finals.push(view);
    }
    expect(finals[0]).toMatchObject({ quantity: 1 + (40 % 17), cancelAt: new Date(1_900_000_000 * 1000).toISOString(), status: 'active' });
    expect(finals[1]).toEqual(finals[0]);
    expect(finals[2]).toEqual(finals[0]);
  });

  it('refuses a Stripe customer named for a second user: both users’ billing stays right and new checkouts still appear', async () => {
    const store = await LocalStripeStore.open(server.services.db);
    const [price] = localPrices(server.services.config.stripe.prices);
    const owner = await registerUser(server);
    const intruder = await registerUser(server);
    await subscribe(owner, 'basic', 2);
    const ownerBefore = await billing(owner);
    const intruderBefore = await billing(intruder);
    const customerId = (await readCustomer(server.services.db, owner.uid))!.customerId!;
    const failures = async () => Number(/mapfold_webhook_failures_total\{provider="stripe"\} (\d+)/.exec(await (await fetch(`${server.url}/metrics`)).text())?.[1] ?? 0);
    const failuresBefore = await failures();

    // Given two signed Stripe events that name the owner's Stripe customer for another user:
    // a completed checkout and a new subscription with the other user in its metadata.
    const sneaky = subscriptionObject({ customer: customerId, price: price!, quantity: 5, metadata: { uid: intruder.uid }, now: new Date() });
    await store.put(sneaky);
    const checkout = { id: 'cs_test_sneaky', object: 'checkout.session', client_reference_id: intruder.uid, metadata: { uid: intruder.uid }, customer: customerId, subscription: sneaky.id };
    const events = [stripeEvent('checkout.session.completed', checkout, new Date()), stripeEvent('customer.subscription.created', sneaky, new Date())];
    for (const event of events) expect((await deliver(event)).status).toBe(200);
    await reacted(events);

    // Then neither user's billing changed, the refusals are on the record, and billing goes on.
    const newcomer = await registerUser(server);
    await subscribe(newcomer, 'professional', 1);
    expect(await billing(owner)).toEqual(ownerBefore);
    expect(await billing(intruder)).toEqual(intruderBefore);
    expect(await readCustomer(server.services.db, intruder.uid)).toBeNull();
    const binding = await server.services.store.readStream(streams.stripeCustomer(customerId));
    expect(binding.map((event) => [event.type, (event.data as { uid: string }).uid])).toEqual([
      ['StripeCustomerClaimed', owner.uid],
      ['StripeCustomerClaimRefused', intruder.uid],
      ['StripeCustomerClaimRefused', intruder.uid],
    ]);
    expect(await failures()).toBe(failuresBefore + 2);
  });

  it('publishes only registered maps into free slots, and unpublishes the newest when slots shrink', async () => {
    const owner = await registerUser(server);
    const first = await ok('createMap', { title: 'Harbour Market' }, owner);
    const second = await ok('createMap', { title: 'Old Town' }, owner);
    const listState = async (id: string) => {
      const { rows } = await server.services.db.query<{ state: number; subscribed: boolean }>('SELECT state, subscribed FROM maps_list WHERE id = $1', [id]);
      return rows[0];
    };

    // No licence: slots only work with registered maps.
    let answer = await call(server, 'publishMap', { mapId: first, plan: 'professional' }, owner);
    expect(answer.status).toBe(403);
    expect(answer.body.error.message).toMatch(/registered maps/);

    // A licence: 6 months of Basic at once, without a slot. The embedded default has no
    // marketplace token: the code is accepted as a local test, unverified, and the client is told so.
    const licence = await ok('registerLicence', { mapId: first, purchaseCode: CODE_A.toUpperCase() }, owner);
    expect(licence.verified).toBe(false);
    expect((await (await fetch(`${server.url}/api/client-config`)).json()).result.licences).toEqual({ mode: 'local' });
    expect(new Date(licence.basicUntil).getTime() - Date.now()).toBeGreaterThan(180 * 24 * 3600 * 1000 - 5 * 24 * 3600 * 1000);
    expect(await listState(first)).toEqual({ state: 1, subscribed: false });
    // One code serves one map.
    answer = await call(server, 'registerLicence', { mapId: second, purchaseCode: CODE_A }, owner);
    expect(answer.status).toBe(409);
    answer = await call(server, 'registerLicence', { mapId: second, purchaseCode: 'not-a-code' }, owner);
    expect(answer.status).toBe(400);
    await ok('registerLicence', { mapId: second, purchaseCode: CODE_B }, owner);

    // Pro slots need a Pro subscription.
    answer = await call(server, 'publishMap', { mapId: first, plan: 'professional' }, owner);
    expect(answer.status).toBe(403);
    expect(answer.body.error.message).toMatch(/no Professional subscription/);

    const subscriptionId = await subscribe(owner, 'professional', 2);
    await ok('publishMap', { mapId: first, plan: 'professional' }, owner);
    await ok('publishMap', { mapId: second, plan: 'professional' }, owner);
    expect(await listState(first)).toEqual({ state: 3, subscribed: true });
    expect((await billing(owner)).slots.pro).toEqual({ used: 2, total: 2 });

    // Down to one slot in the billing page: the most recently published map goes back.
    const billingPage = await portal(owner);
    await fetch(`${billingPage}/subscriptions/${subscriptionId}`, form({ action: 'quantity', quantity: '1' }));
    const shrunk = await until(() => billing(owner), (b) => b.notices.length === 1, 'the unpublish notice');
    expect(shrunk.notices[0]).toMatchObject({ mapId: second, title: 'Old Town' });
    expect(shrunk.notices[0]!.reason).toBe('your Professional subscription now has 1 slot, and this map was published most recently.');
    // Its licence still gives it Basic: it stays live on the licence, out of the slot.
    await until(() => listState(second), (row) => row?.subscribed === false, 'the map out of its slot');
    expect(await listState(second)).toEqual({ state: 1, subscribed: false });
    expect(await listState(first)).toEqual({ state: 3, subscribed: true });

    // No slot free now.
    answer = await call(server, 'publishMap', { mapId: second, plan: 'professional' }, owner);
    expect(answer.status).toBe(429);

    // Unpublish by hand frees the slot.
    await ok('unpublishMap', { mapId: first }, owner);
    expect(await listState(first)).toEqual({ state: 0, subscribed: false });
    expect((await billing(owner)).slots.pro).toEqual({ used: 0, total: 1 });

    // A deleted map gives its slot back.
    await ok('publishMap', { mapId: second, plan: 'professional' }, owner);
    expect((await billing(owner)).slots.pro).toEqual({ used: 1, total: 1 });
    await ok('deleteMap', { id: second }, owner);
    await until(() => billing(owner), (b) => b.slots.pro.used === 0, 'the slot of the deleted map');
    // The stripeRole claim follows the subscription.
    const me = await (await fetch(`${server.url}/api/auth/me`, { headers: { cookie: owner.cookie } })).json() as any;
    expect(JSON.stringify(me)).toContain('"stripeRole":"professional"');
  });

  it('ends a licence’s Basic usage after 6 months: the map goes back to a test map, once, with a notice', async () => {
    const owner = await registerUser(server);
    const mapId = await ok('createMap', { title: 'Seasonal fair' }, owner);
    const { basicUntil } = await ok('registerLicence', { mapId, purchaseCode: '3d4e5f6a-7b8c-4d9e-8f0a-1b2c3d4e5f6a' }, owner);
    const deps = { store: server.services.store, db: server.services.db, ids: server.services.ids };
    const state = async () => (await server.services.db.query<{ state: number }>('SELECT state FROM maps_list WHERE id = $1', [mapId])).rows[0]!.state;
    // A day before the end nothing happens.
    await expireLicences(deps, new Date(new Date(basicUntil).getTime() - 24 * 3600 * 1000), () => server.services.ids.uuid());
    expect(await state()).toBe(1);
    const after = new Date(new Date(basicUntil).getTime() + 1000);
    await expireLicences(deps, after, () => server.services.ids.uuid());
    await until(state, (value) => value === 0, 'the map back to a test map');
    await expireLicences(deps, after, () => server.services.ids.uuid());
    const snapshot = await until(() => billing(owner), (b) => b.notices.length > 0, 'the notice');
    expect(snapshot.notices).toEqual([expect.objectContaining({ mapId, title: 'Seasonal fair', reason: expect.stringMatching(/6 months of Basic ended/) })]);
    expect(snapshot.licences).toEqual([expect.objectContaining({ mapId, verified: false, basicUntil })]);
  });

  it('lets nobody touch another user’s maps, subscription or billing topic', async () => {
    const owner = await registerUser(server);
    const other = await registerUser(server);
    const mapId = await ok('createMap', { title: 'Private map' }, owner);
    for (const [name, data] of [
      ['publishMap', { mapId, plan: 'basic' }],
      ['unpublishMap', { mapId }],
      ['registerLicence', { mapId, purchaseCode: '2c3d4e5f-6a7b-4c8d-8e9f-1a2b3c4d5e6f' }],
    ] as const) {
      expect((await call(server, name, data, other)).status, name).toBe(403);
      expect((await call(server, name, data)).status, name).toBe(401);
    }
    expect((await call(server, 'startCheckout', { plan: 'basic', interval: 'monthly', quantity: 1 })).status).toBe(401);
    expect((await call(server, 'createPortalLink', { returnUrl: '/maps' })).status).toBe(401);
    // No customer yet: nothing to manage.
    expect((await call(server, 'createPortalLink', { returnUrl: '/maps#subscribe' }, other)).status).toBe(404);
    // The portal only returns to this site.
    expect((await call(server, 'createPortalLink', { returnUrl: 'https://evil.example/' }, owner)).status).toBe(400);
    // An admin may publish any map, without slots.
    await ok('publishMap', { mapId, plan: 'professional' }, admin);
    const { rows } = await server.services.db.query<{ state: number }>('SELECT state FROM maps_list WHERE id = $1', [mapId]);
    expect(rows[0]!.state).toBe(3);
  });

  it('follows only one’s own billing topic', async () => {
    const owner = await registerUser(server);
    const other = await registerUser(server);
    const live = await openLive(server, other);
    live.send({ v: 2, type: 'subscribe', topic: `billing:${other.uid}` });
    const own = await live.next((m) => m.type === 'snapshot' && m.topic === `billing:${other.uid}`);
    expect(own).toMatchObject({ data: { kind: 'billing', billing: { slots: { test: { used: 0, total: 2 } } } } });
    live.send({ v: 2, type: 'subscribe', topic: `billing:${owner.uid}` });
    const foreign = await live.next((m) => m.type === 'error' && m.topic === `billing:${owner.uid}`);
    expect(foreign).toMatchObject({ code: 'permission-denied' });
    live.close();
  });
});

describe('billing against a Stripe that fails, and a marketplace that answers', () => {
  let stripe: FastifyInstance;
  let marketplace: FastifyInstance;
  let server: TestServer;
  let failure: { status: number; type: string; message: string } | null = null;

  beforeAll(async () => {
    // A separate fake Stripe HTTP server, reached through the SDK's host/port options.
    stripe = Fastify();
    const store = await LocalStripeStore.open(await openTestPGlite());
    await stripe.register(async (scope) =>
      localStripeApi(scope, { store, prices: localPrices(loadConfig({}).stripe.prices), pagesBase: 'http://fake-stripe.test', apiKey: 'sk_test_fake', failNext: () => failure }),
    );
    await stripe.listen({ port: 0, host: '127.0.0.1' });
    marketplace = Fastify();
    marketplace.get('/v3/market/author/sale', async (request, reply) => {
      if (request.headers.authorization !== 'Bearer envato-token') return reply.code(401).send({ error: 'bad token' });
      const { code } = request.query as { code: string };
      if (code === CODE_A) return { amount: '19.00', item: { name: 'Mapfold Interactive Maps' }, supported_until: null };
      return reply.code(404).send({ error: 404, description: 'No sale belonging to the current user found with that code' });
    });
    await marketplace.listen({ port: 0, host: '127.0.0.1' });
    const address = (app: FastifyInstance) => `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    server = await startTestServer(databaseTargets[0]!, {
      env: {
        STRIPE_SECRET_KEY: 'sk_test_fake',
        STRIPE_WEBHOOK_SECRET: 'whsec_fake_endpoint',
        STRIPE_API_URL: address(stripe),
        ENVATO_TOKEN: 'envato-token',
        ENVATO_API_URL: address(marketplace),
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await stripe?.close();
    await marketplace?.close();
  });

  it('shows Stripe’s error when the checkout session cannot be made, and its url when it can', async () => {
    const user = await registerUser(server);
    failure = { status: 400, type: 'invalid_request_error', message: 'Tax ID collection requires updating business name on the customer.' };
    const { body } = await call(server, 'startCheckout', { plan: 'professional', interval: 'yearly', quantity: 12 }, user);
    const failed = await until(
      () => billingSnapshot(server.services.db, user.uid, false),
      (b) => b.checkoutSessions[0]?.status === 'failed',
      'the failed session',
    );
    expect(failed.checkoutSessions[0]).toMatchObject({ id: body.result.sessionId, url: null, error: failure.message });
    failure = null;
    await call(server, 'startCheckout', { plan: 'professional', interval: 'yearly', quantity: 12 }, user);
    const ready = await until(
      () => billingSnapshot(server.services.db, user.uid, false),
      (b) => b.checkoutSessions[0]?.status === 'ready',
      'the session url',
    );
    expect(ready.checkoutSessions[0]!.url).toMatch(/^http:\/\/fake-stripe\.test\/checkout\/cs_test_/);
    // Without the local test Stripe, its API is not served (the path falls to the client app).
    expect((await fetch(`${server.url}/local-stripe/v1/subscriptions/sub_1`, { headers: { authorization: 'Bearer sk_test_fake' } })).headers.get('content-type')).not.toMatch(/json/);
  });

  it('checks purchase codes with the marketplace when a token is set', async () => {
    const user = await registerUser(server);
    const first = (await call(server, 'createMap', { title: 'Verified' }, user)).body.result;
    const second = (await call(server, 'createMap', { title: 'Unknown code' }, user)).body.result;
    const answer = await call(server, 'registerLicence', { mapId: first, purchaseCode: CODE_A }, user);
    expect(answer.status).toBe(200);
    expect(answer.body.result.verified).toBe(true);
    const refused = await call(server, 'registerLicence', { mapId: second, purchaseCode: CODE_B }, user);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/not valid/);
  });
});

describe('purchase codes in production without a marketplace token', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(databaseTargets[0]!, { env: { NODE_ENV: 'production' } });
  });
  afterAll(() => server?.close());

  it('refuses every code with the clear message, records nothing, and tells the client', async () => {
    const owner = await registerUser(server);
    const created = await call(server, 'createMap', { title: 'Production map' }, owner);
    const mapId = created.body.result as string;
    // The maps list has the new map before it is read below (CI once read it before its projection had).
    await projected(server, created.body.position);
    const refused = await call(server, 'registerLicence', { mapId, purchaseCode: CODE_A }, owner);
    expect(refused.status).toBe(503);
    expect(refused.body.error.message).toBe(LICENCES_NOT_CONFIGURED);
    // Nothing recorded: no licence stream, no licence, the map still a test map.
    expect(await server.services.store.readStream(streams.licence(CODE_A))).toEqual([]);
    expect(await licenceOfMap(server.services.db, mapId)).toBeNull();
    const { rows } = await server.services.db.query<{ state: number }>('SELECT state FROM maps_list WHERE id = $1', [mapId]);
    expect(rows[0]?.state).toBe(0);
    // So the Publish panel says so before a code is typed.
    expect((await (await fetch(`${server.url}/api/client-config`)).json()).result.licences).toEqual({ mode: 'off' });
  });
});
