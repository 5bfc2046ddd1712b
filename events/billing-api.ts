/**
 * Billing as the client and server share it (spec §3, §4, §5, §9): the plans and their prices,
 * the functions' payloads, and the `billing:{uid}` read model pushed over the websocket. These
 * schemas are the single source of truth for both sides.
 */
import { z } from 'zod';
import { BILLING_INTERVALS, COUNTING_STATUSES, MAX_QUANTITY, MIN_QUANTITY, PLAN_IDS } from './billing-plans.js';

export * from './billing-plans.js';

export const PlanId = z.enum(PLAN_IDS, { error: 'Plan must be basic or professional.' });
export type PlanId = z.infer<typeof PlanId>;

export const BillingInterval = z.enum(BILLING_INTERVALS, { error: 'Billing interval must be monthly or yearly.' });
export type BillingInterval = z.infer<typeof BillingInterval>;

export const Quantity = z
  .number({ error: 'Quantity must be a number.' })
  .int('Quantity must be a whole number.')
  .min(MIN_QUANTITY, `Quantity must be at least ${MIN_QUANTITY}.`)
  .max(MAX_QUANTITY, `Quantity must be at most ${MAX_QUANTITY}.`);

/** A marketplace purchase code: a UUID, as the marketplace issues them. */
export const PurchaseCode = z
  .string({ error: 'Purchase code must be text.' })
  .trim()
  .toLowerCase()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'Purchase code must look like 1a2b3c4d-1a2b-1a2b-1a2b-1a2b3c4d5e6f.');

const MapId = z.string({ error: 'Map id must be text.' }).regex(/^[A-Za-z0-9_-]{1,64}$/, 'Map id is not valid.');

/** The callable functions of billing (`POST /api/fn/{name}` with `{data}`). */
export const billingFunctionPayloads = {
  /**
   * The checkout flow's "session document" (spec §4): records a checkout request; the server
   * creates the Stripe Checkout Session and the `billing:{uid}` topic then carries its url or error.
   */
  startCheckout: z.object({ plan: PlanId, interval: BillingInterval, quantity: Quantity }),
  /** The billing portal link (spec §7): `{returnUrl}` → `{url}`. The return address must be this site's. */
  createPortalLink: z.object({ returnUrl: z.string({ error: 'Return address must be text.' }).min(1).max(2048) }),
  /** Publish a map into a slot of the plan: Basic gives state 1, Professional state 3. */
  publishMap: z.object({ mapId: MapId, plan: PlanId }),
  /** Take a published map out of its slot (back to state 0). */
  unpublishMap: z.object({ mapId: MapId }),
  /** Register a marketplace purchase code for a map: one code serves one map. */
  registerLicence: z.object({ mapId: MapId, purchaseCode: PurchaseCode }),
} as const;

export interface BillingFunctionResults {
  /** The id of the checkout session to watch for in `billing:{uid}`'s `checkoutSessions`. */
  startCheckout: { sessionId: string };
  createPortalLink: { url: string };
  publishMap: null;
  unpublishMap: null;
  /** `verified` is false when no marketplace token is configured (only the format was checked). */
  registerLicence: { verified: boolean; basicUntil: string };
}

/** One Stripe subscription as the customer's read model keeps it (spec §3). */
export const SubscriptionView = z.object({
  id: z.string(),
  /** Which of our plans its product is; null for a product we don't sell (ignored for slots). */
  plan: PlanId.nullable(),
  status: z.string(),
  quantity: z.number().int(),
  /** When it ends (ISO 8601), set once the customer cancels; shown as the Canceled badge. */
  cancelAt: z.string().nullable(),
  /** items[0].plan.product and items[0].price.id. */
  product: z.string(),
  priceId: z.string(),
  interval: BillingInterval.nullable(),
  currentPeriodEnd: z.string().nullable(),
});
export type SubscriptionView = z.infer<typeof SubscriptionView>;

export const CheckoutSessionView = z.object({
  id: z.string(),
  plan: PlanId,
  interval: BillingInterval,
  quantity: z.number().int(),
  /** pending until the server has asked Stripe; then ready (with url) or failed (with error). */
  status: z.enum(['pending', 'ready', 'failed', 'completed']),
  url: z.string().nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
});
export type CheckoutSessionView = z.infer<typeof CheckoutSessionView>;

const SlotCount = z.object({ used: z.number().int(), total: z.number().int() });
export const SlotUsage = z.object({
  basic: SlotCount,
  pro: SlotCount,
  /** Free test maps (state below 1); total null means unlimited (admins). */
  test: z.object({ used: z.number().int(), total: z.number().int().nullable() }),
});
export type SlotUsage = z.infer<typeof SlotUsage>;

/** A map taken out of its slot by the server, and why (shown to the owner). */
export const UnpublishNotice = z.object({ mapId: z.string(), title: z.string(), reason: z.string(), at: z.string() });
export type UnpublishNotice = z.infer<typeof UnpublishNotice>;

/** A map's registered marketplace licence (the code itself stays on the server). */
export const MapLicenceView = z.object({
  mapId: z.string(),
  verified: z.boolean(),
  registeredAt: z.string(),
  /** The end of the licence's 6 months of Basic usage. */
  basicUntil: z.string(),
});
export type MapLicenceView = z.infer<typeof MapLicenceView>;

/** The value of the `billing:{uid}` live topic. */
export const BillingSnapshot = z.object({
  subscriptions: z.array(SubscriptionView),
  /** The licences registered for the user's maps. */
  licences: z.array(MapLicenceView).default([]),
  /** The latest checkout sessions, newest first. */
  checkoutSessions: z.array(CheckoutSessionView),
  slots: SlotUsage,
  notices: z.array(UnpublishNotice),
});
export type BillingSnapshot = z.infer<typeof BillingSnapshot>;

/** The subscriptions that count (spec §4), by plan. */
export function countingSubscription(subscriptions: readonly SubscriptionView[], plan: PlanId): SubscriptionView | null {
  return subscriptions.find((subscription) => subscription.plan === plan && COUNTING_STATUSES.includes(subscription.status)) ?? null;
}
