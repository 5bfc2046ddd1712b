/** A Stripe webhook event as the product records it (its schema and decider are events/stripe-event.ts). */
export { StripeEventReceived } from '../../events/stripe-event.js';

/** The Stripe event types billing acts on. */
export const HANDLED_STRIPE_EVENTS: ReadonlySet<string> = new Set([
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
]);
