/**
 * One poisoned event must not stop the billing reactor, whose every later checkout and webhook
 * waits behind it: through the real app, the real webhook route and the local test Stripe on
 * both databases. A correctly signed subscription event without `items` is applied (as no
 * item) instead of failing; an event the reactor truly cannot handle sets its customer's stream
 * aside, the other customers' checkouts after it are answered, and /api/ready and /metrics
 * name the billing reactor and the stream.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streams } from '../../events/streams.js';
import { listSetAsideStreams } from '../../projections/set-aside-streams.js';
import { BILLING_REACTOR } from '../../server/billing/billing-reactor.js';
import { signWebhook, stripeEvent } from '../../server/billing/local-stripe/local-webhooks.js';
import { databaseTargets } from '../support/databases.js';
import { call, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';
import { newEvent } from '../support/events.js';

describe.each(databaseTargets)('a poisoned event and the billing reactor on $name', (target) => {
  let server: TestServer;

  beforeAll(async () => {
    // Quick retries, so a poisoned event is parked in milliseconds.
    server = await startTestServer(target, { reactorRetry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 5 } });
  });
  afterAll(() => server?.close());

  const customerEvents = async (user: TestUser) => server.services.store.readStream(streams.customer(user.uid));

  /** Starts a checkout and waits until the billing reactor has handled its request; answers the customer's events then. */
  async function checkoutAnswered(user: TestUser) {
    const answer = await call(server, 'startCheckout', { plan: 'basic', interval: 'monthly', quantity: 1 }, user);
    expect(answer.status).toBe(200);
    const requested = (await customerEvents(user)).find((event) => event.type === 'CheckoutRequested' && (event.data as { sessionId: string }).sessionId === answer.body.result.sessionId);
    // Before the fix this never resolved: the reactor retried the poisoned event forever (the test times out).
    await server.app.billingReactor.waitFor(requested!.position);
    return customerEvents(user);
  }

  /** Signs an event with this installation's webhook secret, as Stripe would, and posts it to the real route. */
  async function deliver(event: Record<string, unknown>) {
    const payload = JSON.stringify(event);
    const response = await fetch(`${server.url}/api/stripe/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signWebhook(payload, server.services.localStripe!.webhookSecret) },
      body: payload,
    });
    expect(response.status).toBe(200);
  }

  it('a signed customer.subscription.updated without items is applied as no item, and a later checkout is answered', async () => {
    // Given a user, and a correctly signed subscription event for them whose object has no `items`.
    const user = await registerUser(server);
    const subscriptionId = `sub_without_items_${target.name}`;
    const event = stripeEvent(
      'customer.subscription.updated',
      { id: subscriptionId, object: 'subscription', customer: `cus_without_items_${target.name}`, status: 'active', metadata: { uid: user.uid } },
      new Date(),
    );

    // When it arrives through the webhook route, and the user then starts a checkout.
    await deliver(event);
    const events = await checkoutAnswered(user);

    // Then the checkout is answered, the subscription is recorded as one with no item (no plan
    // we know, quantity 0: no slot), and nothing was parked.
    expect(events.map((recorded) => recorded.type)).toContain('CheckoutSessionCreated');
    const synced = events.find((recorded) => recorded.type === 'SubscriptionSynced');
    expect(synced?.data).toMatchObject({ subscription: { id: subscriptionId, plan: null, quantity: 0, status: 'active', priceId: '', product: '' } });
    expect(await listSetAsideStreams(server.services.db, [BILLING_REACTOR])).toEqual([]);
  });

  it('sets aside the customer of an event the reactor cannot handle, answers the other checkouts after it, and /api/ready and /metrics name it', async () => {
    // Given a customer whose stream no longer folds (an event the customer decider cannot
    // read), with a checkout request after it: every attempt to answer it fails.
    const victim = await registerUser(server);
    const poison = newEvent('CheckoutRequested', {
      sessionId: 'poisoned-session',
      uid: victim.uid,
      email: 'victim@example.com',
      plan: 'basic',
      interval: 'monthly',
      quantity: 1,
      at: new Date().toISOString(),
    });
    await server.services.store.append(streams.customer(victim.uid), [newEvent('SubscriptionSynced', { not: 'a subscription' }), poison], 'no_stream');

    // When someone else starts a checkout after it.
    const other = await registerUser(server);
    const events = await checkoutAnswered(other);

    // Then their checkout is answered, and only the victim's stream is set aside, at the poisoned request, under the reactor's name.
    expect(events.map((recorded) => recorded.type)).toContain('CheckoutSessionCreated');
    expect(await listSetAsideStreams(server.services.db, [BILLING_REACTOR])).toEqual([
      expect.objectContaining({ projection: BILLING_REACTOR, stream: streams.customer(victim.uid), eventId: poison.id, type: 'CheckoutRequested', attempts: 3 }),
    ]);

    // /api/ready (from this machine) says degraded and names the billing reactor, with its dead letter.
    const ready = await fetch(`${server.url}/api/ready`);
    expect(ready.status).toBe(200);
    const body = (await ready.json()) as Record<string, any>;
    expect(body.status).toBe('degraded');
    expect(body.degraded).toContain(BILLING_REACTOR);
    expect(body.reactors[BILLING_REACTOR]).toMatchObject({ parked: 0, setAside: [expect.objectContaining({ stream: streams.customer(victim.uid), eventId: poison.id })] });
    expect(body.setAside).toContainEqual(expect.objectContaining({ by: BILLING_REACTOR, stream: streams.customer(victim.uid), eventId: poison.id }));
    expect(body.projections).not.toHaveProperty(BILLING_REACTOR);
    // A caller from elsewhere gets the status alone.
    const remote = await server.app.inject({ method: 'GET', url: '/api/ready', remoteAddress: '203.0.113.9' });
    expect(remote.json()).toEqual({ status: 'degraded' });
    // /metrics counts it.
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toContain(`mapfold_reactor_set_aside_streams{reactor="${BILLING_REACTOR}"} 1`);
    expect(metrics).toContain(`mapfold_reactor_set_aside_stream{reactor="${BILLING_REACTOR}",stream="${streams.customer(victim.uid)}"} 1`);
  });
});
