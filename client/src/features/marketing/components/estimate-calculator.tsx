import { useState } from 'react';
import { Link } from 'react-router-dom';
import { BILLING_INTERVALS, LICENCE_BASIC_MONTHS, PLAN_IDS, PLAN_NAMES, type BillingInterval, type PlanId } from '../../../../../events/billing-plans';
import { estimateSubscription, VOLUME_DISCOUNT_THRESHOLDS } from '../../../../../events/billing-estimate';
import { QuantityStepper } from '../../../components/ui/quantity-stepper';
import { SegmentedToggle } from '../../../components/ui/segmented-toggle';
import { customWorkPath } from '../../../lib/paths';
import { formatDollars, INTERVAL_LABELS } from '../plans';
import { SALES_CONTACT_PATH } from './pricing-links';
import './estimate.css';

const PLAN_OPTIONS = PLAN_IDS.map((id) => ({ value: id, label: PLAN_NAMES[id] }));
const INTERVAL_OPTIONS = BILLING_INTERVALS.map((interval) => ({ value: interval, label: INTERVAL_LABELS[interval] }));
const FIRST_DISCOUNT = VOLUME_DISCOUNT_THRESHOLDS[0];

function maps(count: number): string {
  return `${count} ${count === 1 ? 'map' : 'maps'}`;
}

/**
 * The subscription calculator (spec §5, §9): number of maps, plan and interval in; the monthly
 * and yearly totals out, announced politely as they change. List prices only: volume discounts
 * are quoted by sales.
 */
export function EstimateCalculator() {
  const [quantity, setQuantity] = useState(1);
  const [plan, setPlan] = useState<PlanId>('basic');
  const [interval, setInterval] = useState<BillingInterval>('monthly');
  const estimate = estimateSubscription({ plan, interval, quantity });

  return (
    <div className="estimate">
      <form className="card estimate__inputs" aria-labelledby="estimate-inputs-title" onSubmit={(event) => event.preventDefault()}>
        <h2 id="estimate-inputs-title" className="estimate__title">
          Your maps
        </h2>
        <QuantityStepper label="Number of maps" value={quantity} onChange={setQuantity} />
        <p className="estimate__hint">Each published map uses one slot. Whole numbers from 1 to 1000.</p>
        <SegmentedToggle label="Plan" options={PLAN_OPTIONS} value={plan} onChange={setPlan} className="estimate__toggle" />
        <SegmentedToggle label="Billing" options={INTERVAL_OPTIONS} value={interval} onChange={setInterval} className="estimate__toggle" />
      </form>

      <section className="estimate__result" aria-labelledby="estimate-result-title">
        <h2 id="estimate-result-title" className="estimate__title">
          Your estimate
        </h2>
        <div aria-live="polite" aria-atomic="true" className="estimate__live">
          <p className="estimate__breakdown">
            {maps(quantity)} × {formatDollars(estimate.pricePerMap)}/mo per map on {PLAN_NAMES[plan]}, billed {interval === 'yearly' ? 'annually' : 'monthly'}
          </p>
          <dl className="estimate__totals">
            <div className="estimate__total estimate__total--main">
              <dt>Monthly total</dt>
              <dd data-testid="monthly-total">
                {formatDollars(estimate.monthlyTotal)}
                <span>/mo</span>
              </dd>
            </div>
            <div className="estimate__total">
              <dt>Yearly total</dt>
              <dd data-testid="yearly-total">
                {formatDollars(estimate.yearlyTotal)}
                <span>/yr</span>
              </dd>
            </div>
          </dl>
          <p className="estimate__saving">
            {interval === 'yearly'
              ? `Annual billing saves you ${formatDollars(estimate.annualSaving)} a year over monthly billing.`
              : `Switch to annual billing to save ${formatDollars(estimate.annualSaving)} a year.`}
          </p>
        </div>
        <p className="estimate__volume">
          {estimate.volumeTier === null ? (
            <>
              Volume discounts start at {FIRST_DISCOUNT} maps, with further steps at {VOLUME_DISCOUNT_THRESHOLDS[1]} and {VOLUME_DISCOUNT_THRESHOLDS[2]}.
            </>
          ) : (
            <>
              At {maps(quantity)} you qualify for a volume discount from {estimate.volumeTier} maps, not included above.{' '}
              <Link to={SALES_CONTACT_PATH}>Ask us for a quote</Link>.
            </>
          )}
        </p>
        <div className="estimate__actions">
          <Link to={{ hash: '#subscribe' }} className="btn btn--primary btn--lg">
            Subscribe
          </Link>
          <Link to={customWorkPath} className="btn btn--ghost btn--lg estimate__talk">
            Talk to us
          </Link>
        </div>
        <p className="estimate__fine">
          Prices in US dollars, before any sales tax. Each map also needs a software licence bought through a marketplace, which
          includes {LICENCE_BASIC_MONTHS} months of Basic.
        </p>
      </section>
    </div>
  );
}
