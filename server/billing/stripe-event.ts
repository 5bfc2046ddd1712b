/** A Stripe webhook event as the product records it, once, on the stream named by its id. */
import { z } from 'zod';

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

/** The Stripe event types billing acts on. */
export const HANDLED_STRIPE_EVENTS: ReadonlySet<string> = new Set([
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
]);
