/**
 * A Stripe customer (stream `stripe-customer-{Stripe customer id}`): the one user it belongs to.
 * The first claim creates the stream, appended with expected revision "no stream" (like a
 * licence's purchase code), so two claims at once cannot both win; from then on a Stripe event
 * that names this customer for another user is refused here, on the record, and never reaches
 * that user's billing. This is what keeps one user per Stripe customer: a rule of the domain,
 * not a unique index that would throw inside the billing projection.
 */
import { z } from 'zod';
import type { Decider } from './decider.js';
import { streams } from './streams.js';

const at = z.iso.datetime({ offset: true });

export const StripeCustomerClaimed = z.object({
  type: z.literal('StripeCustomerClaimed'),
  data: z.object({ customerId: z.string(), uid: z.string(), at }),
});
/** A Stripe event named this customer for a user it does not belong to; nothing of it was applied. */
export const StripeCustomerClaimRefused = z.object({
  type: z.literal('StripeCustomerClaimRefused'),
  data: z.object({ customerId: z.string(), uid: z.string(), stripeEventId: z.string(), at }),
});

export const StripeCustomerEvent = z.discriminatedUnion('type', [StripeCustomerClaimed, StripeCustomerClaimRefused]);
export type StripeCustomerEvent = z.infer<typeof StripeCustomerEvent>;

export interface StripeCustomerState {
  /** The user the customer belongs to; null before the first claim. */
  uid: string | null;
  /** Stripe events already refused, so a reactor that runs an event twice records it once. */
  refused: string[];
}

export const initialStripeCustomerState: StripeCustomerState = { uid: null, refused: [] };

export function evolveStripeCustomer(state: StripeCustomerState, event: StripeCustomerEvent): StripeCustomerState {
  switch (event.type) {
    case 'StripeCustomerClaimed':
      return state.uid ? state : { ...state, uid: event.data.uid };
    case 'StripeCustomerClaimRefused':
      return { ...state, refused: [...state.refused, event.data.stripeEventId] };
  }
}

/** A Stripe event (`stripeEventId`) says the customer belongs to `uid`. */
export interface ClaimStripeCustomer {
  type: 'ClaimStripeCustomer';
  data: { customerId: string; uid: string; stripeEventId: string };
}

export function decideStripeCustomer(command: ClaimStripeCustomer, state: StripeCustomerState, now: Date): StripeCustomerEvent[] {
  const { customerId, uid, stripeEventId } = command.data;
  if (state.uid === null) return [{ type: 'StripeCustomerClaimed', data: { customerId, uid, at: now.toISOString() } }];
  if (state.uid === uid || state.refused.includes(stripeEventId)) return [];
  return [{ type: 'StripeCustomerClaimRefused', data: { customerId, uid, stripeEventId, at: now.toISOString() } }];
}

export const STRIPE_CUSTOMER_EVENT_TYPES: ReadonlySet<string> = new Set(StripeCustomerEvent.options.map((option) => option.shape.type.value));

/** A Stripe customer as the command handler takes it: stream `stripe-customer-{id}`, read with {@link StripeCustomerEvent}. */
export const stripeCustomerDecider: Decider<ClaimStripeCustomer, StripeCustomerEvent, StripeCustomerState, { now: Date }> = {
  name: 'stripe-customer',
  streamId: streams.stripeCustomer,
  schema: StripeCustomerEvent,
  eventTypes: STRIPE_CUSTOMER_EVENT_TYPES,
  initialState: initialStripeCustomerState,
  evolve: evolveStripeCustomer,
  decide: (command, state, context) => decideStripeCustomer(command, state, context.now),
};
