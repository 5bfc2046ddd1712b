/**
 * The customer decider, given/when/then: slots need a licence and a subscription with room,
 * shrinking subscriptions release the most recently published maps, and repeated outcomes
 * (a reactor running twice) change nothing.
 */
import { describe, expect, it } from 'vitest';
import type { SubscriptionView } from '../../events/billing-api.js';
import { decideCustomer, evolveCustomer, initialCustomerState, SLOTS_NEED_LICENCE, type CustomerCommand, type CustomerEvent, type CustomerState } from '../../events/customer.js';
import { DomainError } from '../../events/errors.js';

const now = new Date('2026-11-23T10:00:00Z');
const given = (...events: CustomerEvent[]): CustomerState => events.reduce(evolveCustomer, initialCustomerState);
const when = (state: CustomerState, command: CustomerCommand) => decideCustomer(command, state, now);
const at = now.toISOString();

const subscription = (overrides: Partial<SubscriptionView> = {}): SubscriptionView => ({
  id: 'sub_1',
  plan: 'professional',
  status: 'active',
  quantity: 2,
  cancelAt: null,
  product: 'prod_mapfold_professional',
  priceId: 'price_professional_monthly',
  interval: 'monthly',
  currentPeriodEnd: '2026-12-23T10:00:00.000Z',
  ...overrides,
});
const synced = (view: SubscriptionView): CustomerEvent => ({ type: 'SubscriptionSynced', data: { customerId: 'cus_1', subscription: view } });
const assigned = (mapId: string): CustomerEvent => ({ type: 'SlotAssigned', data: { mapId, plan: 'professional', at } });

function refusal(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('customer decider', () => {
  it('puts only licensed maps in slots, and only while the plan has room', () => {
    const state = given(synced(subscription()), assigned('a'));
    expect(refusal(() => when(state, { type: 'AssignSlot', data: { mapId: 'b', plan: 'professional', licensed: false } }))).toMatchObject({ code: 'permission-denied', message: SLOTS_NEED_LICENCE });
    expect(when(state, { type: 'AssignSlot', data: { mapId: 'b', plan: 'professional', licensed: true } })).toEqual([{ type: 'SlotAssigned', data: { mapId: 'b', plan: 'professional', at } }]);
    const full = given(synced(subscription()), assigned('a'), assigned('b'));
    expect(refusal(() => when(full, { type: 'AssignSlot', data: { mapId: 'c', plan: 'professional', licensed: true } })).code).toBe('resource-exhausted');
    expect(refusal(() => when(full, { type: 'AssignSlot', data: { mapId: 'c', plan: 'basic', licensed: true } })).message).toMatch(/no Basic subscription/);
    // Already in that slot: nothing to do.
    expect(when(full, { type: 'AssignSlot', data: { mapId: 'a', plan: 'professional', licensed: true } })).toEqual([]);
  });

  it('counts only active or trialing subscriptions', () => {
    const state = given(synced(subscription({ status: 'past_due' })));
    expect(refusal(() => when(state, { type: 'AssignSlot', data: { mapId: 'a', plan: 'professional', licensed: true } })).code).toBe('permission-denied');
    const trialing = given(synced(subscription({ status: 'trialing' })));
    expect(when(trialing, { type: 'AssignSlot', data: { mapId: 'a', plan: 'professional', licensed: true } })).toHaveLength(1);
  });

  it('releases the most recently published maps beyond a smaller quantity, newest first, with the reason', () => {
    const state = given(synced(subscription({ quantity: 3 })), assigned('oldest'), assigned('middle'), assigned('newest'));
    const events = when(state, { type: 'SyncSubscription', data: { customerId: 'cus_1', subscription: subscription({ quantity: 1 }), titles: { newest: 'Newest', middle: 'Middle' } } });
    expect(events.map((event) => event.type)).toEqual(['SubscriptionSynced', 'SlotReleased', 'SlotReleased']);
    expect(events.slice(1).map((event) => (event.type === 'SlotReleased' ? [event.data.mapId, event.data.title] : null))).toEqual([
      ['newest', 'Newest'],
      ['middle', 'Middle'],
    ]);
    const after = events.reduce(evolveCustomer, state);
    expect(after.slots.map((slot) => slot.mapId)).toEqual(['oldest']);
    expect(after.notices.map((notice) => notice.mapId)).toEqual(['middle', 'newest']);
  });

  it('releases every slot of a plan whose subscription ended', () => {
    const state = given(synced(subscription()), assigned('a'));
    const events = when(state, { type: 'SyncSubscription', data: { customerId: 'cus_1', subscription: subscription({ status: 'canceled' }), titles: {} } });
    expect(events[1]).toMatchObject({ type: 'SlotReleased', data: { mapId: 'a', cause: 'subscription', reason: 'your Professional subscription ended.' } });
  });

  it('records the same subscription state, a checkout answer or a licence end only once', () => {
    const state = given(synced(subscription()));
    expect(when(state, { type: 'SyncSubscription', data: { customerId: 'cus_1', subscription: subscription(), titles: {} } })).toEqual([]);
    const requested = given({ type: 'CheckoutRequested', data: { sessionId: 's1', uid: 'u', email: 'u@example.com', plan: 'basic', interval: 'monthly', quantity: 3, at } });
    const answered = when(requested, { type: 'RecordCheckoutSession', data: { sessionId: 's1', stripeSessionId: 'cs_1', url: 'https://checkout.example/cs_1' } });
    expect(answered).toHaveLength(1);
    const twice = answered.reduce(evolveCustomer, requested);
    expect(when(twice, { type: 'RecordCheckoutSession', data: { sessionId: 's1', stripeSessionId: 'cs_2', url: 'https://checkout.example/cs_2' } })).toEqual([]);
    expect(when(twice, { type: 'RecordCheckoutFailure', data: { sessionId: 's1', message: 'late' } })).toEqual([]);
    const ended = when(initialCustomerState, { type: 'EndLicenceBasic', data: { mapId: 'm', title: 'Fair', basicUntil: at } });
    expect(ended).toHaveLength(1);
    expect(when(ended.reduce(evolveCustomer, initialCustomerState), { type: 'EndLicenceBasic', data: { mapId: 'm', title: 'Fair', basicUntil: at } })).toEqual([]);
  });
});
