/**
 * The words on the plan cards. Names and prices come from events/billing-api.ts (spec §9), the
 * one place checkout reads them too; the marketing pages describe the plans at more length.
 */
import type { BillingInterval, PlanId } from '../../../../events/billing-api';

export const PLAN_COPY: Record<PlanId, { audience: string; features: readonly string[] }> = {
  basic: {
    audience: 'For a single site or a small portfolio',
    features: ['One registered map published per slot', 'Embed on any website with one line of code', 'Live editing with your team, with version history', 'Email support within one business day'],
  },
  professional: {
    audience: 'For maps that carry a business',
    features: ['One registered Pro map per slot', 'Everything in Basic, plus wayfinding routes', 'Onboarding call with a map specialist', 'Priority support, answered the same business day'],
  },
};

/** The toggle's words (spec §2: a Monthly/Annual toggle). */
export const INTERVAL_LABELS: Record<BillingInterval, string> = { monthly: 'Monthly', yearly: 'Annual' };

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

/** Whole dollars as US prices are written: $3,456. */
export function formatDollars(amount: number): string {
  return dollars.format(amount);
}
