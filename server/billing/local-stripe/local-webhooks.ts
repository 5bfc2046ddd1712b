/**
 * Stripe-shaped webhook events, signed the way Stripe signs them, which the local test Stripe
 * sends to the product's webhook route.
 *
 * Signed here with node:crypto rather than the SDK's generateTestHeaderString: the scheme is
 * one HMAC (Stripe's "Verify signatures manually": `t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<payload>">`), and importing the SDK for it would load all of it (about 20 MB) into
 * every embedded server at start. The SDK's own constructEvent is what checks these, in the
 * webhook route and in test/server/stripe-signature.test.ts.
 */
import { createHmac } from 'node:crypto';
import { localId } from './local-stripe-api.js';

/**
 * The API version the local test Stripe's events say they are: the Stripe SDK's
 * (`Stripe.API_VERSION`, which test/server/stripe-signature.test.ts compares it with).
 */
export const LOCAL_STRIPE_API_VERSION = '2026-10-28.endive';

export interface WebhookDelivery {
  payload: string;
  signature: string;
}

export function stripeEvent(type: string, object: Record<string, unknown>, created: Date, id = localId('evt')): Record<string, unknown> {
  return {
    id,
    object: 'event',
    api_version: LOCAL_STRIPE_API_VERSION,
    created: Math.floor(created.getTime() / 1000),
    type,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object },
  };
}

/** Signs a payload for the webhook route; `timestamp` (seconds) lets tests make stale ones. */
export function signWebhook(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${signature}`;
}

export function signedDelivery(event: Record<string, unknown>, secret: string): WebhookDelivery {
  const payload = JSON.stringify(event);
  return { payload, signature: signWebhook(payload, secret) };
}
