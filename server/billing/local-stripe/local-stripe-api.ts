/**
 * The local test Stripe's API: the part of Stripe's REST API the product calls (checkout
 * sessions, billing-portal sessions, subscriptions), answering in Stripe's shapes and error
 * format, so Stripe's own SDK talks to it unchanged. Used when billing runs in local mode,
 * and by the tests (mounted on its own server) to make Stripe fail on demand.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MAX_QUANTITY, MIN_QUANTITY, PLAN_PRICES, type BillingInterval, type PlanId } from '../../../events/billing-api.js';
import { DomainError, ERROR_STATUS } from '../../../events/errors.js';
import type { Config } from '../../config.js';
import type { LocalObject, LocalStripeStore } from './local-stripe-store.js';
import { parseStripeForm, text, type FormValue } from './stripe-form.js';

export interface LocalPrice {
  id: string;
  plan: PlanId;
  interval: BillingInterval;
  product: string;
  /** Cents per unit per billing period. */
  unitAmount: number;
}

export function localPrices(prices: Config['stripe']['prices']): LocalPrice[] {
  const list: LocalPrice[] = [];
  for (const plan of ['basic', 'professional'] as const) {
    for (const interval of ['monthly', 'yearly'] as const) {
      const perMonth = PLAN_PRICES[plan][interval] * 100;
      list.push({ id: prices[plan][interval], plan, interval, product: `prod_mapfold_${plan}`, unitAmount: interval === 'yearly' ? perMonth * 12 : perMonth });
    }
  }
  return list;
}

export function localId(prefix: string): string {
  return `${prefix}_test_${randomBytes(12).toString('base64url')}`;
}

class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

export interface LocalStripeApiOptions {
  store: LocalStripeStore;
  prices: LocalPrice[];
  /** Where the hosted pages (checkout, billing) are reached by the browser. */
  pagesBase: string;
  /** The API key it accepts (Bearer): this installation's own (local-stripe-keys.ts), or a test's. */
  apiKey: string;
  /** Lets a test make the next calls fail like Stripe does (e.g. a card or API error). */
  failNext?: () => { status: number; type: string; message: string } | null;
  now?: () => Date;
}

function form(request: FastifyRequest): Record<string, FormValue> {
  return typeof request.body === 'string' ? parseStripeForm(request.body) : {};
}

/** Stripe's metadata: a flat map of strings (Stripe refuses anything else too). */
function metadataOf(value: FormValue | undefined, param: string): Record<string, string> {
  if (value === undefined || value === '') return {};
  if (typeof value !== 'object' || Array.isArray(value) || !Object.values(value).every((entry) => typeof entry === 'string')) {
    throw new StripeApiError(400, 'invalid_request_error', `Invalid ${param}: metadata must be a map of strings.`, param);
  }
  return { ...value } as Record<string, string>;
}

/** Stripe's error answer for anything thrown here: bad input is a 400, only our own faults a 500. */
function stripeErrorOf(error: unknown): StripeApiError {
  if (error instanceof StripeApiError) return error;
  if (error instanceof DomainError) {
    const status = ERROR_STATUS[error.code];
    return new StripeApiError(status, status >= 500 ? 'api_error' : 'invalid_request_error', error.message);
  }
  // Fastify's own request errors: unreadable or oversized body, unsupported content type.
  const status = (error as Partial<FastifyError> | null)?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new StripeApiError(400, 'invalid_request_error', error instanceof Error ? error.message : 'Invalid request.');
  }
  return new StripeApiError(500, 'api_error', 'An unexpected error occurred in the local test Stripe.');
}

/** Compares digests, so how much of a wrong key matches cannot be timed. */
function sameKey(given: string | undefined, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return given !== undefined && timingSafeEqual(digest(given), digest(expected));
}

export function subscriptionObject(options: {
  id?: string;
  customer: string;
  price: LocalPrice;
  quantity: number;
  metadata: Record<string, string>;
  now: Date;
}): LocalObject {
  const start = Math.floor(options.now.getTime() / 1000);
  const periodEnd = new Date(options.now);
  if (options.price.interval === 'yearly') periodEnd.setUTCFullYear(periodEnd.getUTCFullYear() + 1);
  else periodEnd.setUTCMonth(periodEnd.getUTCMonth() + 1);
  const id = options.id ?? localId('sub');
  return {
    id,
    object: 'subscription',
    status: 'active',
    customer: options.customer,
    created: start,
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    livemode: false,
    metadata: options.metadata,
    items: {
      object: 'list',
      has_more: false,
      url: `/v1/subscription_items?subscription=${id}`,
      data: [
        {
          id: localId('si'),
          object: 'subscription_item',
          quantity: options.quantity,
          current_period_start: start,
          current_period_end: Math.floor(periodEnd.getTime() / 1000),
          price: {
            id: options.price.id,
            object: 'price',
            product: options.price.product,
            unit_amount: options.price.unitAmount,
            currency: 'usd',
            recurring: { interval: options.price.interval === 'yearly' ? 'year' : 'month', interval_count: 1 },
          },
        },
      ],
    },
  };
}

