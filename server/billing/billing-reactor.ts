/**
 * Billing's reactor: answers checkout requests by creating Stripe Checkout Sessions, and turns
 * recorded Stripe webhook events into the customer's subscriptions. Subscriptions are re-read
 * from Stripe on every event about them, so events delivered late, twice or out of order all
 * end in Stripe's current state. When a plan's slots shrink, the maps that lose their slot go
 * back to test maps here (or stay live on their licence while it lasts).
 */
import type Stripe from 'stripe';
import type { z } from 'zod';
import { CheckoutRequested, type CustomerEvent } from '../../events/customer.js';
import { MapState } from '../../events/map-states.js';
import { streams } from '../../events/streams.js';
import { licenceOfMap, readCustomer, uidOfCustomer } from '../../projections/billing.js';
import type { Clock, IdGenerator } from '../clock.js';
import type { CommandMetadata } from '../commands/command-handler.js';
import { setMapState } from '../commands/map-commands.js';
import type { RecordedEvent } from '../event-store/event-store.js';
import type { BillingDeps } from './billing-functions.js';
import { runCustomerCommand } from './billing-functions.js';
import type { Reactor } from './reactor-runner.js';
import { StripeEventReceived } from './stripe-event.js';
import { customerIdOf } from './stripe-gateway.js';

/** A checkout request older than this is not answered any more (the person has moved on). */
const CHECKOUT_REQUEST_TTL_MS = 60 * 60 * 1000;

export interface BillingReactorLogger {
  error(details: object, message: string): void;
  info?(details: object, message: string): void;
}

