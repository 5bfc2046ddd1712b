/**
 * The plans as plain values (spec §4, §5, §9): ids, intervals, prices, the quantity range. Apart
 * from billing-api.ts (which re-exports them beside its schemas) so that the pricing and
 * estimate pages show them without loading zod.
 */
export const PLAN_IDS = ['basic', 'professional'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

/** Billing interval: only monthly or yearly (spec §5). */
export const BILLING_INTERVALS = ['monthly', 'yearly'] as const;
export type BillingInterval = (typeof BILLING_INTERVALS)[number];

/** Subscription quantity range, in the stepper and in checkout (spec §5, §9). */
export const MIN_QUANTITY = 1;
export const MAX_QUANTITY = 1000;

/** Price per map per month in US dollars, shown as '$/mo per map' (spec §9). */
export const PLAN_PRICES: Record<PlanId, Record<BillingInterval, number>> = {
  basic: { monthly: 10, yearly: 8 },
  professional: { monthly: 28, yearly: 24 },
};

export const PLAN_NAMES: Record<PlanId, string> = { basic: 'Basic', professional: 'Professional' };

/** The map state a slot of each plan publishes into (spec §4): Basic live 1, Pro 3. */
export const PLAN_MAP_STATE: Record<PlanId, 1 | 3> = { basic: 1, professional: 3 };

/** A subscription counts only when its status is active or trialing (spec §4). */
export const COUNTING_STATUSES: readonly string[] = ['active', 'trialing'];

/** Slots meter: individual segments up to this many slots, a proportional bar above (spec §9). */
export const SLOT_SEGMENTS_MAX = 8;

/** A registered licence gives its map this many months of Basic usage (spec §1, §9). */
export const LICENCE_BASIC_MONTHS = 6;

/**
 * How this server registers purchase codes: checked with the marketplace (its token is set),
 * accepted after a format check only (a local or test install), or not at all (production
 * without the token: an unchecked code must never give a map its months of Basic).
 */
export const LICENCE_MODES = ['marketplace', 'local', 'off'] as const;
export type LicenceMode = (typeof LICENCE_MODES)[number];

/** The answer to a purchase code when the server cannot check it (mode `off`), as billing's "not configured". */
export const LICENCES_NOT_CONFIGURED = 'Licence registration is not configured on this server: purchase codes cannot be checked with the marketplace.';

/**
 * What a slot needs (spec §2's footnote, word for word), said before the card: in the plan
 * picker and on the checkout page.
 */
export const SLOTS_NEED_REGISTERED_MAPS = 'Each map requires a software licence bought through a marketplace, and slots only work with registered maps.';

/** Throws a RangeError unless `quantity` is a whole number of maps in the range (billing-api's `Quantity`, without zod). */
export function assertQuantity(quantity: number): void {
  if (!Number.isInteger(quantity)) throw new RangeError('Quantity must be a whole number.');
  if (quantity < MIN_QUANTITY) throw new RangeError(`Quantity must be at least ${MIN_QUANTITY}.`);
  if (quantity > MAX_QUANTITY) throw new RangeError(`Quantity must be at most ${MAX_QUANTITY}.`);
}
