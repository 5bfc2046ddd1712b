/**
 * What a subscription costs (spec §9), for the /estimate calculator and the pricing page: pure
 * arithmetic over PLAN_PRICES, so the client shows the same numbers checkout charges.
 */
import { assertQuantity, PLAN_PRICES, type BillingInterval, type PlanId } from './billing-plans.js';

/**
 * The map counts at which volume discounts start (spec §9). Their amounts are agreed with sales,
 * so no estimate applies them.
 */
export const VOLUME_DISCOUNT_THRESHOLDS = [10, 50, 100] as const;
export type VolumeDiscountThreshold = (typeof VOLUME_DISCOUNT_THRESHOLDS)[number];

export interface EstimateInput {
  plan: PlanId;
  interval: BillingInterval;
  /** Number of maps (slots): a whole number from 1 to 1000. */
  quantity: number;
}

export interface Estimate extends EstimateInput {
  /** Dollars per map per month on this plan and interval ('$/mo per map'). */
  pricePerMap: number;
  /** Dollars per month for every map. */
  monthlyTotal: number;
  /** Dollars per year for every map. */
  yearlyTotal: number;
  /**
   * Dollars a year that annual billing saves over monthly billing for this plan and quantity,
   * whichever interval is chosen (so a monthly estimate can say what switching would save).
   */
  annualSaving: number;
  /** The highest volume discount threshold the quantity reaches, or null below the first. */
  volumeTier: VolumeDiscountThreshold | null;
}

/** The highest volume discount threshold a quantity reaches, or null below 10 maps. */
export function volumeTier(quantity: number): VolumeDiscountThreshold | null {
  let reached: VolumeDiscountThreshold | null = null;
  for (const threshold of VOLUME_DISCOUNT_THRESHOLDS) if (quantity >= threshold) reached = threshold;
  return reached;
}

/**
 * The list price of a subscription before any volume discount. Throws (a ZodError) for a
 * quantity outside 1 to 1000, as checkout would refuse it.
 */
export function estimateSubscription({ plan, interval, quantity }: EstimateInput): Estimate {
  assertQuantity(quantity);
  const prices = PLAN_PRICES[plan];
  const pricePerMap = prices[interval];
  const monthlyTotal = pricePerMap * quantity;
  return {
    plan,
    interval,
    quantity,
    pricePerMap,
    monthlyTotal,
    yearlyTotal: monthlyTotal * 12,
    annualSaving: (prices.monthly - prices.yearly) * quantity * 12,
    volumeTier: volumeTier(quantity),
  };
}

/** Whole percent that annual billing saves on a plan's per-map price (Basic 20, Professional 14). */
export function annualSavingPercent(plan: PlanId): number {
  const { monthly, yearly } = PLAN_PRICES[plan];
  return Math.round(((monthly - yearly) / monthly) * 100);
}
