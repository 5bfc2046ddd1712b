/** Stream names come from here and nowhere else, so a typo cannot fork an aggregate. */
export const streams = {
  map: (mapId: string) => `map-${mapId}`,
  customer: (uid: string) => `customer-${uid}`,
  licence: (code: string) => `licence-${code}`,
  /** One stream per Stripe event, by its Stripe id: a second delivery is a no-op. */
  stripeEvent: (eventId: string) => `stripe-event-${eventId}`,
  /** One stream per Stripe customer, by its Stripe id: the user it belongs to (events/stripe-customer.ts). */
  stripeCustomer: (customerId: string) => `stripe-customer-${customerId}`,
  /** One stream per contact-form message. */
  contact: (messageId: string) => `contact-${messageId}`,
} as const;

/** Stream name prefixes of the product's aggregates (used to filter subscriptions). */
export const STREAM_PREFIXES = ['map-', 'customer-', 'licence-', 'contact-', 'stripe-event-', 'stripe-customer-'] as const;

export function mapIdFromStream(stream: string): string | null {
  return stream.startsWith('map-') ? stream.slice('map-'.length) : null;
}
