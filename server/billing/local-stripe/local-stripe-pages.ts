/**
 * The local test Stripe's hosted pages: a checkout page and a billing page, clearly labelled
 * as a test where no payment is taken. Completing, changing or cancelling updates the local
 * objects and sends signed, Stripe-shaped webhook events to the product's webhook route, so
 * the product's real billing path runs end to end with no network.
 */
import type { FastifyInstance } from 'fastify';
import { typed, useZodSchemas } from '../../http/zod-routes.js';
import { MAX_QUANTITY, MIN_QUANTITY, PLAN_NAMES } from '../../../events/billing-api.js';
import { localId, subscriptionObject, type LocalPrice } from './local-stripe-api.js';
import type { LocalObject, LocalStripeStore } from './local-stripe-store.js';
import { stripeEvent, type WebhookDelivery, signedDelivery } from './local-webhooks.js';
import { ChangeSubscriptionForm, CompleteCheckoutForm, StripeIdParams, SubscriptionParams } from './local-stripe-schemas.js';
import { parseStripeForm } from './stripe-form.js';
import { renderBillingPage, renderCheckoutPage, renderMessagePage } from './local-stripe-views.js';

export interface LocalStripePagesOptions {
  store: LocalStripeStore;
  prices: LocalPrice[];
  webhookSecret: string;
  /** Hands a signed event to the product's webhook route (in process). */
  deliver(delivery: WebhookDelivery): Promise<void>;
  now?: () => Date;
}

type Item = { quantity: number; current_period_end: number; price: { id: string } };
const itemOf = (subscription: LocalObject) => (subscription.items as { data: Item[] }).data[0]!;

