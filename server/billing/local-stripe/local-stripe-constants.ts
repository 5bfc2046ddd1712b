/** Where the local test Stripe is mounted (its API under /v1, its pages beside it). */
export const LOCAL_STRIPE_PREFIX = '/local-stripe';
