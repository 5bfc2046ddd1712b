/** The price arithmetic behind /estimate and /pricing (spec §9). */
import { describe, expect, it } from 'vitest';
import { annualSavingPercent, estimateSubscription, VOLUME_DISCOUNT_THRESHOLDS, volumeTier } from '../../events/billing-estimate.js';

describe('estimateSubscription', () => {
  it('prices Basic monthly at $10 per map per month', () => {
    expect(estimateSubscription({ plan: 'basic', interval: 'monthly', quantity: 1 })).toEqual({
      plan: 'basic',
      interval: 'monthly',
      quantity: 1,
      pricePerMap: 10,
      monthlyTotal: 10,
      yearlyTotal: 120,
      annualSaving: 24,
      volumeTier: null,
    });
  });

  it('prices Basic annual at $8 per map per month', () => {
    const estimate = estimateSubscription({ plan: 'basic', interval: 'yearly', quantity: 3 });
    expect(estimate).toMatchObject({ pricePerMap: 8, monthlyTotal: 24, yearlyTotal: 288, annualSaving: 72 });
  });

  it('prices 12 Professional maps billed yearly at $288 a month and $3,456 a year', () => {
    const estimate = estimateSubscription({ plan: 'professional', interval: 'yearly', quantity: 12 });
    expect(estimate).toMatchObject({ pricePerMap: 24, monthlyTotal: 288, yearlyTotal: 3456, annualSaving: 576, volumeTier: 10 });
  });

  it('tells a monthly Professional estimate what annual billing would save', () => {
    const estimate = estimateSubscription({ plan: 'professional', interval: 'monthly', quantity: 5 });
    expect(estimate).toMatchObject({ pricePerMap: 28, monthlyTotal: 140, yearlyTotal: 1680, annualSaving: 240 });
  });

  it('prices the largest subscription, 1000 maps', () => {
    expect(estimateSubscription({ plan: 'professional', interval: 'monthly', quantity: 1000 }).yearlyTotal).toBe(336_000);
  });

  it.each([0, 1001, 2.5, Number.NaN])('refuses a quantity of %s, as checkout would', (quantity) => {
    expect(() => estimateSubscription({ plan: 'basic', interval: 'monthly', quantity })).toThrow();
  });
});

describe('volume discounts', () => {
  it('start at 10, 50 and 100 maps (spec §9)', () => {
    expect(VOLUME_DISCOUNT_THRESHOLDS).toEqual([10, 50, 100]);
  });

  it.each([
    [1, null],
    [9, null],
    [10, 10],
    [49, 10],
    [50, 50],
    [99, 50],
    [100, 100],
    [1000, 100],
  ] as const)('%i maps reach the %s tier', (quantity, tier) => {
    expect(volumeTier(quantity)).toBe(tier);
  });
});

describe('annualSavingPercent', () => {
  it('is 20% on Basic and 14% on Professional', () => {
    expect(annualSavingPercent('basic')).toBe(20);
    expect(annualSavingPercent('professional')).toBe(14);
  });
});