export async function localStripePages(app: FastifyInstance, options: LocalStripePagesOptions): Promise<void> {
  const now = options.now ?? (() => new Date());
  const { store } = options;
  // Its own scope's compilers, like the API's (local-stripe-api.ts).
  useZodSchemas(app);
  const pages = typed(app);
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => done(null, parseStripeForm(String(body))));
  const send = (type: string, object: LocalObject) => options.deliver(signedDelivery(stripeEvent(type, object, now()), options.webhookSecret));
  const priceOf = (id: string) => options.prices.find((price) => price.id === id);

  // The hosted pages are Stripe's, not the product's API: left out of the OpenAPI document.
  pages.get('/checkout/:id', { schema: { hide: true, params: StripeIdParams } }, async (request, reply) => {
    const session = await store.get(request.params.id);
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
    if (!session || session.object !== 'checkout.session') return reply.code(404).send(renderMessagePage('Checkout not found', 'This test checkout does not exist.', null));
    if (session.status !== 'open') {
      return reply.send(renderMessagePage('Checkout already finished', 'This test checkout was completed or cancelled already.', String(session.success_url)));
    }
    const item = session.line_items as { price: string; quantity: number; adjustable: boolean };
    const price = priceOf(item.price);
    if (!price) return reply.code(400).send(renderMessagePage('Unknown price', 'The price of this checkout is not one of the local test prices.', null));
    return reply.send(renderCheckoutPage({ session, price, quantity: item.quantity, adjustable: item.adjustable, planName: PLAN_NAMES[price.plan] }));
  });

  pages.post('/checkout/:id/complete', { schema: { hide: true, params: StripeIdParams, body: CompleteCheckoutForm } }, async (request, reply) => {
    const session = await store.get(request.params.id);
    if (!session || session.object !== 'checkout.session' || session.status !== 'open') return reply.code(404).type('text/html').send(renderMessagePage('Checkout not found', 'This test checkout is not open.', null));
    const item = session.line_items as { price: string; quantity: number; adjustable: boolean };
    const price = priceOf(item.price)!;
    const asked = Number(request.body.quantity ?? item.quantity);
    const quantity = item.adjustable && Number.isInteger(asked) && asked >= MIN_QUANTITY && asked <= MAX_QUANTITY ? asked : item.quantity;
    let customerId = typeof session.customer === 'string' ? session.customer : null;
    if (!customerId) {
      customerId = localId('cus');
      await store.put({ id: customerId, object: 'customer', email: session.customer_email ?? null, livemode: false, created: Math.floor(now().getTime() / 1000) });
    }
    const metadata = ((session.subscription_data as { metadata?: Record<string, string> }).metadata ?? {}) as Record<string, string>;
    const subscription = subscriptionObject({ customer: customerId, price, quantity, metadata, now: now() });
    await store.put(subscription);
    const completed: LocalObject = { ...session, status: 'complete', payment_status: 'paid', customer: customerId, subscription: subscription.id };
    await store.put(completed);
    const invoice: LocalObject = {
      id: localId('in'),
      object: 'invoice',
      customer: customerId,
      status: 'paid',
      amount_paid: price.unitAmount * quantity,
      parent: { type: 'subscription_details', subscription_details: { subscription: subscription.id, metadata } },
      livemode: false,
    };
    // Stripe's order: the subscription first, then the session and its first invoice.
    await send('customer.subscription.created', subscription);
    await send('checkout.session.completed', completed);
    await send('invoice.paid', invoice);
    return reply.code(303).redirect(String(session.success_url));
  });

  pages.post('/checkout/:id/cancel', { schema: { hide: true, params: StripeIdParams } }, async (request, reply) => {
    const session = await store.get(request.params.id);
    if (!session || session.object !== 'checkout.session') return reply.code(404).type('text/html').send(renderMessagePage('Checkout not found', 'This test checkout does not exist.', null));
    if (session.status === 'open') await store.put({ ...session, status: 'expired' });
    return reply.code(303).redirect(String(session.cancel_url));
  });

  pages.get('/billing/:id', { schema: { hide: true, params: StripeIdParams } }, async (request, reply) => {
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
    const portal = await store.get(request.params.id);
    if (!portal || portal.object !== 'billing_portal.session') return reply.code(404).send(renderMessagePage('Billing page not found', 'This test billing link does not exist.', null));
    const subscriptions = await store.subscriptionsOf(String(portal.customer));
    const rows = subscriptions.map((subscription) => {
      const item = itemOf(subscription);
      const price = priceOf(item.price.id);
      return { subscription, item, planName: price ? PLAN_NAMES[price.plan] : item.price.id, price: price ?? null };
    });
    return reply.send(renderBillingPage({ portal, rows }));
  });

  pages.post('/billing/:id/subscriptions/:sub', { schema: { hide: true, params: SubscriptionParams, body: ChangeSubscriptionForm } }, async (request, reply) => {
    const portal = await store.get(request.params.id);
    const subscription = await store.get(request.params.sub);
    if (!portal || portal.object !== 'billing_portal.session' || !subscription || subscription.customer !== portal.customer) {
      return reply.code(404).type('text/html').send(renderMessagePage('Not found', 'This subscription is not part of this billing page.', null));
    }
    const { action } = request.body;
    const item = itemOf(subscription);
    let next: LocalObject;
    let type = 'customer.subscription.updated';
    if (action === 'quantity') {
      const quantity = Number(request.body.quantity);
      if (!Number.isInteger(quantity) || quantity < MIN_QUANTITY || quantity > MAX_QUANTITY) {
        return reply.code(400).type('text/html').send(renderMessagePage('Quantity not valid', `Choose a whole number from ${MIN_QUANTITY} to ${MAX_QUANTITY}.`, `../../${portal.id}`));
      }
      next = { ...subscription, items: { ...(subscription.items as object), data: [{ ...item, quantity }] } };
    } else if (action === 'cancel') {
      next = { ...subscription, cancel_at_period_end: true, cancel_at: item.current_period_end, canceled_at: Math.floor(now().getTime() / 1000) };
    } else if (action === 'resume') {
      next = { ...subscription, cancel_at_period_end: false, cancel_at: null, canceled_at: null };
    } else if (action === 'end') {
      next = { ...subscription, status: 'canceled', ended_at: Math.floor(now().getTime() / 1000), canceled_at: Math.floor(now().getTime() / 1000) };
      type = 'customer.subscription.deleted';
    } else {
      return reply.code(400).type('text/html').send(renderMessagePage('Unknown action', 'Nothing was changed.', `../../${portal.id}`));
    }
    if (subscription.status === 'canceled') {
      return reply.code(400).type('text/html').send(renderMessagePage('Subscription ended', 'An ended subscription cannot be changed.', `../../${portal.id}`));
    }
    await store.put(next);
    await send(type, next);
    return reply.code(303).redirect(`${request.url.split('/subscriptions/')[0]}?changed=${action}`);
  });
}
