/**
 * Stripe-shaped webhook events, signed the way Stripe signs them (the SDK's own test header),
 * which the local test Stripe sends to the product's webhook route.
 */
import Stripe from 'stripe';
import { localId } from './local-stripe-api.js';

export interface WebhookDelivery {
  payload: string;
  signature: string;
}

export function stripeEvent(type: string, object: Record<string, unknown>, created: Date, id = localId('evt')): Record<string, unknown> {
  return {
    id,
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: Math.floor(created.getTime() / 1000),
    type,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object },
  };
}

/** Signs a payload for the webhook route; `timestamp` (seconds) lets tests make stale ones. */
export function signWebhook(payload: string, secret: string, timestamp?: number): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret, ...(timestamp !== undefined ? { timestamp } : {}) });
}

export function signedDelivery(event: Record<string, unknown>, secret: string): WebhookDelivery {
  const payload = JSON.stringify(event);
  return { payload, signature: signWebhook(payload, secret) };
}
