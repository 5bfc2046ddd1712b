/**
 * A Stripe webhook event as the product records it, once, on the stream named by its Stripe
 * id (`stripe-event-{id}`): a second delivery finds the stream there and records nothing. The
 * billing reactor reads it with this same schema.
 */
import { z } from 'zod';
import type { Decider } from './decider.js';
import { streams } from './streams.js';

export const StripeEventReceived = z.object({
  type: z.literal('StripeEventReceived'),
  data: z.object({
    id: z.string(),
    type: z.string(),
    /** Stripe's creation time of the event (Unix seconds). */
    created: z.number().int(),
    livemode: z.boolean(),
    object: z.record(z.string(), z.unknown()),
  }),
});
export type StripeEventReceived = z.infer<typeof StripeEventReceived>;

/** Record a webhook delivery whose signature was checked. */
export interface ReceiveStripeEvent {
  type: 'ReceiveStripeEvent';
  data: StripeEventReceived['data'];
}

/** Whether the Stripe event is recorded: a repeated delivery is a no-op. */
export interface StripeEventState {
  received: boolean;
}

/** A Stripe event as the command handler takes it: stream `stripe-event-{id}`, read with {@link StripeEventReceived}. */
export const stripeEventDecider: Decider<ReceiveStripeEvent, StripeEventReceived, StripeEventState, void> = {
  name: 'stripe-event',
  streamId: streams.stripeEvent,
  schema: StripeEventReceived,
  eventTypes: new Set(['StripeEventReceived']),
  initialState: { received: false },
  evolve: () => ({ received: true }),
  decide: (command, state) => (state.received ? [] : [{ type: 'StripeEventReceived', data: command.data }]),
};
