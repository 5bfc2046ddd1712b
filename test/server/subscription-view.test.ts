/**
 * The gateway's view of a subscription copes with Stripe-shaped oddities in a signed webhook's
 * copy: no `items`, an item without a price, times that are not Unix times. It never throws
 * (that failed the billing reactor on the event): a subscription without an item is one of no
 * plan we know with quantity 0.
 */
import type Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { SubscriptionView } from '../../events/billing-api.js';
import { StripeGateway } from '../../server/billing/stripe-gateway.js';
import { loadConfig } from '../../server/config.js';

const config = loadConfig({});
const gateway = new StripeGateway({ ...config.stripe, mode: 'stripe', secretKey: 'sk_test_views', webhookSecret: 'whsec_views' }, 'http://localhost', () => null);
const base = { id: 'sub_odd', object: 'subscription', status: 'active', customer: 'cus_odd' };
const noItem = { id: 'sub_odd', plan: null, status: 'active', quantity: 0, cancelAt: null, product: '', priceId: '', interval: null, currentPeriodEnd: null };

describe('a subscription’s view', () => {
  it('takes a subscription without items, or with an unusable first item, as one with no item', () => {
    for (const odd of [
      {},
      { items: null },
      { items: {} },
      { items: { data: 'nothing' } },
      { items: { data: [] } },
      { items: { data: [null] } },
      { items: { data: [{}] } },
      { items: { data: [{ price: null, quantity: 'two' }] } },
      { items: { data: [{ price: { product: null } }] } },
      { cancel_at: 1e300, items: { data: [{ current_period_end: 'soon' }] } },
    ]) {
      const view = gateway.viewOf({ ...base, ...odd } as unknown as Stripe.Subscription);
      expect(view, JSON.stringify(odd)).toEqual(noItem);
      expect(SubscriptionView.safeParse(view).success).toBe(true);
    }
  });

  it('reads a well-formed subscription as before', () => {
    const price = { id: config.stripe.prices.basic.monthly, product: { id: 'prod_basic' } };
    const view = gateway.viewOf({ ...base, cancel_at: 1_900_000_000, items: { data: [{ price, quantity: 3, current_period_end: 1_800_000_000 }] } } as unknown as Stripe.Subscription);
    expect(view).toEqual({
      ...noItem,
      plan: 'basic',
      quantity: 3,
      cancelAt: new Date(1_900_000_000_000).toISOString(),
      product: 'prod_basic',
      priceId: config.stripe.prices.basic.monthly,
      interval: 'monthly',
      currentPeriodEnd: new Date(1_800_000_000_000).toISOString(),
    });
  });
});
