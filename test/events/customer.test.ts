/**
 * The customer decider, given/when/then: slots need a licence and a subscription with room,
 * shrinking subscriptions release the most recently published maps, repeated outcomes
 * (a reactor running twice) change nothing, and an older copy of a subscription never
 * replaces a newer one.
 */
import { describe, expect, it } from 'vitest';
import type { SubscriptionView } from '../../events/billing-api.js';
import { decideCustomer, evolveCustomer, initialCustomerState, SLOTS_NEED_LICENCE, type CustomerCommand, type CustomerEvent, type CustomerState } from '../../events/customer.js';
import { DomainError } from '../../events/errors.js';
import type { CopyOrigin } from '../../events/subscription-order.js';

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
const fromEvent = (created: number): CopyOrigin => ({ created, source: 'event' });
const reread = (created: number): CopyOrigin => ({ created, source: 'stripe' });
const synced = (view: SubscriptionView, origin: CopyOrigin = fromEvent(1_000)): CustomerEvent => ({ type: 'SubscriptionSynced', data: { customerId: 'cus_1', subscription: view, origin } });
const sync = (view: SubscriptionView, origin: CopyOrigin): CustomerCommand => ({ type: 'SyncSubscription', data: { customerId: 'cus_1', subscription: view, origin, titles: {} } });
/** Offers each copy in turn, as the reactor does, recording what the decider decides. */
const offer = (state: CustomerState, ...copies: [SubscriptionView, CopyOrigin][]): CustomerState =>
  copies.reduce((current, [view, origin]) => when(current, sync(view, origin)).reduce(evolveCustomer, current), state);
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
    const events = when(state, { type: 'SyncSubscription', data: { customerId: 'cus_1', subscription: subscription({ quantity: 1 }), origin: fromEvent(2_000), titles: { newest: 'Newest', middle: 'Middle' } } });
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
    const events = when(state, sync(subscription({ status: 'canceled' }), fromEvent(2_000)));
    expect(events[1]).toMatchObject({ type: 'SlotReleased', data: { mapId: 'a', cause: 'subscription', reason: 'your Professional subscription ended.' } });
  });

  it('records the same subscription state, a checkout answer or a licence end only once', () => {
    const state = given(synced(subscription()));
    expect(when(state, sync(subscription(), fromEvent(1_000)))).toEqual([]);
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

  describe('copies of a subscription delivered in any order', () => {
    const active = subscription({ quantity: 2 });
    const grown = subscription({ quantity: 5 });
    const canceled = subscription({ status: 'canceled', quantity: 5 });

    it('never lets an older copy in an event replace a newer one', () => {
      const state = given(synced(grown, fromEvent(2_000)));
      expect(when(state, sync(active, fromEvent(1_000)))).toEqual([]);
      expect(when(state, sync(active, fromEvent(2_001)))).toEqual([
        { type: 'SubscriptionSynced', data: { customerId: 'cus_1', subscription: active, origin: fromEvent(2_001) } },
      ]);
    });

    it('keeps a cancelled subscription cancelled, whatever the dates say, and releases its slot in either order', () => {
      const base = given(synced(active, fromEvent(500)), assigned('a'));
      const cancelledLast = offer(base, [grown, fromEvent(1_000)], [canceled, fromEvent(2_000)]);
      const cancelledFirst = offer(base, [canceled, fromEvent(2_000)], [grown, fromEvent(1_000)]);
      // Even a re-read dated later cannot bring it back: Stripe never reopens a cancelled subscription.
      const rereadAfter = offer(cancelledFirst, [grown, reread(3_000)]);
      for (const state of [cancelledLast, cancelledFirst, rereadAfter]) {
        expect(state.subscriptions).toEqual([canceled]);
        expect(state.slots).toEqual([]);
        expect(state.notices.map((notice) => notice.reason)).toEqual(['your Professional subscription ended.']);
      }
    });

    it('takes a re-read over the recorded copy and dates it no earlier, so older event copies stay out', () => {
      const state = given(synced(grown, fromEvent(2_000)));
      // Re-read for an event dated before the recorded copy: still newer (it was read after that copy arrived).
      const events = when(state, sync(active, reread(1_000)));
      expect(events).toEqual([{ type: 'SubscriptionSynced', data: { customerId: 'cus_1', subscription: active, origin: reread(2_000) } }]);
      const after = events.reduce(evolveCustomer, state);
      expect(when(after, sync(grown, fromEvent(2_000)))).toEqual([]);
      expect(when(after, sync(grown, fromEvent(1_500)))).toEqual([]);
      expect(when(after, sync(grown, fromEvent(2_001)))).toHaveLength(1);
    });

    it('orders copies of the same second by phase, period end, then one fixed rule, the same in every order', () => {
      const incomplete = subscription({ status: 'incomplete', quantity: 2 });
      const renewed = subscription({ currentPeriodEnd: '2027-01-23T10:00:00.000Z' });
      const threeSlots = subscription({ quantity: 3 });
      const bothOrders = (first: SubscriptionView, second: SubscriptionView) =>
        [offer(initialCustomerState, [first, fromEvent(1_000)], [second, fromEvent(1_000)]), offer(initialCustomerState, [second, fromEvent(1_000)], [first, fromEvent(1_000)])].map(
          (state) => state.subscriptions,
        );
      expect(bothOrders(incomplete, active)).toEqual([[active], [active]]);
      expect(bothOrders(active, renewed)).toEqual([[renewed], [renewed]]);
      // Nothing in the copies orders these two: either may win, but the same one in both orders.
      const [forward, backward] = bothOrders(active, threeSlots);
      expect(forward).toEqual(backward);
    });

    it('records a copy it already has only once, and keeps subscriptions in one order', () => {
      const state = offer(initialCustomerState, [subscription({ id: 'sub_b' }), fromEvent(1_000)], [subscription({ id: 'sub_a' }), fromEvent(900)]);
      expect(state.subscriptions.map((view) => view.id)).toEqual(['sub_a', 'sub_b']);
      expect(when(state, sync(subscription({ id: 'sub_b' }), fromEvent(1_000)))).toEqual([]);
      // Without a date (recorded before copies were dated), the next copy replaces it, as before.
      const undated = given({ type: 'SubscriptionSynced', data: { customerId: 'cus_1', subscription: grown } });
      expect(when(undated, sync(active, fromEvent(1)))).toHaveLength(1);
    });
  });
});
