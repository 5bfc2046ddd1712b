/**
 * The customer aggregate (stream `customer-{uid}`): one user's checkout sessions, Stripe
 * subscriptions and the slots their maps occupy. Slots are counted here, on one stream, so two
 * publishes at once can never both take the last slot (the append's expected revision decides).
 */
import { z } from 'zod';
import type { Decider } from './decider.js';
import { streams } from './streams.js';
import {
  BillingInterval,
  COUNTING_STATUSES,
  PLAN_NAMES,
  PlanId,
  SubscriptionView,
  type CheckoutSessionView,
  type UnpublishNotice,
} from './billing-api.js';
import { DomainError } from './errors.js';
import { CopyOrigin, isNewerCopy, originAfter, sameView } from './subscription-order.js';

const at = z.iso.datetime({ offset: true });

export const CheckoutRequested = z.object({
  type: z.literal('CheckoutRequested'),
  data: z.object({ sessionId: z.string(), uid: z.string(), email: z.string(), plan: PlanId, interval: BillingInterval, quantity: z.number().int(), at }),
});
export const CheckoutSessionCreated = z.object({
  type: z.literal('CheckoutSessionCreated'),
  data: z.object({ sessionId: z.string(), stripeSessionId: z.string(), url: z.string() }),
});
export const CheckoutSessionFailed = z.object({
  type: z.literal('CheckoutSessionFailed'),
  data: z.object({ sessionId: z.string(), message: z.string() }),
});
/** Stripe says the customer paid: the Stripe customer id is now known for the portal. */
export const CheckoutCompleted = z.object({
  type: z.literal('CheckoutCompleted'),
  data: z.object({ sessionId: z.string().nullable(), stripeSessionId: z.string(), customerId: z.string() }),
});
/**
 * A newer copy of a subscription (re-read from Stripe, or the one in the event), with where it
 * came from and as of when (events/subscription-order.ts; absent in older events).
 */
export const SubscriptionSynced = z.object({
  type: z.literal('SubscriptionSynced'),
  data: z.object({ customerId: z.string(), subscription: SubscriptionView, origin: CopyOrigin.optional() }),
});
export const InvoiceRecorded = z.object({
  type: z.literal('InvoiceRecorded'),
  data: z.object({ invoiceId: z.string(), subscriptionId: z.string().nullable(), outcome: z.enum(['paid', 'payment_failed']), amount: z.number().int(), at }),
});
export const SlotAssigned = z.object({
  type: z.literal('SlotAssigned'),
  data: z.object({ mapId: z.string(), plan: PlanId, at }),
});
export const SlotReleased = z.object({
  type: z.literal('SlotReleased'),
  data: z.object({
    mapId: z.string(),
    plan: PlanId,
    /** owner: unpublished by hand; subscription: the plan's slots shrank below what was in use; deleted: the map was deleted. */
    cause: z.enum(['owner', 'subscription', 'deleted']),
    title: z.string(),
    reason: z.string(),
    at,
  }),
});

/** A licence's 6 months of Basic ended while the map was live on it: the map went back to a test map. */
export const LicenceBasicEnded = z.object({
  type: z.literal('LicenceBasicEnded'),
  data: z.object({ mapId: z.string(), title: z.string(), basicUntil: at, at }),
});

export const CustomerEvent = z.discriminatedUnion('type', [
  LicenceBasicEnded,
  CheckoutRequested,
  CheckoutSessionCreated,
  CheckoutSessionFailed,
  CheckoutCompleted,
  SubscriptionSynced,
  InvoiceRecorded,
  SlotAssigned,
  SlotReleased,
]);
export type CustomerEvent = z.infer<typeof CustomerEvent>;
export const CUSTOMER_EVENT_TYPES: ReadonlySet<string> = new Set(CustomerEvent.options.map((option) => option.shape.type.value));

export interface SlotHolder {
  mapId: string;
  plan: PlanId;
  at: string;
}

