/**
 * `POST /api/stripe/webhook`: Stripe's events. The signature is checked on the raw body with
 * Stripe's SDK (a changed payload, or a signature dated more than the tolerance before or after
 * the app's clock, is refused with invalid-argument and counted), then the event is recorded
 * once on the stream named by its Stripe id and answered at once; the billing reactor does the
 * work. A repeated delivery finds the stream there and changes nothing.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ErrorBody } from '../../events/function-results.js';
import { DomainError } from '../../events/errors.js';
import { stripeEventDecider } from '../../events/stripe-event.js';
import type { StripeGateway } from '../billing/stripe-gateway.js';
import type { IdGenerator, Clock } from '../clock.js';
import type { EventStore } from '../../ports/event-store.js';
import { decideCommand } from '../commands/command-handler.js';

export interface StripeWebhookDeps {
  gateway: StripeGateway;
  /** Counts deliveries that could not be processed (mapfold_webhook_failures_total). */
  onFailure?: () => void;
  store: EventStore;
  ids: IdGenerator;
  clock: Clock;
}

export async function stripeWebhookRoutes(app: FastifyInstance, deps: StripeWebhookDeps): Promise<void> {
  await app.register(async (scope) => {
    // The signature covers the exact bytes Stripe sent: keep them, don't parse and re-serialise.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

    const schema = {
      tags: ['billing'],
      description: "Stripe's webhook events, verified with the Stripe-Signature header over the raw body (see Stripe's documentation).",
      response: { 200: z.object({ received: z.literal(true), duplicate: z.boolean().optional() }), '4xx': ErrorBody },
    };
    scope.post('/api/stripe/webhook', { schema }, async (request) => {
      const signature = request.headers['stripe-signature'];
      if (typeof signature !== 'string' || !Buffer.isBuffer(request.body)) {
        deps.onFailure?.();
        throw new DomainError('invalid-argument', 'Missing Stripe-Signature header.');
      }
      let event;
      try {
        event = await deps.gateway.constructEvent(request.body, signature, deps.clock.now());
      } catch {
        deps.onFailure?.();
        throw new DomainError('invalid-argument', 'Webhook signature verification failed.');
      }
      let outcome;
      try {
        const data = { id: event.id, type: event.type, created: event.created, livemode: event.livemode, object: { ...event.data.object } };
        const meta = { principal: null, now: deps.clock.now(), correlationId: event.id, commandId: `stripe:${event.id}` };
        outcome = await decideCommand(deps, stripeEventDecider, event.id, { type: 'ReceiveStripeEvent', data }, undefined, meta);
      } catch (error) {
        // Stripe retries a delivery that got no 2xx, for up to three days.
        deps.onFailure?.();
        throw error;
      }
      // A repeated delivery finds the event recorded: nothing more to do.
      if (outcome.events.length === 0) return { received: true, duplicate: true };
      return { received: true };
    });
  });
}
