/**
 * One plan's card in the plan picker (spec §2 Subscribe modal): the price per map for the
 * chosen interval, a quantity stepper and a Subscribe button (its own checkout machine); for a
 * subscriber of the plan, the Active or Canceled badge, its slots and a Manage button instead.
 */
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useId, useState } from 'react';
import { PLAN_NAMES, type BillingInterval, type BillingSnapshot, type PlanId, type SubscriptionView, countingSubscription } from '../../../../events/billing-api';
import { annualSavingPercent, estimateSubscription } from '../../../../events/billing-estimate';
import { SlotMeter } from '../../components/slot-meter';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { ChecklistItem } from '../../components/ui/checklist-item';
import { QuantityStepper } from '../../components/ui/quantity-stepper';
import { SegmentedToggle } from '../../components/ui/segmented-toggle';
import { formatDate } from '../../utils/format-date';
import { checkoutMachine, isCheckoutBusy } from './checkout-machine';
import { manageMachine } from './manage-machine';
import { formatDollars, INTERVAL_LABELS, PLAN_COPY } from './plan-copy';

const INTERVAL_OPTIONS = (['monthly', 'yearly'] as const).map((value) => ({ value, label: INTERVAL_LABELS[value] }));

export interface PlanCardProps {
  plan: PlanId;
  /** The live `billing:{uid}` value; undefined until it arrives (Subscribe waits for it). */
  billing: BillingSnapshot | undefined;
  /** The highlighted card (the plan most people pick). */
  featured?: boolean;
}

export function PlanCard({ plan, billing, featured = false }: PlanCardProps) {
  const titleId = useId();
  const [interval, setBillingInterval] = useState<BillingInterval>('monthly');
  const [quantity, setQuantity] = useState(1);
  const subscription = billing ? countingSubscription(billing.subscriptions, plan) : null;
  // A subscriber sees the prices of the interval they pay by, once it is known.
  const subscribedInterval = subscription?.interval ?? null;
  useEffect(() => {
    if (subscribedInterval) setBillingInterval(subscribedInterval);
  }, [subscribedInterval]);
  const estimate = estimateSubscription({ plan, interval, quantity });
  const name = PLAN_NAMES[plan];

  const checkout = useActorRef(checkoutMachine);
  const busy = useSelector(checkout, isCheckoutBusy);
  const checkoutError = useSelector(checkout, (state) => state.context.error);
  // The checkout machine learns of its session's url or error from the live snapshot.
  const sessions = billing?.checkoutSessions;
  useEffect(() => {
    if (sessions) checkout.send({ type: 'SESSIONS', sessions });
  }, [checkout, sessions]);

  const classes = ['plan-card', featured ? 'plan-card--featured' : '', subscription ? 'plan-card--subscribed' : ''].filter(Boolean).join(' ');
  return (
    <article className={classes} aria-labelledby={titleId}>
      <div className="plan-card__head">
        <div>
          <h3 id={titleId} className="plan-card__name">
            {name}
          </h3>
          <p className="plan-card__audience">{PLAN_COPY[plan].audience}</p>
        </div>
        {subscription ? <SubscriptionBadge subscription={subscription} /> : featured ? <span className="plan-card__flag">Most popular</span> : null}
      </div>

      <SegmentedToggle label={`${name} billing interval`} hideLabel size="sm" options={INTERVAL_OPTIONS} value={interval} onChange={setBillingInterval} className="plan-card__interval" />

      <p className="plan-card__price">
        <span className="plan-card__amount">{formatDollars(estimate.pricePerMap)}</span>
        <span className="plan-card__unit">/mo per map</span>
      </p>
      <p className="plan-card__billing">
        {interval === 'yearly' ? `Billed annually. You save ${annualSavingPercent(plan)}%.` : `Billed monthly. Save ${annualSavingPercent(plan)}% with annual billing.`}
      </p>

      <ul className="plan-card__features">
        {PLAN_COPY[plan].features.map((feature) => (
          <ChecklistItem key={feature}>{feature}</ChecklistItem>
        ))}
      </ul>

      <div className="plan-card__actions">
        {subscription && billing ? (
          <Subscribed plan={plan} subscription={subscription} billing={billing} />
        ) : (
          <>
            <div className="plan-card__order">
              <QuantityStepper label="Number of maps" value={quantity} onChange={(next) => { setQuantity(next); checkout.send({ type: 'DISMISS' }); }} disabled={busy} size="sm" />
              <p className="plan-card__total" aria-live="polite">
                <span className="plan-card__total-label">Total</span>
                <strong>{formatDollars(interval === 'yearly' ? estimate.yearlyTotal : estimate.monthlyTotal)}</strong>
                <span className="muted">{interval === 'yearly' ? '/year' : '/month'}</span>
              </p>
            </div>
            <Button
              block
              size="lg"
              variant={featured ? 'primary' : 'secondary'}
              loading={busy}
              disabled={!billing}
              onClick={() => checkout.send({ type: 'SUBSCRIBE', plan, interval, quantity })}
            >
              {busy ? 'Starting...' : 'Subscribe'}
            </Button>
            {checkoutError ? <Alert>{checkoutError}</Alert> : null}
          </>
        )}
      </div>
    </article>
  );
}

function SubscriptionBadge({ subscription }: { subscription: SubscriptionView }) {
  if (subscription.cancelAt) {
    return (
      <span className="plan-card__badges">
        <span className="badge badge--warn">Canceled</span>
        <span className="plan-card__ends">Ends {formatDate(subscription.cancelAt)}</span>
      </span>
    );
  }
  return <span className="badge badge--ok">Active</span>;
}

/** A subscriber's part of the card: the plan's slots and the way to the billing portal. */
function Subscribed({ plan, subscription, billing }: { plan: PlanId; subscription: SubscriptionView; billing: BillingSnapshot }) {
  const manage = useActorRef(manageMachine);
  const busy = useSelector(manage, (state) => state.matches('requesting') || state.matches('redirecting'));
  const error = useSelector(manage, (state) => state.context.error);
  const interval = subscription.interval ? INTERVAL_LABELS[subscription.interval].toLowerCase() : null;
  return (
    <>
      <div className="plan-card__subscription">
        <p className="plan-card__summary">
          {subscription.quantity} {subscription.quantity === 1 ? 'map' : 'maps'}
          {interval ? `, billed ${interval === 'annual' ? 'annually' : 'monthly'}` : ''}
          {subscription.currentPeriodEnd && !subscription.cancelAt ? `. Renews ${formatDate(subscription.currentPeriodEnd)}.` : '.'}
        </p>
        <SlotMeter slots={billing.slots} kinds={[plan === 'basic' ? 'basic' : 'pro']} title="Slots in use" />
      </div>
      <Button block size="lg" variant="secondary" loading={busy} onClick={() => manage.send({ type: 'MANAGE' })}>
        {busy ? 'Opening...' : 'Manage'}
      </Button>
      <p className="plan-card__hint">Change the number of maps, the billing interval or your card, or cancel, in the billing portal.</p>
      {error ? <Alert>{error}</Alert> : null}
    </>
  );
}
