/**
 * The Stripe customer decider, given/when/then: the first claim binds a Stripe customer to a
 * user for good; a claim for anyone else is refused on the record, once per Stripe event.
 */
import { describe, expect, it } from 'vitest';
import { decideStripeCustomer, evolveStripeCustomer, initialStripeCustomerState, type StripeCustomerEvent } from '../../events/stripe-customer.js';

const now = new Date('2026-11-23T10:00:00Z');
const at = now.toISOString();
const given = (...events: StripeCustomerEvent[]) => events.reduce(evolveStripeCustomer, initialStripeCustomerState);
const claim = (uid: string, stripeEventId: string) => ({ type: 'ClaimStripeCustomer' as const, data: { customerId: 'cus_1', uid, stripeEventId } });

describe('Stripe customer decider', () => {
  it('binds the customer to the first user that claims it', () => {
    expect(decideStripeCustomer(claim('alice', 'evt_1'), initialStripeCustomerState, now)).toEqual([
      { type: 'StripeCustomerClaimed', data: { customerId: 'cus_1', uid: 'alice', at } },
    ]);
  });

  it('accepts further claims by the same user without recording anything', () => {
    const state = given({ type: 'StripeCustomerClaimed', data: { customerId: 'cus_1', uid: 'alice', at } });
    expect(decideStripeCustomer(claim('alice', 'evt_2'), state, now)).toEqual([]);
  });

  it('refuses a claim for another user, once per Stripe event, and stays bound to the first', () => {
    const state = given({ type: 'StripeCustomerClaimed', data: { customerId: 'cus_1', uid: 'alice', at } });
    const refused = decideStripeCustomer(claim('mallory', 'evt_3'), state, now);
    expect(refused).toEqual([{ type: 'StripeCustomerClaimRefused', data: { customerId: 'cus_1', uid: 'mallory', stripeEventId: 'evt_3', at } }]);
    const after = refused.reduce(evolveStripeCustomer, state);
    expect(after.uid).toBe('alice');
    expect(decideStripeCustomer(claim('mallory', 'evt_3'), after, now)).toEqual([]);
    expect(decideStripeCustomer(claim('mallory', 'evt_4'), after, now)).toHaveLength(1);
  });
});