export interface CustomerState {
  customerId: string | null;
  sessions: CheckoutSessionView[];
  subscriptions: SubscriptionView[];
  /** Maps in slots, in the order they were published (oldest first). */
  slots: SlotHolder[];
  notices: UnpublishNotice[];
  /** Licences whose Basic period was already ended, as `mapId@basicUntil` (absent in older rows). */
  endedLicences?: string[];
  /** Where each subscription's recorded copy came from, by subscription id (absent in older rows). */
  origins?: Record<string, CopyOrigin>;
}

export const initialCustomerState: CustomerState = { customerId: null, sessions: [], subscriptions: [], slots: [], notices: [], endedLicences: [], origins: {} };

/** How many checkout sessions and notices the customer keeps (the newest). */
export const KEEP_SESSIONS = 20;
export const KEEP_NOTICES = 20;

export function evolveCustomer(state: CustomerState, event: CustomerEvent): CustomerState {
  switch (event.type) {
    case 'CheckoutRequested': {
      const { sessionId, plan, interval, quantity } = event.data;
      const session: CheckoutSessionView = { id: sessionId, plan, interval, quantity, status: 'pending', url: null, error: null, createdAt: event.data.at };
      return { ...state, sessions: [session, ...state.sessions].slice(0, KEEP_SESSIONS) };
    }
    case 'CheckoutSessionCreated':
      return updateSession(state, event.data.sessionId, { status: 'ready', url: event.data.url });
    case 'CheckoutSessionFailed':
      return updateSession(state, event.data.sessionId, { status: 'failed', error: event.data.message });
    case 'CheckoutCompleted': {
      const next = { ...state, customerId: event.data.customerId };
      return event.data.sessionId ? updateSession(next, event.data.sessionId, { status: 'completed' }) : next;
    }
    case 'SubscriptionSynced': {
      const { subscription, origin } = event.data;
      const others = state.subscriptions.filter((existing) => existing.id !== subscription.id);
      // By id, so the list is the same whatever order the subscriptions were synced in.
      const subscriptions = [...others, subscription].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      const { [subscription.id]: _previous, ...origins } = state.origins ?? {};
      return {
        ...state,
        customerId: state.customerId ?? event.data.customerId,
        subscriptions,
        origins: origin ? { ...origins, [subscription.id]: origin } : origins,
      };
    }
    case 'InvoiceRecorded':
      return state;
    case 'LicenceBasicEnded': {
      const notice: UnpublishNotice = {
        mapId: event.data.mapId,
        title: event.data.title,
        reason: 'its licence’s 6 months of Basic ended. Publish it in a slot to keep it live.',
        at: event.data.at,
      };
      return {
        ...state,
        endedLicences: [...(state.endedLicences ?? []), `${event.data.mapId}@${event.data.basicUntil}`],
        notices: [notice, ...state.notices].slice(0, KEEP_NOTICES),
      };
    }
    case 'SlotAssigned':
      return { ...state, slots: [...state.slots.filter((slot) => slot.mapId !== event.data.mapId), { ...event.data }] };
    case 'SlotReleased': {
      const slots = state.slots.filter((slot) => slot.mapId !== event.data.mapId);
      if (event.data.cause !== 'subscription') return { ...state, slots };
      const notice: UnpublishNotice = { mapId: event.data.mapId, title: event.data.title, reason: event.data.reason, at: event.data.at };
      return { ...state, slots, notices: [notice, ...state.notices].slice(0, KEEP_NOTICES) };
    }
  }
}

function updateSession(state: CustomerState, id: string, change: Partial<CheckoutSessionView>): CustomerState {
  return { ...state, sessions: state.sessions.map((session) => (session.id === id ? { ...session, ...change } : session)) };
}

