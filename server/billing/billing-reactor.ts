/**
 * Billing's reactor: answers checkout requests by creating Stripe Checkout Sessions, and turns
 * recorded Stripe webhook events into the customer's subscriptions. Subscriptions are re-read
 * from Stripe on every event about them, falling back to the copy in the event when Stripe
 * cannot be read; the customer decider keeps whichever copy is newer
 * (events/subscription-order.ts), so events delivered late, twice or out of order all end in
 * Stripe's latest state. Every Stripe object is applied only to the user its Stripe customer
 * belongs to (server/billing/stripe-customers.ts); one naming another user's customer is
 * refused. When a plan's slots shrink, the maps that lose their slot go back to test maps here
 * (or stay live on their licence while it lasts).
 */
import type Stripe from 'stripe';
import type { z } from 'zod';
import { SubscriptionView } from '../../events/billing-api.js';
import { CheckoutRequested, type CustomerEvent } from '../../events/customer.js';
import { MapState } from '../../events/map-states.js';
import { streams } from '../../events/streams.js';
import type { CopyOrigin } from '../../events/subscription-order.js';
import { legacyOwnerOfCustomer, licenceOfMap, readCustomer } from '../../projections/billing.js';
import type { Clock, IdGenerator } from '../clock.js';
import type { CommandMetadata } from '../commands/command-handler.js';
import { setMapState } from '../commands/map-commands.js';
import type { RecordedEvent } from '../../ports/event-store.js';
import type { BillingDeps } from './billing-functions.js';
import { runCustomerCommand } from './billing-functions.js';
import type { Reactor } from './reactor-runner.js';
import { StripeEventReceived } from './stripe-event.js';
import { claimStripeCustomer, uidOfCustomer } from './stripe-customers.js';

/** A checkout request older than this is not answered any more (the person has moved on). */
const CHECKOUT_REQUEST_TTL_MS = 60 * 60 * 1000;

export interface BillingReactorLogger {
  error(details: object, message: string): void;
  info?(details: object, message: string): void;
}

export interface BillingReactorDeps extends BillingDeps {
  clock: Clock;
  ids: IdGenerator;
  logger: BillingReactorLogger;
  /** Counts Stripe events refused because they name another user's Stripe customer. */
  onRefused?: () => void;
}

type StripeEvent = StripeEventReceived['data'];

/*
 * Stripe's objects inside webhook events are Stripe-shaped, not Stripe-checked: a correctly
 * signed event carries whatever JSON was signed (an older API version, a test tool, a bug), so
 * a field may be missing or of another type. The handlers read the fields they use with the
 * helpers below and ignore (with a log line) an object they cannot use, rather than throw: a
 * handler that throws on an event fails it on every retry until the reactor parks it, and what
 * the event asked for is then lost. Nor may a malformed value reach a recorded event: the
 * customer's stream would no longer fold, and every later command for that user would fail.
 */

/** A non-empty string, or null. */
function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** The id of an expandable field: the id itself, or the expanded object's id. */
function idOf(value: unknown): string | null {
  return text(value) ?? (typeof value === 'object' && value !== null ? text((value as { id?: unknown }).id) : null);
}

/** A whole amount (Stripe's amounts are integers in the smallest unit), else 0. */
function amount(value: unknown): number {
  return Number.isSafeInteger(value) ? (value as number) : 0;
}

/** The billing reactor's name: its checkpoint's, its lock's and its dead letters'. */
export const BILLING_REACTOR = 'billing-reactor';