export function billingReactor(deps: BillingDeps & { clock: Clock; ids: IdGenerator; logger: BillingReactorLogger }): Reactor {
  const meta = (cause: string): CommandMetadata => ({ principal: null, now: deps.clock.now(), correlationId: cause, commandId: deps.ids.uuid() });

  async function answerCheckout(event: RecordedEvent, request: z.infer<typeof CheckoutRequested>['data']) {
    const uid = request.uid;
    if (deps.clock.now().getTime() - new Date(request.at).getTime() > CHECKOUT_REQUEST_TTL_MS) {
      await runCustomerCommand(deps, uid, { type: 'RecordCheckoutFailure', data: { sessionId: request.sessionId, message: 'This checkout expired. Please try again.' } }, meta(event.id));
      return;
    }
    const customer = await readCustomer(deps.db, uid);
    try {
      const session = await deps.gateway.createCheckoutSession({ ...request, customerId: customer?.customerId ?? null });
      await runCustomerCommand(
        deps,
        uid,
        { type: 'RecordCheckoutSession', data: { sessionId: request.sessionId, stripeSessionId: session.id, url: session.url } },
        meta(event.id),
      );
    } catch (error) {
      // Stripe refused (or could not be reached after the SDK's retries): the person sees why.
      const message = error instanceof Error ? error.message : 'Stripe could not start the checkout.';
      deps.logger.error({ err: error, uid }, 'creating a checkout session failed');
      await runCustomerCommand(deps, uid, { type: 'RecordCheckoutFailure', data: { sessionId: request.sessionId, message } }, meta(event.id));
    }
  }

  async function uidFor(metadataUid: unknown, customer: unknown): Promise<string | null> {
    if (typeof metadataUid === 'string' && metadataUid) return metadataUid;
    const customerId = customerIdOf((customer ?? null) as string | null);
    return customerId ? uidOfCustomer(deps.db, customerId) : null;
  }

  async function titlesOf(mapIds: string[]): Promise<Record<string, string>> {
    if (mapIds.length === 0) return {};
    const { rows } = await deps.db.query<{ id: string; title: string }>('SELECT id, title FROM maps_list WHERE id = ANY($1::text[])', [mapIds]);
    return Object.fromEntries(rows.map((row) => [row.id, row.title]));
  }

  /** Re-reads the subscription from Stripe and records it; maps beyond the new slots go back to test maps. */
  async function syncSubscription(cause: RecordedEvent, subscriptionId: string, fallback: Stripe.Subscription | null) {
    const subscription = (await deps.gateway.retrieveSubscription(subscriptionId)) ?? fallback;
    if (!subscription) return;
    const uid = await uidFor(subscription.metadata?.uid, subscription.customer);
    const customerId = customerIdOf(subscription.customer);
    if (!uid || !customerId) {
      deps.logger.error({ subscriptionId }, 'a Stripe subscription names no Mapfold user; ignored');
      return;
    }
    const customer = await readCustomer(deps.db, uid);
    const titles = await titlesOf((customer?.slots ?? []).map((slot) => slot.mapId));
    const outcome = await runCustomerCommand(
      deps,
      uid,
      { type: 'SyncSubscription', data: { customerId, subscription: deps.gateway.viewOf(subscription), titles } },
      meta(cause.id),
    );
    await unpublishReleased(outcome.events, cause);
  }

  async function unpublishReleased(events: CustomerEvent[], cause: RecordedEvent) {
    for (const event of events) {
      if (event.type !== 'SlotReleased' || event.data.cause !== 'subscription') continue;
      try {
        // A map whose licence still gives it Basic usage stays live on the licence.
        const licence = await licenceOfMap(deps.db, event.data.mapId);
        const onLicence = licence !== null && new Date(licence.basicUntil) > deps.clock.now();
        await setMapState(deps, { mapId: event.data.mapId, state: onLicence ? MapState.live : MapState.test, subscribed: false }, meta(cause.id));
      } catch (error) {
        // A map deleted meanwhile has nothing left to unpublish.
        deps.logger.error({ err: error, mapId: event.data.mapId }, 'unpublishing a map that lost its slot failed');
      }
    }
  }

  /** A deleted map gives its slot back to its owner. */
  async function releaseDeletedMap(recorded: RecordedEvent) {
    const mapId = (recorded.data as { mapId?: unknown }).mapId;
    if (typeof mapId !== 'string') return;
    const { rows } = await deps.db.query<{ uid: string }>(
      `SELECT uid FROM billing_customers WHERE state->'slots' @> $1::jsonb`,
      [JSON.stringify([{ mapId }])],
    );
    for (const row of rows) {
      await runCustomerCommand(deps, row.uid, { type: 'ReleaseSlot', data: { mapId, cause: 'deleted', title: '' } }, meta(recorded.id));
    }
  }

  async function handleStripeEvent(recorded: RecordedEvent, event: StripeEventReceived['data']) {
    const object = event.object as Record<string, unknown>;
    switch (event.type) {
      case 'checkout.session.completed': {
        const session = object as unknown as Stripe.Checkout.Session;
        const uid = await uidFor(session.client_reference_id ?? session.metadata?.uid, session.customer);
        const customerId = customerIdOf(session.customer);
        if (!uid || !customerId) return;
        await runCustomerCommand(
          deps,
          uid,
          { type: 'CompleteCheckout', data: { sessionId: session.metadata?.sessionId ?? null, stripeSessionId: session.id, customerId } },
          meta(recorded.id),
        );
        const subscriptionId = typeof session.subscription === 'string' ? session.subscription : session.subscription?.id;
        if (subscriptionId) await syncSubscription(recorded, subscriptionId, null);
        return;
      }
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted': {
        const subscription = object as unknown as Stripe.Subscription;
        await syncSubscription(recorded, subscription.id, subscription);
        return;
      }
      case 'invoice.paid':
      case 'invoice.payment_failed': {
        const invoice = object as unknown as Stripe.Invoice & { subscription?: string | null };
        const details = invoice.parent?.subscription_details ?? null;
        const subscriptionId = (typeof details?.subscription === 'string' ? details.subscription : details?.subscription?.id) ?? invoice.subscription ?? null;
        const uid = await uidFor(details?.metadata?.uid, invoice.customer);
        if (!uid) return;
        await runCustomerCommand(
          deps,
          uid,
          {
            type: 'RecordInvoice',
            data: {
              invoiceId: invoice.id ?? event.id,
              subscriptionId,
              outcome: event.type === 'invoice.paid' ? 'paid' : 'payment_failed',
              amount: event.type === 'invoice.paid' ? (invoice.amount_paid ?? 0) : (invoice.amount_due ?? 0),
            },
          },
          meta(recorded.id),
        );
        if (subscriptionId) await syncSubscription(recorded, subscriptionId, null);
        return;
      }
      default:
        return;
    }
  }

  return {
    name: 'billing-reactor',
    streamPrefixes: ['customer-', 'stripe-event-', 'map-'],
    async handle(recorded) {
      if (recorded.type === 'MapDeleted') {
        await releaseDeletedMap(recorded);
        return;
      }
      if (recorded.type === 'CheckoutRequested') {
        const parsed = CheckoutRequested.safeParse({ type: recorded.type, data: recorded.data });
        if (parsed.success) await answerCheckout(recorded, parsed.data.data);
        return;
      }
      if (recorded.type === 'StripeEventReceived' && recorded.stream === streams.stripeEvent(String((recorded.data as { id?: unknown }).id))) {
        const parsed = StripeEventReceived.safeParse({ type: recorded.type, data: recorded.data });
        if (parsed.success) await handleStripeEvent(recorded, parsed.data.data);
      }
    },
  };
}
