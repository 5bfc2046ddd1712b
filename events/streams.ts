/** Stream names come from here and nowhere else, so a typo cannot fork an aggregate. */
export const streams = {
  map: (mapId: string) => `map-${mapId}`,
  /**
   * A map's comments (events/map-comments.ts), beside the map's own stream. It starts with
   * `map-` too, so readers of `map-` streams pick events by type (map ids are 12 random
   * base64url characters: none is `comments-` plus three more by more than chance).
   */
  mapComments: (mapId: string) => `map-comments-${mapId}`,
  customer: (uid: string) => `customer-${uid}`,
  licence: (code: string) => `licence-${code}`,
  /** One stream per Stripe event, by its Stripe id: a second delivery is a no-op. */
  stripeEvent: (eventId: string) => `stripe-event-${eventId}`,
  /** One stream per Stripe customer, by its Stripe id: the user it belongs to (events/stripe-customer.ts). */
  stripeCustomer: (customerId: string) => `stripe-customer-${customerId}`,
  /** One stream per contact-form message. */
  contact: (messageId: string) => `contact-${messageId}`,
  /** An account's API tokens (events/api-tokens.ts). */
  apiTokens: (uid: string) => `api-tokens-${uid}`,
  /** An account's outbound webhooks (events/webhooks.ts). */
  webhooks: (uid: string) => `webhooks-${uid}`,
} as const;

/** Stream name prefixes of the product's aggregates (used to filter subscriptions). */
export const STREAM_PREFIXES = ['map-', 'customer-', 'licence-', 'contact-', 'stripe-event-', 'stripe-customer-', 'api-tokens-', 'webhooks-'] as const;

export const MAP_COMMENTS_PREFIX = 'map-comments-';

/** The map of a `map-{id}` stream; null for any other, a map's comments stream included. */
export function mapIdFromStream(stream: string): string | null {
  if (stream.startsWith(MAP_COMMENTS_PREFIX)) return null;
  return stream.startsWith('map-') ? stream.slice('map-'.length) : null;
}

/** The map whose comments a `map-comments-{id}` stream holds. */
export function mapIdFromCommentsStream(stream: string): string | null {
  return stream.startsWith(MAP_COMMENTS_PREFIX) ? stream.slice(MAP_COMMENTS_PREFIX.length) : null;
}
