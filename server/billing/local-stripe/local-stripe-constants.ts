/** Where the local test Stripe is mounted, and the key the SDK uses against it. */
export const LOCAL_STRIPE_PREFIX = '/local-stripe';
/** Not a secret: the local test Stripe accepts only this key, and moves no money. */
export const LOCAL_STRIPE_KEY = 'sk_test_mapfold_local';