/** Slots of a plan: the quantities of its subscriptions that count (active or trialing). */
export function slotTotal(subscriptions: readonly SubscriptionView[], plan: PlanId): number {
  return subscriptions
    .filter((subscription) => subscription.plan === plan && COUNTING_STATUSES.includes(subscription.status))
    .reduce((sum, subscription) => sum + subscription.quantity, 0);
}

export function slotsUsed(state: CustomerState, plan: PlanId): number {
  return state.slots.filter((slot) => slot.plan === plan).length;
}

// ---- commands -----------------------------------------------------------------------------

export type CustomerCommand =
  | { type: 'RequestCheckout'; data: { sessionId: string; uid: string; email: string; plan: PlanId; interval: BillingInterval; quantity: number } }
  | { type: 'RecordCheckoutSession'; data: { sessionId: string; stripeSessionId: string; url: string } }
  | { type: 'RecordCheckoutFailure'; data: { sessionId: string; message: string } }
  | { type: 'CompleteCheckout'; data: { sessionId: string | null; stripeSessionId: string; customerId: string } }
  /** A copy of a subscription from a Stripe event (`origin` says which copy, as of when); recorded only if newer. */
  | { type: 'SyncSubscription'; data: { customerId: string; subscription: SubscriptionView; origin: CopyOrigin; titles: Record<string, string> } }
  | { type: 'RecordInvoice'; data: { invoiceId: string; subscriptionId: string | null; outcome: 'paid' | 'payment_failed'; amount: number } }
  /** Put a map in one of the plan's slots; `licensed` says the map has a registered licence. */
  | { type: 'AssignSlot'; data: { mapId: string; plan: PlanId; licensed: boolean } }
  | { type: 'ReleaseSlot'; data: { mapId: string; cause: 'owner' | 'deleted'; title: string } }
  | { type: 'EndLicenceBasic'; data: { mapId: string; title: string; basicUntil: string } };

export const SLOTS_NEED_LICENCE = 'Slots only work with registered maps: register this map’s purchase code first.';