export function billingReactor(deps: BillingReactorDeps): Reactor {
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

  /**
   * The user a Stripe object belongs to: the one its Stripe customer belongs to. The object's
   * own claim (its metadata's uid) binds a customer not yet claimed, and must agree with the
   * binding after that: an object naming another user's customer is refused, logged and
   * counted, and nothing of it is applied to anyone.
   */
  async function ownerOf(cause: RecordedEvent, event: StripeEvent, customer: unknown, claimedUid: unknown): Promise<{ uid: string; customerId: string } | null> {
    const customerId = idOf(customer);
    if (!customerId) {
      deps.logger.error({ stripeEventId: event.id, type: event.type }, 'a Stripe event names no Stripe customer; ignored');
      return null;
    }
    let uid = typeof claimedUid === 'string' && claimedUid ? claimedUid : null;
    if (!uid) {
      const bound = await uidOfCustomer(deps.store, customerId);
      if (bound) return { uid: bound, customerId };
      uid = await legacyOwnerOfCustomer(deps.db, customerId);
    }
    if (!uid) {
      deps.logger.error({ stripeEventId: event.id, type: event.type, customerId }, 'a Stripe event names no Mapfold user; ignored');
      return null;
    }
    const claim = await claimStripeCustomer(deps, { customerId, uid, stripeEventId: event.id }, meta(cause.id));
    if (claim.refused) {
      deps.logger.error(
        { stripeEventId: event.id, type: event.type, customerId, claimedUid: uid, owner: claim.owner },
        'a Stripe event names the Stripe customer of another user; refused',
      );
      deps.onRefused?.();
      return null;
    }
    return { uid, customerId };
  }

  async function titlesOf(mapIds: string[]): Promise<Record<string, string>> {
    if (mapIds.length === 0) return {};
    const { rows } = await deps.db.query<{ id: string; title: string }>('SELECT id, title FROM maps_list WHERE id = ANY($1::text[])', [mapIds]);
    return Object.fromEntries(rows.map((row) => [row.id, row.title]));
  }

  /**
   * Re-reads the subscription from Stripe (or, when that fails, takes the copy in the event)
   * and offers it to the customer, who keeps it if it is newer than the recorded one; maps
   * beyond the new slots go back to test maps.
   */
  async function syncSubscription(cause: RecordedEvent, event: StripeEvent, subscriptionId: string, copy: Stripe.Subscription | null) {
    let fresh: Stripe.Subscription | null = null;
    try {
      fresh = await deps.gateway.retrieveSubscription(subscriptionId);
    } catch (error) {
      // Stripe down or refusing: the event's copy is safe to use, an older one is never kept.
      deps.logger.error({ err: error, subscriptionId }, 're-reading a subscription from Stripe failed; using the copy in the event');
    }
    const subscription = fresh ?? copy;
    if (!subscription) return;
    const view = SubscriptionView.safeParse(deps.gateway.viewOf(subscription));
    if (!view.success) {
      deps.logger.error({ stripeEventId: event.id, type: event.type, subscriptionId, issues: view.error.issues }, 'a Stripe subscription without an id or a status; ignored');
      return;
    }
    const origin: CopyOrigin = { created: event.created, source: fresh ? 'stripe' : 'event' };
    const owner = await ownerOf(cause, event, subscription.customer, subscription.metadata?.uid);
    if (!owner) return;
    const customer = await readCustomer(deps.db, owner.uid);
    const titles = await titlesOf((customer?.slots ?? []).map((slot) => slot.mapId));
    const outcome = await runCustomerCommand(
      deps,
      owner.uid,
      { type: 'SyncSubscription', data: { customerId: owner.customerId, subscription: view.data, origin, titles } },
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

  async function handleStripeEvent(recorded: RecordedEvent, event: StripeEvent) {
    const object = event.object as Record<string, unknown>;
    switch (event.type) {
      case 'checkout.session.completed': {
        const session = object as unknown as Partial<Stripe.Checkout.Session>;
        const stripeSessionId = text(session.id);
        if (!stripeSessionId) {
          deps.logger.error({ stripeEventId: event.id, type: event.type }, 'a Stripe checkout session without an id; ignored');
          return;
        }
        const owner = await ownerOf(recorded, event, session.customer, session.client_reference_id ?? session.metadata?.uid);
        if (!owner) return;
        await runCustomerCommand(
          deps,
          owner.uid,
          { type: 'CompleteCheckout', data: { sessionId: text(session.metadata?.sessionId), stripeSessionId, customerId: owner.customerId } },
          meta(recorded.id),
        );
        const subscriptionId = idOf(session.subscription);
        if (subscriptionId) await syncSubscription(recorded, event, subscriptionId, null);
        return;
      }
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted': {
        const subscription = object as unknown as Stripe.Subscription;
        const subscriptionId = text(subscription.id);
        if (!subscriptionId) {
          deps.logger.error({ stripeEventId: event.id, type: event.type }, 'a Stripe subscription without an id; ignored');
          return;
        }
        await syncSubscription(recorded, event, subscriptionId, subscription);
        return;
      }
      case 'invoice.paid':
      case 'invoice.payment_failed': {
        const invoice = object as unknown as Partial<Stripe.Invoice> & { subscription?: unknown };
        const details = (invoice.parent as Partial<Stripe.Invoice.Parent> | null | undefined)?.subscription_details ?? null;
        const subscriptionId = idOf(details?.subscription) ?? idOf(invoice.subscription);
        const owner = await ownerOf(recorded, event, invoice.customer, details?.metadata?.uid);
        if (!owner) return;
        await runCustomerCommand(
          deps,
          owner.uid,
          {
            type: 'RecordInvoice',
            data: {
              invoiceId: text(invoice.id) ?? event.id,
              subscriptionId,
              outcome: event.type === 'invoice.paid' ? 'paid' : 'payment_failed',
              amount: amount(event.type === 'invoice.paid' ? invoice.amount_paid : invoice.amount_due),
            },
          },
          meta(recorded.id),
        );
        if (subscriptionId) await syncSubscription(recorded, event, subscriptionId, null);
        return;
      }
      default:
        return;
    }
  }

  return {
    name: BILLING_REACTOR,
    streamPrefixes: ['customer-', 'stripe-event-', 'map-'],
    eventTypes: new Set(['MapDeleted', 'CheckoutRequested', 'StripeEventReceived']),
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
