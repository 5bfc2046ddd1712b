import { useState } from 'react';
import { Link } from 'react-router-dom';
import { BILLING_INTERVALS, type BillingInterval } from '../../../../../events/billing-plans';
import { annualSavingPercent } from '../../../../../events/billing-estimate';
import { Checklist, ChecklistItem } from '../../../components/ui/checklist-item';
import { SegmentedToggle } from '../../../components/ui/segmented-toggle';
import { formatDollars, INTERVAL_LABELS, PLANS, type Plan } from '../plans';
import './pricing.css';

/** The largest saving annual billing gives on any plan, for the toggle's badge. */
const BEST_SAVING = Math.max(...PLANS.map((plan) => annualSavingPercent(plan.id)));

const INTERVAL_OPTIONS = BILLING_INTERVALS.map((interval) => ({
  value: interval,
  label:
    interval === 'yearly' ? (
      <>
        {INTERVAL_LABELS[interval]} <span className="pricing-toggle__badge">Save up to {BEST_SAVING}%</span>
      </>
    ) : (
      INTERVAL_LABELS[interval]
    ),
}));

function PlanCard({ plan, interval }: { plan: Plan; interval: BillingInterval }) {
  const price = plan.prices[interval];
  const featured = plan.id === 'professional';
  const headingId = `plan-${plan.id}`;
  return (
    <section className={`card pricing-plan${featured ? ' pricing-plan--featured' : ''}`} aria-labelledby={headingId}>
      {featured ? <p className="pricing-plan__flag">Most chosen</p> : null}
      <h2 id={headingId} className="pricing-plan__name">
        {plan.name}
      </h2>
      <p className="pricing-plan__audience">{plan.audience}</p>
      <p className="pricing-plan__price" data-testid={`price-${plan.id}`}>
        <strong>{formatDollars(price)}</strong> <span>/mo per map</span>
      </p>
      <p className="pricing-plan__billing">
        {interval === 'yearly' ? (
          <>
            Billed annually at {formatDollars(price * 12)} per map.{' '}
            <span className="pricing-plan__saving">
              You save {formatDollars((plan.prices.monthly - price) * 12)} per map a year ({annualSavingPercent(plan.id)}%).
            </span>
          </>
        ) : (
          <>Billed monthly. {formatDollars(plan.prices.yearly)}/mo per map with annual billing.</>
        )}
      </p>
      <p className="pricing-plan__summary">{plan.summary}</p>
      <Link to={{ hash: '#subscribe' }} className={`btn btn--${featured ? 'primary' : 'secondary'} btn--lg btn--block`} aria-label={`Subscribe to ${plan.name}`}>
        Subscribe
      </Link>
      <Checklist label={`${plan.name} includes`} className="pricing-plan__features">
        {plan.features.map((feature) => (
          <ChecklistItem key={feature.text} included={feature.included}>
            {feature.text}
          </ChecklistItem>
        ))}
      </Checklist>
    </section>
  );
}

/** The Monthly/Annual toggle and the two plan cards, whose prices follow the toggle (spec §9). */
export function PricingPlans() {
  const [interval, setInterval] = useState<BillingInterval>('monthly');
  return (
    <div className="pricing-plans">
      <SegmentedToggle label="Billing period" hideLabel options={INTERVAL_OPTIONS} value={interval} onChange={setInterval} size="lg" className="pricing-toggle" />
      <div className="pricing-plans__grid">
        {PLANS.map((plan) => (
          <PlanCard key={plan.id} plan={plan} interval={interval} />
        ))}
      </div>
    </div>
  );
}
