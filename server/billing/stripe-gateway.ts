/**
 * The one place that talks to Stripe, through Stripe's own SDK. In local mode (the embedded
 * default) the SDK is pointed at the local test Stripe this server mounts
 * (server/billing/local-stripe), so the product runs the same code with or without Stripe.
 * With billing off (production without Stripe's keys or LOCAL_STRIPE=1) every call answers
 * unavailable.
 *
 * The SDK (some 200 modules, about 20 MB of a server's memory) loads on the first call that
 * needs it, not at start: an embedded server nobody pays on never holds it.
 */
import type Stripe from 'stripe';
import type { BillingInterval, PlanId, SubscriptionView } from '../../events/billing-api.js';
import { MAX_QUANTITY, MIN_QUANTITY, PLAN_IDS, SLOTS_NEED_REGISTERED_MAPS } from '../../events/billing-api.js';
import { DomainError } from '../../events/errors.js';
import type { Config } from '../config.js';
import { LOCAL_STRIPE_PREFIX } from './local-stripe/local-stripe-constants.js';

/** How far a webhook's signature timestamp may be from now, either way (Stripe's default, seconds). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export const BILLING_NOT_CONFIGURED = 'Billing is not configured on this server.';

/** Shown on the checkout page above its pay button (Stripe's custom_text.submit, 1200 characters at most). */
export const CHECKOUT_LICENCE_NOTE = `${SLOTS_NEED_REGISTERED_MAPS} Register each map’s purchase code in its Publish panel; a slot can then publish it.`;

type StripeModule = typeof import('stripe').default;
let stripeModule: Promise<StripeModule> | null = null;
/** Stripe's SDK, loaded once on first use. */
function loadStripe(): Promise<StripeModule> {
  return (stripeModule ??= import('stripe').then((module) => module.default));
}

export interface CheckoutRequest {
  sessionId: string;
  uid: string;
  email: string;
  customerId: string | null;
  plan: PlanId;
  interval: BillingInterval;
  quantity: number;
}

export class StripeGateway {
  private client: Stripe | null = null;

  constructor(
    /** In local mode the keys are the local test Stripe's own (billing-plugin puts them in). */
    private readonly config: Config['stripe'],
    private readonly publicUrl: string,
    /** Where this server listens, for the SDK to reach the local test Stripe (known after listen). */
    private readonly localAddress: () => string | null,
  ) {}

  /** True when billing runs against the local test Stripe rather than Stripe itself. */
  get local(): boolean {
    return this.config.mode === 'local';
  }

  /** False with billing off: there is no Stripe to call. */
  get configured(): boolean {
    return this.config.mode !== 'off' && this.config.secretKey !== null && this.config.webhookSecret !== null;
  }

  private keys(): { secretKey: string; webhookSecret: string } {
    const { secretKey, webhookSecret } = this.config;
    if (!this.configured || !secretKey || !webhookSecret) throw new DomainError('unavailable', BILLING_NOT_CONFIGURED);
    return { secretKey, webhookSecret };
  }

