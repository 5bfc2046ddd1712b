/**
 * The subscription plans as the marketing pages present them. Names and prices come from
 * events/billing-api.ts (spec §9), the one place checkout reads them too; only the words are here.
 */
import { PLAN_IDS, PLAN_NAMES, PLAN_PRICES, type BillingInterval, type PlanId } from '../../../../events/billing-plans';

export interface PlanFeature {
  text: string;
  /** false: shown crossed out, to make the difference between the plans plain. */
  included: boolean;
}

export interface Plan {
  id: PlanId;
  name: string;
  /** Dollars per map per month, by billing interval. */
  prices: Record<BillingInterval, number>;
  summary: string;
  /** Who the plan suits, in a few words. */
  audience: string;
  features: readonly PlanFeature[];
}

const COPY: Record<PlanId, Pick<Plan, 'summary' | 'audience' | 'features'>> = {
  basic: {
    audience: 'For a single site or a small portfolio',
    summary: 'Publish a map on your website with everything a visitor needs to find what they came for.',
    features: [
      { text: 'One published map per slot', included: true },
      { text: 'Floors, layers, locations and search', included: true },
      { text: 'Embed on any website with one line of code', included: true },
      { text: 'Live editing with your team, with version history', included: true },
      { text: 'Email support within one business day', included: true },
      { text: 'Wayfinding routes between locations', included: false },
      { text: 'Onboarding call with a map specialist', included: false },
    ],
  },
  professional: {
    audience: 'For maps that carry a business',
    summary: 'Everything in Basic, plus routes and priority help for the maps people rely on every day.',
    features: [
      { text: 'One published map per slot', included: true },
      { text: 'Floors, layers, locations and search', included: true },
      { text: 'Embed on any website with one line of code', included: true },
      { text: 'Live editing with your team, with version history', included: true },
      { text: 'Priority support, answered the same business day', included: true },
      { text: 'Wayfinding routes between locations', included: true },
      { text: 'Onboarding call with a map specialist', included: true },
    ],
  },
};

export const PLANS: readonly Plan[] = PLAN_IDS.map((id) => ({ id, name: PLAN_NAMES[id], prices: PLAN_PRICES[id], ...COPY[id] }));

/** The words for each interval, as the toggles and totals use them. */
export const INTERVAL_LABELS: Record<BillingInterval, string> = { monthly: 'Monthly', yearly: 'Annual' };

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

/** Whole dollars as US prices are written: $3,456. */
export function formatDollars(amount: number): string {
  return dollars.format(amount);
}
