/**
 * Webhook signatures against the app's clock (the injected one, not the machine's): dated up to
 * 300 s before or after it they are accepted, further either way refused, as are changed bodies
 * and headers without a timestamp.
 */
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { LOCAL_STRIPE_API_VERSION, signWebhook, stripeEvent } from '../../server/billing/local-stripe/local-webhooks.js';
import { StripeGateway, WEBHOOK_TOLERANCE_SECONDS } from '../../server/billing/stripe-gateway.js';
import { loadConfig } from '../../server/config.js';

const secret = 'whsec_signature_test';
const gateway = new StripeGateway({ ...loadConfig({}).stripe, mode: 'stripe', secretKey: 'sk_test_signatures', webhookSecret: secret }, 'http://localhost', () => null);
// Years before the machine's clock: a check against the machine's clock would refuse everything.
const now = new Date('2020-06-01T12:00:00Z');
const seconds = Math.floor(now.getTime() / 1000);
const payload = JSON.stringify(stripeEvent('customer.created', { id: 'cus_signed', object: 'customer' }, now));

describe('webhook signatures', () => {
  it('accepts a signature dated within the tolerance of the app’s clock, before or after', async () => {
    for (const offset of [-WEBHOOK_TOLERANCE_SECONDS + 1, -60, 0, 60, WEBHOOK_TOLERANCE_SECONDS]) {
      expect((await gateway.constructEvent(payload, signWebhook(payload, secret, seconds + offset), now)).id, `${offset} s`).toMatch(/^evt_/);
    }
  });

  it('signs the local test Stripe’s events as the SDK’s own test header does, at the SDK’s API version', () => {
    expect(signWebhook(payload, secret, seconds)).toBe(Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: seconds }));
    expect(LOCAL_STRIPE_API_VERSION).toBe(Stripe.API_VERSION);
  });

  it('refuses a signature dated beyond the tolerance either way', async () => {
    for (const offset of [-WEBHOOK_TOLERANCE_SECONDS - 2, -600, WEBHOOK_TOLERANCE_SECONDS + 1, 600, 365 * 24 * 3600]) {
      await expect(gateway.constructEvent(payload, signWebhook(payload, secret, seconds + offset), now), `${offset} s`).rejects.toThrow(Stripe.errors.StripeSignatureVerificationError);
    }
  });

  it('refuses a changed body, another secret, and a header without its timestamp', async () => {
    const header = signWebhook(payload, secret, seconds);
    await expect(gateway.constructEvent(payload.replace('cus_signed', 'cus_signeD'), header, now)).rejects.toThrow(Stripe.errors.StripeSignatureVerificationError);
    await expect(gateway.constructEvent(payload, signWebhook(payload, 'whsec_other', seconds), now)).rejects.toThrow(Stripe.errors.StripeSignatureVerificationError);
    await expect(gateway.constructEvent(payload, header.replace(/^t=\d+,/, ''), now)).rejects.toThrow(Stripe.errors.StripeSignatureVerificationError);
    // A second, later timestamp does not slip past: the last one counts, as for Stripe's own check.
    await expect(gateway.constructEvent(payload, `${header},t=${seconds + 3600}`, now)).rejects.toThrow(Stripe.errors.StripeSignatureVerificationError);
  });
});