  private async sdk(): Promise<Stripe> {
    if (this.client) return this.client;
    const Stripe = await loadStripe();
    if (this.client) return this.client;
    const base = this.config.apiUrl ? new URL(this.config.apiUrl) : this.local ? this.localBase() : null;
    const prefix = this.local && !this.config.apiUrl ? LOCAL_STRIPE_PREFIX : '';
    this.client = new Stripe(this.keys().secretKey, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      ...(base
        ? {
            host: base.hostname,
            port: Number(base.port || (base.protocol === 'https:' ? 443 : 80)),
            protocol: base.protocol === 'https:' ? 'https' : 'http',
            // The SDK has no base path option: the local test Stripe lives under a prefix of this server.
            ...(prefix ? { httpClient: Stripe.createFetchHttpClient((input, init) => fetch(withPrefix(input, prefix), init)) } : {}),
          }
        : {}),
    });
    return this.client;
  }

  private localBase(): URL {
    const address = this.localAddress();
    if (!address) throw new Error('The local test Stripe is not reachable before the server listens.');
    return new URL(address);
  }

  priceOf(plan: PlanId, interval: BillingInterval): string {
    return this.config.prices[plan][interval];
  }

  /** Which plan and interval a price id is, or null for a price this product doesn't sell. */
  planOfPrice(priceId: string): { plan: PlanId; interval: BillingInterval } | null {
    for (const plan of PLAN_IDS) {
      if (this.config.prices[plan].monthly === priceId) return { plan, interval: 'monthly' };
      if (this.config.prices[plan].yearly === priceId) return { plan, interval: 'yearly' };
    }
    return null;
  }

  /** Spec §3's checkout session request, made idempotent by our session id. */
  async createCheckoutSession(request: CheckoutRequest): Promise<{ id: string; url: string }> {
    const back = (result: string) => `${this.publicUrl.replace(/\/+$/, '')}/maps?checkout=${result}#subscribe`;
    const session = await (await this.sdk()).checkout.sessions.create(
      {
        mode: 'subscription',
        client_reference_id: request.uid,
        ...(request.customerId ? { customer: request.customerId, customer_update: { address: 'auto', shipping: 'auto', name: 'auto' } } : { customer_email: request.email }),
        tax_id_collection: { enabled: true },
        shipping_address_collection: { allowed_countries: SHIPPING_COUNTRIES },
        allow_promotion_codes: true,
        automatic_tax: { enabled: true },
        line_items: [
          {
            price: this.priceOf(request.plan, request.interval),
            quantity: request.quantity,
            adjustable_quantity: { enabled: true, minimum: MIN_QUANTITY, maximum: MAX_QUANTITY },
          },
        ],
        // Said again beside the pay button: a slot publishes only a map whose licence is registered.
        custom_text: { submit: { message: CHECKOUT_LICENCE_NOTE } },
        subscription_data: { metadata: { uid: request.uid, plan: request.plan } },
        metadata: { uid: request.uid, sessionId: request.sessionId },
        success_url: back('success'),
        cancel_url: back('cancel'),
      },
      { idempotencyKey: `checkout-${request.sessionId}` },
    );
    if (!session.url) throw new Error('Stripe created the checkout session without a url.');
    return { id: session.id, url: session.url };
  }

  async createPortalSession(customerId: string, returnUrl: string): Promise<string> {
    const session = await (await this.sdk()).billingPortal.sessions.create({ customer: customerId, return_url: returnUrl });
    return session.url;
  }

  async retrieveSubscription(id: string): Promise<Stripe.Subscription | null> {
    try {
      return await (await this.sdk()).subscriptions.retrieve(id);
    } catch (error) {
      const Stripe = await loadStripe();
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return null;
      throw error;
    }
  }

  /**
   * Verifies a webhook's signature on its raw body, and that it was signed within the tolerance
   * of `now` (the app's clock) either way; throws Stripe's signature error otherwise. Stripe's
   * SDK only refuses signatures too old, so one dated ahead (replayable for as long as it is
   * ahead) is refused here.
   */
  async constructEvent(rawBody: Buffer | string, signature: string, now: Date): Promise<Stripe.Event> {
    const { webhookSecret } = this.keys();
    const Stripe = await loadStripe();
    // Stripe's static helper: checking a signature needs no API client (nor, locally, a listening server).
    const event = Stripe.webhooks.constructEvent(rawBody, signature, webhookSecret, WEBHOOK_TOLERANCE_SECONDS, undefined, now.getTime());
    const signedAt = signatureTimestamp(signature);
    if (signedAt === null || signedAt - Math.floor(now.getTime() / 1000) > WEBHOOK_TOLERANCE_SECONDS) {
      throw new Stripe.errors.StripeSignatureVerificationError(signature, rawBody, { message: 'Timestamp outside the tolerance zone' });
    }
    return event;
  }

  /**
   * The customer's read model of a Stripe subscription (spec §3). The copy in a webhook is only Stripe-shaped: it is whatever JSON
   * was signed, and an older API version, a test tool or a bug may leave out `items` or an
   * item's `price`. Every nested field is read as possibly missing, so this never throws (a
   * TypeError here used to fail the billing reactor on that event for good): a subscription
   * without an item is one with quantity 0 and no plan we know, which gives no slot, and a
   * date that is not a Unix time is no date. The billing reactor checks the result against
   * SubscriptionView before recording it.
   */
  viewOf(subscription: Stripe.Subscription): SubscriptionView {
    const items: unknown = (subscription as { items?: { data?: unknown } | null }).items?.data;
    const item = Array.isArray(items) ? (items[0] as Partial<Stripe.SubscriptionItem> | null | undefined) : undefined;
    const price = item?.price as Partial<Stripe.Price> | null | undefined;
    const priceId = typeof price?.id === 'string' ? price.id : '';
    const productOf = price?.product as string | { id?: unknown } | null | undefined;
    const product = typeof productOf === 'string' ? productOf : typeof productOf?.id === 'string' ? productOf.id : '';
    const known = this.planOfPrice(priceId);
    return {
      id: subscription.id,
      plan: known?.plan ?? null,
      status: subscription.status,
      quantity: Number.isSafeInteger(item?.quantity) ? item!.quantity! : 0,
      cancelAt: isoOfUnixSeconds(subscription.cancel_at),
      product,
      priceId,
      interval: known?.interval ?? null,
      currentPeriodEnd: isoOfUnixSeconds(item?.current_period_end),
    };
  }
}

/** A Stripe time (Unix seconds) as ISO 8601; null when it is absent or not a representable time. */
function isoOfUnixSeconds(seconds: unknown): string | null {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds === 0) return null;
  const date = new Date(seconds * 1000);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

function withPrefix(input: string | URL | Request, prefix: string): string | URL | Request {
  if (input instanceof Request) return input;
  const url = new URL(String(input));
  url.pathname = `${prefix}${url.pathname}`;
  return url;
}

/** The `t=` of a Stripe-Signature header, read as Stripe's SDK reads it (the last one counts). */
function signatureTimestamp(header: string): number | null {
  let timestamp: number | null = null;
  for (const item of header.split(',')) {
    const [key, value] = item.split('=');
    if (key === 't') timestamp = Number.parseInt(value ?? '', 10);
  }
  return timestamp !== null && Number.isFinite(timestamp) ? timestamp : null;
}

export function customerIdOf(customer: string | Stripe.Customer | Stripe.DeletedCustomer | null): string | null {
  if (!customer) return null;
  return typeof customer === 'string' ? customer : customer.id;
}

/** Where shipping addresses may be (Stripe wants a list); the markets Mapfold sells in. */
const SHIPPING_COUNTRIES: Stripe.Checkout.SessionCreateParams.ShippingAddressCollection.AllowedCountry[] = [
  'US', 'CA', 'GB', 'IE', 'AU', 'NZ', 'DE', 'FR', 'ES', 'IT', 'NL', 'BE', 'AT', 'CH', 'SE', 'NO', 'DK', 'FI', 'PL', 'PT', 'CZ', 'JP', 'SG', 'AE', 'IN', 'BR', 'MX', 'ZA',
];
