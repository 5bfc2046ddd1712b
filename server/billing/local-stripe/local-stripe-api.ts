/**
 * The local test Stripe's API: the part of Stripe's REST API the product calls (checkout
 * sessions, billing-portal sessions, subscriptions), answering in Stripe's shapes and error
 * format, so Stripe's own SDK talks to it unchanged. Used when billing runs in local mode,
 * and by the tests (mounted on its own server) to make Stripe fail on demand.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { PLAN_PRICES, type BillingInterval, type PlanId } from '../../../events/billing-api.js';
import { DomainError, ERROR_STATUS } from '../../../events/errors.js';
import type { Config } from '../../config.js';
import { typed, useZodSchemas } from '../../http/zod-routes.js';
import type { LocalObject, LocalStripeStore } from './local-stripe-store.js';
import { BillingPortalSessionForm, CheckoutSessionForm, StripeIdParams } from './local-stripe-schemas.js';
import { parseStripeForm } from './stripe-form.js';

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

/**
 * A route schema's refusal (local-stripe-schemas.ts) as Stripe words it: the field as Stripe's
 * `param` (`line_items[0][quantity]`), "Missing required param" when it is absent.
 */
function validationError(error: FastifyError): StripeApiError {
  const issue = error.validation![0]!;
  const path = issue.instancePath.split('/').filter(Boolean);
  if (path.length === 0) return new StripeApiError(400, 'invalid_request_error', 'The request body must be a form (application/x-www-form-urlencoded).');
  const param = path[0] + path.slice(1).map((segment) => `[${segment}]`).join('');
  const missing = issue.keyword === 'invalid_type' && / received undefined$/.test(issue.message ?? '');
  return new StripeApiError(400, 'invalid_request_error', missing ? `Missing required param: ${param}.` : `Invalid ${param}: ${issue.message ?? 'not valid'}.`, param);
}

/** Stripe's error answer for anything thrown here: bad input is a 400, only our own faults a 500. */
function stripeErrorOf(error: unknown): StripeApiError {
  if (error instanceof StripeApiError) return error;
  if (hasZodFastifySchemaValidationErrors(error)) return validationError(error as FastifyError);
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
  // Its own scope's compilers, so it also runs mounted on a bare Fastify (the tests' failing Stripe).
  useZodSchemas(app);
  // Stripe's bodies are forms; the routes' schemas then check the fields (local-stripe-schemas.ts).
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseStripeForm(String(body)));
    } catch (error) {
      done(error as Error);
    }
  });

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

  const api = typed(app);
  // Stripe's own API, not the product's: left out of the OpenAPI document.
  api.post('/v1/checkout/sessions', { schema: { hide: true, body: CheckoutSessionForm } }, async (request) => {
    const key = typeof request.headers['idempotency-key'] === 'string' ? request.headers['idempotency-key'] : null;
    if (key) {
      const earlier = await options.store.byIdempotencyKey(key);
      if (earlier) return earlier;
    }
    const { body } = request;
    const item = body.line_items[0]!;
    const price = priceById(item.price);
    if (!price) throw new StripeApiError(400, 'invalid_request_error', `No such price: '${item.price}'`, 'line_items[0][price]');
    const id = localId('cs');
    const session: LocalObject = {
      id,
      object: 'checkout.session',
      mode: 'subscription',
      status: 'open',
      payment_status: 'unpaid',
      url: `${options.pagesBase}/checkout/${id}`,
      customer: body.customer ?? null,
      customer_email: body.customer_email ?? null,
      client_reference_id: body.client_reference_id ?? null,
      metadata: body.metadata,
      subscription_data: { metadata: body.subscription_data?.metadata ?? {} },
      line_items: { price: price.id, quantity: item.quantity, adjustable: item.adjustable_quantity },
      allow_promotion_codes: body.allow_promotion_codes,
      automatic_tax: { enabled: body.automatic_tax },
      tax_id_collection: { enabled: body.tax_id_collection },
      shipping_address_collection: body.shipping_address_collection ?? null,
      custom_text: { submit: body.custom_text?.submit ?? null },
      success_url: body.success_url,
      cancel_url: body.cancel_url,
      subscription: null,
      created: Math.floor(now().getTime() / 1000),
      livemode: false,
    };
    await options.store.put(session, key);
    return session;
  });

  api.get('/v1/checkout/sessions/:id', { schema: { hide: true, params: StripeIdParams } }, async (request) => {
    const session = await options.store.get(request.params.id);
    if (!session || session.object !== 'checkout.session') throw new StripeApiError(404, 'invalid_request_error', `No such checkout.session: '${request.params.id}'`, 'id');
    return session;
  });

  api.post('/v1/billing_portal/sessions', { schema: { hide: true, body: BillingPortalSessionForm } }, async (request) => {
    const { customer, return_url: returnUrl } = request.body;
    if (!(await options.store.get(customer))) throw new StripeApiError(400, 'invalid_request_error', `No such customer: '${customer}'`, 'customer');
    const id = localId('bps');
    const session: LocalObject = {
      id,
      object: 'billing_portal.session',
      customer,
      return_url: returnUrl ?? null,
      url: `${options.pagesBase}/billing/${id}`,
      created: Math.floor(now().getTime() / 1000),
      livemode: false,
    };
    await options.store.put(session);
    return session;
  });

  api.get('/v1/subscriptions/:id', { schema: { hide: true, params: StripeIdParams } }, async (request) => {
    const subscription = await options.store.get(request.params.id);
    if (!subscription || subscription.object !== 'subscription') throw new StripeApiError(404, 'invalid_request_error', `No such subscription: '${request.params.id}'`, 'id');
    return subscription;
  });
}
