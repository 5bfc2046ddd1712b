/**
 * Stripe customers with generated lifecycles, for the webhook property tests: each step is
 * what Stripe's subscription is after it and the events Stripe sends for it, dated on Stripe's
 * clock. A customer buys one or two subscriptions through checkout (which may start
 * `incomplete`), then changes quantity, falls past due and recovers, renews, schedules and
 * undoes a cancellation, and may end cancelled (or expire before it was ever paid).
 */
import fc from 'fast-check';
import { localPrices, subscriptionObject } from '../../server/billing/local-stripe/local-stripe-api.js';
import type { LocalObject } from '../../server/billing/local-stripe/local-stripe-store.js';
import { stripeEvent } from '../../server/billing/local-stripe/local-webhooks.js';
import type { Config } from '../../server/config.js';

export interface StripeStep {
  /** Stripe's clock (Unix seconds); every event of the step is dated so. */
  created: number;
  /** The subscription as Stripe has it after the step. */
  subscription: LocalObject;
  /** What Stripe sends for the step, in the order it sends it. */
  events: Record<string, unknown>[];
}

export interface Lifecycle {
  uid: string;
  customerId: string;
  /** Our checkout session ids, one per subscription bought. */
  sessionIds: string[];
  /** Every subscription's steps, in Stripe's order. */
  steps: StripeStep[];
}

type Change =
  | { kind: 'quantity'; quantity: number }
  | { kind: 'pastDue' }
  | { kind: 'recovered' }
  | { kind: 'renewed' }
  | { kind: 'cancelAtPeriodEnd' }
  | { kind: 'resumed' };

export interface SubscriptionShape {
  interval: 'monthly' | 'yearly';
  quantity: number;
  startsIncomplete: boolean;
  changes: Change[];
  end: 'lives' | 'canceled' | 'expired';
  /** Seconds from one step to the next (at least 1: Stripe's steps of one subscription are apart). */
  gaps: number[];
}

export interface LifecycleShape {
  /** The first subscription's plan; a second one is of the other plan. */
  firstPlan: 'basic' | 'professional';
  subscriptions: SubscriptionShape[];
  /** When the second subscription starts after the first (seconds). */
  secondAfter: number;
}

const changeArb: fc.Arbitrary<Change> = fc.oneof(
  fc.record({ kind: fc.constant('quantity' as const), quantity: fc.integer({ min: 1, max: 9 }) }),
  fc.constant({ kind: 'pastDue' as const }),
  fc.constant({ kind: 'recovered' as const }),
  fc.constant({ kind: 'renewed' as const }),
  fc.constant({ kind: 'cancelAtPeriodEnd' as const }),
  fc.constant({ kind: 'resumed' as const }),
);

const subscriptionShapeArb: fc.Arbitrary<SubscriptionShape> = fc.record({
  interval: fc.constantFrom('monthly' as const, 'yearly' as const),
  quantity: fc.integer({ min: 1, max: 9 }),
  startsIncomplete: fc.boolean(),
  changes: fc.array(changeArb, { maxLength: 6 }),
  end: fc.constantFrom('lives' as const, 'canceled' as const, 'expired' as const),
  gaps: fc.array(fc.integer({ min: 1, max: 3 * 24 * 3600 }), { minLength: 8, maxLength: 8 }),
});

export const lifecycleShapeArb: fc.Arbitrary<LifecycleShape> = fc.record({
  firstPlan: fc.constantFrom('basic' as const, 'professional' as const),
  subscriptions: fc.array(subscriptionShapeArb, { minLength: 1, maxLength: 2 }),
  secondAfter: fc.integer({ min: 0, max: 7 * 24 * 3600 }),
});

const START = 1_800_000_000;