export async function localStripeApi(app: FastifyInstance, options: LocalStripeApiOptions): Promise<void> {
  const now = options.now ?? (() => new Date());
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  app.setErrorHandler((thrown, request, reply) => {
    const error = stripeErrorOf(thrown);
    if (error.status >= 500) request.log.error({ err: thrown }, 'the local test Stripe failed');
    return reply.code(error.status).send({ error: { type: error.type, message: error.message, ...(error.param ? { param: error.param } : {}) } });
  });

  app.addHook('onRequest', async (request: FastifyRequest, _reply: FastifyReply) => {
    if (!sameKey(request.headers.authorization, `Bearer ${options.apiKey}`)) {
      throw new StripeApiError(401, 'invalid_request_error', 'Invalid API Key provided.');
    }
    const failure = options.failNext?.();
    if (failure) throw new StripeApiError(failure.status, failure.type, failure.message);
  });

  const priceById = (id: string | undefined) => options.prices.find((price) => price.id === id);

  app.post('/v1/checkout/sessions', async (request) => {
    const key = typeof request.headers['idempotency-key'] === 'string' ? request.headers['idempotency-key'] : null;
    if (key) {
      const earlier = await options.store.byIdempotencyKey(key);
      if (earlier) return earlier;
    }
    const body = form(request);
    if (text(body.mode) !== 'subscription') throw new StripeApiError(400, 'invalid_request_error', 'Only subscription mode is supported here.', 'mode');
    const items = Array.isArray(body.line_items) ? body.line_items : [];
    const item = items[0] as Record<string, FormValue> | undefined;
    const price = priceById(text(item?.price));
    if (!item || !price) throw new StripeApiError(400, 'invalid_request_error', `No such price: '${text(item?.price) ?? ''}'`, 'line_items[0][price]');
    const quantity = Number(text(item.quantity));
    if (!Number.isInteger(quantity) || quantity < MIN_QUANTITY || quantity > MAX_QUANTITY) {
      throw new StripeApiError(400, 'invalid_request_error', `Quantity must be between ${MIN_QUANTITY} and ${MAX_QUANTITY}.`, 'line_items[0][quantity]');
    }
    for (const field of ['success_url', 'cancel_url'] as const) {
      if (!text(body[field])) throw new StripeApiError(400, 'invalid_request_error', `Missing required param: ${field}.`, field);
    }
    const id = localId('cs');
    const adjustable = (item.adjustable_quantity ?? {}) as Record<string, FormValue>;
    const subscriptionData = (typeof body.subscription_data === 'object' && !Array.isArray(body.subscription_data) ? body.subscription_data : {}) as Record<string, FormValue>;
    const session: LocalObject = {
      id,
      object: 'checkout.session',
      mode: 'subscription',
      status: 'open',
      payment_status: 'unpaid',
      url: `${options.pagesBase}/checkout/${id}`,
      customer: text(body.customer) ?? null,
      customer_email: text(body.customer_email) ?? null,
      client_reference_id: text(body.client_reference_id) ?? null,
      metadata: metadataOf(body.metadata, 'metadata'),
      subscription_data: { metadata: metadataOf(subscriptionData.metadata, 'subscription_data[metadata]') },
      line_items: { price: price.id, quantity, adjustable: text(adjustable.enabled) === 'true' },
      allow_promotion_codes: text(body.allow_promotion_codes) === 'true',
      automatic_tax: { enabled: text((body.automatic_tax as Record<string, FormValue> | undefined)?.enabled) === 'true' },
      tax_id_collection: { enabled: text((body.tax_id_collection as Record<string, FormValue> | undefined)?.enabled) === 'true' },
      shipping_address_collection: body.shipping_address_collection ?? null,
      success_url: text(body.success_url),
      cancel_url: text(body.cancel_url),
      subscription: null,
      created: Math.floor(now().getTime() / 1000),
      livemode: false,
    };
    await options.store.put(session, key);
    return session;
  });

  app.get<{ Params: { id: string } }>('/v1/checkout/sessions/:id', async (request) => {
    const session = await options.store.get(request.params.id);
    if (!session || session.object !== 'checkout.session') throw new StripeApiError(404, 'invalid_request_error', `No such checkout.session: '${request.params.id}'`, 'id');
    return session;
  });

  app.post('/v1/billing_portal/sessions', async (request) => {
    const body = form(request);
    const customer = text(body.customer);
    if (!customer || !(await options.store.get(customer))) throw new StripeApiError(400, 'invalid_request_error', `No such customer: '${customer ?? ''}'`, 'customer');
    const id = localId('bps');
    const session: LocalObject = {
      id,
      object: 'billing_portal.session',
      customer,
      return_url: text(body.return_url) ?? null,
      url: `${options.pagesBase}/billing/${id}`,
      created: Math.floor(now().getTime() / 1000),
      livemode: false,
    };
    await options.store.put(session);
    return session;
  });

  app.get<{ Params: { id: string } }>('/v1/subscriptions/:id', async (request) => {
    const subscription = await options.store.get(request.params.id);
    if (!subscription || subscription.object !== 'subscription') throw new StripeApiError(404, 'invalid_request_error', `No such subscription: '${request.params.id}'`, 'id');
    return subscription;
  });
}
