/**
 * Signing a webhook's delivery the way Stripe signs its webhooks (issue 30 item 2):
 *
 *   Mapfold-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with the secret>
 *
 * A receiver verifies it in a few lines (README, "Webhooks"): split the header at commas, take
 * t and v1, compute the HMAC of `${t}.${rawBody}` with the webhook's secret, compare in
 * constant time, and refuse a t more than five minutes old.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new webhook's signing secret: `whsec_` and 32 random bytes in base64url. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

export function webhookSignature(secret: string, timestamp: number, body: string): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

/** The receiver's side, as the README gives it: whether `header` signs `body` with `secret`, within `toleranceSeconds` of `nowSeconds`. */
export function verifyWebhookSignature(secret: string, header: string, body: string, nowSeconds: number, toleranceSeconds = 300): boolean {
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=') as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || !parts.v1 || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${t}.${body}`).digest('hex'));
  const given = Buffer.from(parts.v1);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
