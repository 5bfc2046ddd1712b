/**
 * The plan picker's content, shared by the #subscribe modal and the /subscribe page: what a
 * slot needs (a registered licence per map), the two plan cards, the slots, the questions and
 * the footnote.
 */
import { useId } from 'react';
import { PLAN_IDS } from '../../../../events/billing-api';
import { SlotMeter } from '../../components/slot-meter';
import { Alert } from '../../components/ui/alert';
import { Spinner } from '../../components/ui/spinner';
import { useBilling } from '../../lib/use-billing';
import { BillingFaq, BillingFootnote } from './billing-faq';
import { LicenceRequirement } from './licence-requirement';
import { PlanCard } from './plan-card';
import './billing.css';

export function PlanPicker({ uid }: { uid: string }) {
  const faqId = useId();
  const slotsId = useId();
  const licenceId = useId();
  const { billing, error } = useBilling(uid);
  return (
    <div className="plan-picker">
      {error && !billing ? <Alert title="Your subscriptions could not be loaded">{error.message}</Alert> : null}
      {!billing && !error ? (
        <p className="plan-picker__loading">
          <Spinner size="sm" label="" /> Loading your subscriptions…
        </p>
      ) : null}
      <LicenceRequirement headingId={licenceId} />
      <div className="plan-picker__cards">
        {PLAN_IDS.map((plan) => (
          <PlanCard key={plan} plan={plan} billing={billing} featured={plan === 'professional'} />
        ))}
      </div>
      {billing ? (
        <section className="plan-picker__slots" aria-labelledby={slotsId}>
          <h3 id={slotsId} className="plan-picker__slots-title">
            Your slots
          </h3>
          <SlotMeter slots={billing.slots} />
        </section>
      ) : null}
      <BillingFaq headingId={faqId} />
      <BillingFootnote />
    </div>
  );
}