/** Builds the customer `key`'s lifecycle (ids are made from the key, so two keys never share one). */
export function buildLifecycle(key: string, shape: LifecycleShape, prices: Config['stripe']['prices']): Lifecycle {
  const uid = `user-${key}`;
  const customerId = `cus_${key}`;
  const catalogue = localPrices(prices);
  let counter = 0;
  const event = (type: string, object: LocalObject | Record<string, unknown>, created: number) =>
    stripeEvent(type, structuredClone(object), new Date(created * 1000), `evt_${key}_${++counter}`);
  const steps: StripeStep[] = [];
  const sessionIds: string[] = [];

  shape.subscriptions.forEach((sub, index) => {
    const plan = index === 0 ? shape.firstPlan : shape.firstPlan === 'basic' ? 'professional' : 'basic';
    const price = catalogue.find((candidate) => candidate.plan === plan && candidate.interval === sub.interval)!;
    const sessionId = `session-${key}-${index}`;
    const metadata = { uid, plan };
    let t = START + (index === 0 ? 0 : shape.secondAfter);
    let gap = 0;
    const next = () => (t += sub.gaps[gap++ % sub.gaps.length]!);
    let subscription: LocalObject = subscriptionObject({ id: `sub_${key}_${index}`, customer: customerId, price, quantity: sub.quantity, metadata, now: new Date(t * 1000) });
    const invoice = (outcome: 'paid' | 'payment_failed', created: number) =>
      event(
        outcome === 'paid' ? 'invoice.paid' : 'invoice.payment_failed',
        {
          id: `in_${key}_${counter + 1}`,
          object: 'invoice',
          customer: customerId,
          status: outcome === 'paid' ? 'paid' : 'open',
          amount_paid: outcome === 'paid' ? price.unitAmount * itemOf(subscription).quantity : 0,
          amount_due: price.unitAmount * itemOf(subscription).quantity,
          parent: { type: 'subscription_details', subscription_details: { subscription: subscription.id, metadata } },
        },
        created,
      );
    const step = (events: Record<string, unknown>[]) => steps.push({ created: t, subscription: structuredClone(subscription), events });

    // The checkout: the subscription first (perhaps incomplete until paid), then the session and its invoice.
    sessionIds.push(sessionId);
    if (sub.startsIncomplete) subscription = { ...subscription, status: 'incomplete' };
    const opening = [event('customer.subscription.created', subscription, t)];
    if (sub.startsIncomplete && sub.end === 'expired') {
      step(opening);
      next();
      subscription = { ...subscription, status: 'incomplete_expired', ended_at: t };
      step([event('customer.subscription.updated', subscription, t)]);
      return;
    }
    if (sub.startsIncomplete) {
      subscription = { ...subscription, status: 'active' };
      opening.push(event('customer.subscription.updated', subscription, t));
    }
    const session = {
      id: `cs_${key}_${index}`,
      object: 'checkout.session',
      mode: 'subscription',
      status: 'complete',
      client_reference_id: uid,
      metadata: { uid, sessionId },
      customer: customerId,
      subscription: subscription.id,
    };
    opening.push(event('checkout.session.completed', session, t), invoice('paid', t));
    step(opening);

    for (const change of sub.changes) {
      next();
      const item = itemOf(subscription);
      switch (change.kind) {
        case 'quantity':
          subscription = withItem(subscription, { ...item, quantity: change.quantity });
          step([event('customer.subscription.updated', subscription, t)]);
          break;
        case 'pastDue':
          subscription = { ...subscription, status: 'past_due' };
          step([invoice('payment_failed', t), event('customer.subscription.updated', subscription, t)]);
          break;
        case 'recovered':
          subscription = { ...subscription, status: 'active' };
          step([invoice('paid', t), event('customer.subscription.updated', subscription, t)]);
          break;
        case 'renewed': {
          const length = item.current_period_end - item.current_period_start;
          subscription = withItem(subscription, { ...item, current_period_start: item.current_period_end, current_period_end: item.current_period_end + length });
          step([invoice('paid', t), event('customer.subscription.updated', subscription, t)]);
          break;
        }
        case 'cancelAtPeriodEnd':
          subscription = { ...subscription, cancel_at_period_end: true, cancel_at: item.current_period_end, canceled_at: t };
          step([event('customer.subscription.updated', subscription, t)]);
          break;
        case 'resumed':
          subscription = { ...subscription, cancel_at_period_end: false, cancel_at: null, canceled_at: null };
          step([event('customer.subscription.updated', subscription, t)]);
          break;
      }
    }
    if (sub.end !== 'lives') {
      next();
      subscription = { ...subscription, status: 'canceled', canceled_at: t, ended_at: t };
      step([event('customer.subscription.deleted', subscription, t)]);
    }
  });
  // Stripe's order: by time (the steps of one subscription are apart; of two, they may share a second).
  steps.sort((a, b) => a.created - b.created);
  return { uid, customerId, sessionIds, steps };
}

interface Item {
  quantity: number;
  current_period_start: number;
  current_period_end: number;
}

function itemOf(subscription: LocalObject): Item {
  return (subscription.items as { data: Item[] }).data[0]!;
}

function withItem(subscription: LocalObject, item: Item): LocalObject {
  return { ...subscription, items: { ...(subscription.items as object), data: [item] } };
}

/** A small seeded random source (mulberry32), so a failing run can be replayed from its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}
