/**
 * Billing in the app: the Stripe gateway, the webhook route, the local test Stripe in local
 * mode, and the reactor that answers checkouts and webhooks. With billing off (production
 * without Stripe's keys or LOCAL_STRIPE=1) neither the webhook route nor the local test Stripe
 * is mounted, the functions that need Stripe answer unavailable, and start-up says so.
 */
import type { FastifyInstance } from 'fastify';
import { LICENCES_NOT_CONFIGURED } from '../../events/billing-plans.js';
import type { Services } from '../services.js';
import type { MapHistory } from '../history/map-history.js';
import { stripeWebhookRoutes } from '../routes/stripe-webhook-routes.js';
import type { BillingDeps } from './billing-functions.js';
import { billingReactor } from './billing-reactor.js';
import { localPrices, localStripeApi } from './local-stripe/local-stripe-api.js';
import { LOCAL_STRIPE_PREFIX } from './local-stripe/local-stripe-constants.js';
import { localStripePages } from './local-stripe/local-stripe-pages.js';
import { LocalStripeStore } from './local-stripe/local-stripe-store.js';
import { expireLicences, LICENCE_SWEEP_EVERY_MS } from './licence-expiry.js';
import { marketplaceLicences } from './marketplace-licences.js';
import { ReactorRunner, type ReactorRunnerOptions } from './reactor-runner.js';
import { BILLING_NOT_CONFIGURED, StripeGateway } from './stripe-gateway.js';

/** The address this server listens on, as the SDK reaches the local test Stripe. */
function listeningAddress(app: FastifyInstance): string | null {
  const address = app.server.address();
  if (!address || typeof address === 'string') return null;
  const host = address.family === 'IPv6' ? (address.address === '::' ? '127.0.0.1' : `[${address.address}]`) : address.address === '0.0.0.0' ? '127.0.0.1' : address.address;
  return `http://${host}:${address.port}`;
}

export async function setUpBilling(
  app: FastifyInstance,
  services: Services,
  history: MapHistory,
  reactorOptions: ReactorRunnerOptions = {},
): Promise<{ deps: BillingDeps; reactor: ReactorRunner }> {
  const { config } = services;
  const local = config.stripe.mode === 'local' ? services.localStripe : null;
  if (config.stripe.mode === 'local' && !local) throw new Error('The local test Stripe has no keys (openServices makes them).');
  const stripe = local ? { ...config.stripe, secretKey: local.apiKey, webhookSecret: local.webhookSecret } : config.stripe;
  const gateway = new StripeGateway(stripe, config.publicUrl, () => listeningAddress(app));
  const deps: BillingDeps = {
    store: services.store,
    db: services.db,
    ids: services.ids,
    history,
    gateway,
    marketplace: marketplaceLicences(config.envato),
    publicUrl: config.publicUrl,
  };
  if (gateway.configured) {
    await stripeWebhookRoutes(app, {
      gateway,
      store: services.store,
      ids: services.ids,
      clock: services.clock,
      onFailure: () => app.metrics.webhookFailures.inc({ provider: 'stripe' }),
    });
  } else {
    app.log.warn(
      `${BILLING_NOT_CONFIGURED} Set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET for Stripe, or LOCAL_STRIPE=1 for the local test Stripe (no payment is taken).`,
    );
  }

  if (config.envato.mode === 'off') {
    app.log.warn(`${LICENCES_NOT_CONFIGURED} Set ENVATO_TOKEN to check purchase codes with the marketplace, or LOCAL_LICENCES=1 to accept them unchecked (test installs only).`);
  }

  if (local) {
    const store = await LocalStripeStore.open(services.db);
    const prices = localPrices(config.stripe.prices);
    const pagesBase = `${config.publicUrl.replace(/\/+$/, '')}${LOCAL_STRIPE_PREFIX}`;
    await app.register(async (scope) => localStripeApi(scope, { store, prices, pagesBase, apiKey: local.apiKey }), { prefix: LOCAL_STRIPE_PREFIX });
    await app.register(
      async (scope) =>
        localStripePages(scope, {
          store,
          prices,
          webhookSecret: local.webhookSecret,
          now: () => services.clock.now(),
          // In process: the event takes the same route, signature check included, as Stripe's would.
          deliver: async ({ payload, signature }) => {
            const response = await app.inject({ method: 'POST', url: '/api/stripe/webhook', payload, headers: { 'content-type': 'application/json', 'stripe-signature': signature } });
            if (response.statusCode >= 300) throw new Error(`The webhook route refused a local event: ${response.statusCode} ${response.body}`);
          },
        }),
      { prefix: LOCAL_STRIPE_PREFIX },
    );
  }

  const reactor = new ReactorRunner(
    services.db,
    services.store,
    billingReactor({
      ...deps,
      clock: services.clock,
      logger: app.log,
      // A Stripe event naming another user's Stripe customer is a webhook that was not processed.
      onRefused: () => app.metrics.webhookFailures.inc({ provider: 'stripe' }),
    }),
    app.log,
    reactorOptions,
  );
  app.addHook('onReady', () => reactor.start());
  app.addHook('onClose', () => reactor.stop());

  const sweep = () =>
    expireLicences(deps, services.clock.now(), () => services.ids.uuid()).catch((error: unknown) => app.log.error({ err: error }, 'the licence sweep failed'));
  let sweepTimer: NodeJS.Timeout | null = null;
  app.addHook('onReady', async () => {
    void sweep();
    sweepTimer = setInterval(() => void sweep(), LICENCE_SWEEP_EVERY_MS);
    sweepTimer.unref();
  });
  app.addHook('onClose', async () => {
    if (sweepTimer) clearInterval(sweepTimer);
  });
  return { deps, reactor };
}