export function decideCustomer(command: CustomerCommand, state: CustomerState, now: Date): CustomerEvent[] {
  const time = now.toISOString();
  switch (command.type) {
    case 'RequestCheckout':
      return [{ type: 'CheckoutRequested', data: { ...command.data, at: time } }];
    case 'RecordCheckoutSession': {
      // The reactor may run twice for one request (a retried batch): record the first answer only.
      const session = state.sessions.find((candidate) => candidate.id === command.data.sessionId);
      if (!session || session.status !== 'pending') return [];
      return [{ type: 'CheckoutSessionCreated', data: command.data }];
    }
    case 'RecordCheckoutFailure': {
      const session = state.sessions.find((candidate) => candidate.id === command.data.sessionId);
      if (!session || session.status !== 'pending') return [];
      return [{ type: 'CheckoutSessionFailed', data: command.data }];
    }
    case 'CompleteCheckout': {
      const session = command.data.sessionId ? state.sessions.find((candidate) => candidate.id === command.data.sessionId) : undefined;
      if (state.customerId === command.data.customerId && (!session || session.status === 'completed')) return [];
      return [{ type: 'CheckoutCompleted', data: command.data }];
    }
    case 'SyncSubscription': {
      const { subscription, customerId, titles } = command.data;
      const current = state.subscriptions.find((existing) => existing.id === subscription.id);
      const recordedOrigin = state.origins?.[subscription.id] ?? null;
      const events: CustomerEvent[] = [];
      // An older copy never overwrites a newer one, whatever order the webhooks came in.
      if (!current || isNewerCopy({ view: subscription, origin: command.data.origin }, { view: current, origin: recordedOrigin })) {
        const origin = originAfter(command.data.origin, current ? recordedOrigin : null);
        const unchanged = current && sameView(current, subscription) && recordedOrigin?.created === origin.created && recordedOrigin.source === origin.source;
        if (!unchanged || state.customerId === null) events.push({ type: 'SubscriptionSynced', data: { customerId, subscription, origin } });
      }
      const next = events.reduce(evolveCustomer, state);
      events.push(...releaseBeyondTotal(next, titles, time));
      return events;
    }
    case 'RecordInvoice':
      return [{ type: 'InvoiceRecorded', data: { ...command.data, at: time } }];
    case 'AssignSlot': {
      const { mapId, plan, licensed } = command.data;
      if (!licensed) throw new DomainError('permission-denied', SLOTS_NEED_LICENCE);
      const holder = state.slots.find((slot) => slot.mapId === mapId);
      if (holder?.plan === plan) return [];
      const total = slotTotal(state.subscriptions, plan);
      if (total === 0) {
        throw new DomainError('permission-denied', `You have no ${PLAN_NAMES[plan]} subscription. Subscribe to ${PLAN_NAMES[plan]} to publish this map.`);
      }
      if (slotsUsed(state, plan) >= total) {
        throw new DomainError(
          'resource-exhausted',
          `All ${total} of your ${PLAN_NAMES[plan]} slots are in use. Add slots to your subscription or unpublish another map first.`,
        );
      }
      const events: CustomerEvent[] = [];
      if (holder) {
        events.push({
          type: 'SlotReleased',
          data: { mapId, plan: holder.plan, cause: 'owner', title: '', reason: `Moved to a ${PLAN_NAMES[plan]} slot.`, at: time },
        });
      }
      events.push({ type: 'SlotAssigned', data: { mapId, plan, at: time } });
      return events;
    }
    case 'EndLicenceBasic': {
      if ((state.endedLicences ?? []).includes(`${command.data.mapId}@${command.data.basicUntil}`)) return [];
      return [{ type: 'LicenceBasicEnded', data: { ...command.data, at: time } }];
    }
    case 'ReleaseSlot': {
      const holder = state.slots.find((slot) => slot.mapId === command.data.mapId);
      if (!holder) return [];
      const reason = command.data.cause === 'deleted' ? 'The map was deleted.' : 'Unpublished by its owner.';
      return [{ type: 'SlotReleased', data: { mapId: holder.mapId, plan: holder.plan, cause: command.data.cause, title: command.data.title, reason, at: time } }];
    }
  }
}

/**
 * When a plan's slots shrink below what is in use (a cancellation, a lower quantity, a failed
 * payment ending the subscription), the most recently published maps beyond the new total
 * leave their slots, one event each, with the reason the owner is shown.
 */
function releaseBeyondTotal(state: CustomerState, titles: Record<string, string>, time: string): CustomerEvent[] {
  const events: CustomerEvent[] = [];
  for (const plan of PlanId.options) {
    const total = slotTotal(state.subscriptions, plan);
    const holders = state.slots.filter((slot) => slot.plan === plan);
    if (holders.length <= total) continue;
    const beyond = holders.slice(total).reverse();
    // Shown after "“Title” left its slot: ", so it says why, not what happened.
    const reason =
      total === 0
        ? `your ${PLAN_NAMES[plan]} subscription ended.`
        : `your ${PLAN_NAMES[plan]} subscription now has ${total} ${total === 1 ? 'slot' : 'slots'}, and this map was published most recently.`;
    for (const holder of beyond) {
      events.push({
        type: 'SlotReleased',
        data: { mapId: holder.mapId, plan, cause: 'subscription', title: titles[holder.mapId] ?? 'Untitled map', reason, at: time },
      });
    }
  }
  return events;
}

/** A user's billing as the command handler takes it: stream `customer-{uid}`, read with {@link CustomerEvent}. */
export const customerDecider: Decider<CustomerCommand, CustomerEvent, CustomerState, { now: Date }> = {
  name: 'customer',
  streamId: streams.customer,
  schema: CustomerEvent,
  eventTypes: CUSTOMER_EVENT_TYPES,
  initialState: initialCustomerState,
  evolve: evolveCustomer,
  decide: (command, state, context) => decideCustomer(command, state, context.now),
};
