import { Link } from 'react-router-dom';
import { LICENCE_BASIC_MONTHS } from '../../../../../events/billing-plans';
import { VOLUME_DISCOUNT_THRESHOLDS } from '../../../../../events/billing-estimate';
import { FeatureCard } from '../../../components/ui/feature-card';
import { SectionHeading } from '../../../components/ui/section-heading';
import { FREE_TEST_MAPS, SALES_CONTACT_PATH } from './pricing-links';
import './pricing.css';

function Icon({ d }: { d: string }) {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <path d={d} />
    </svg>
  );
}

const LICENCE_STEPS: { title: string; text: string }[] = [
  {
    title: 'Buy a licence for the map',
    text: 'Each map needs its own software licence, bought through a marketplace. You receive a purchase code with your receipt.',
  },
  {
    title: 'Register the purchase code',
    text: `Enter the code on the map in Mapfold. Registering it gives that map ${LICENCE_BASIC_MONTHS} months of Basic, free.`,
  },
  {
    title: 'Keep it live with a slot',
    text: 'When the included months end, a Basic or Professional slot keeps the map published. Slots only work with registered maps.',
  },
];

/** How licences and slots fit together (spec §1, §2 footnote, §9). */
export function PricingLicences() {
  return (
    <section className="pricing-licences" aria-labelledby="licences-title">
      <SectionHeading
        id="licences-title"
        eyebrow="Licences"
        title="Every map needs a licence"
        lead="A subscription gives you hosting slots; a licence is what makes a map eligible for one. Here is how the two work together."
      />
      <ol className="pricing-licences__steps">
        {LICENCE_STEPS.map((step, index) => (
          <li key={step.title} className="pricing-licences__step">
            <span className="pricing-licences__num" aria-hidden="true">
              {index + 1}
            </span>
            <h3>{step.title}</h3>
            <p>{step.text}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** Volume discounts, the free test allowance and the refund policy (spec §9). */
export function PricingTerms() {
  return (
    <section aria-labelledby="terms-title">
      <SectionHeading id="terms-title" eyebrow="Good to know" title="Fair terms, stated plainly" />
      <div className="pricing-terms">
        <FeatureCard title="Volume discounts" icon={<Icon d="M4 19h16M7 15v4M12 11v8M17 7v12" />}>
          <p>
            Publishing many maps? Discounts apply from {VOLUME_DISCOUNT_THRESHOLDS[0]} maps, and grow again at {VOLUME_DISCOUNT_THRESHOLDS[1]} and{' '}
            {VOLUME_DISCOUNT_THRESHOLDS[2]} maps.
          </p>
          <ul className="pricing-terms__tiers" aria-label="Discount thresholds">
            {VOLUME_DISCOUNT_THRESHOLDS.map((threshold) => (
              <li key={threshold}>{threshold}+ maps</li>
            ))}
          </ul>
          <p>
            <Link to={SALES_CONTACT_PATH}>Ask our sales team</Link> for a quote; we reply within one business day.
          </p>
        </FeatureCard>
        <FeatureCard title={`${FREE_TEST_MAPS} free test maps`} icon={<Icon d="M9 3h6M10 3v6l-5 9a2 2 0 0 0 1.8 3h10.4a2 2 0 0 0 1.8-3l-5-9V3M7.5 14h9" />}>
          <p>
            Every account can build {FREE_TEST_MAPS} test maps without a subscription or a card. Use them to try the builder, show a draft to a
            client, or rehearse a launch.
          </p>
          <p>Subscribe when you are ready to publish.</p>
        </FeatureCard>
        <FeatureCard title="No refunds after activation" icon={<Icon d="M12 3l7 3v5c0 4.5-3 8.5-7 10-4-1.5-7-5.5-7-10V6zM9 12l2 2 4-4" />}>
          <p>
            Once a subscription or a licence is activated, the period you paid for is yours to use and is not refunded. You can cancel at any
            time, and your maps stay published until the end of that period.
          </p>
          <p>Try everything on the free test maps first.</p>
        </FeatureCard>
      </div>
    </section>
  );
}
