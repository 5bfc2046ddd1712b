/**
 * The plan picker's questions (spec §2: cancelling, why a licence is needed, having both
 * plans, discounts, refunds) and its footnote. Prices and thresholds come from the shared
 * constants, so the answers cannot drift from checkout.
 */
import { Link } from 'react-router-dom';
import { LICENCE_BASIC_MONTHS, PLAN_PRICES } from '../../../../events/billing-api';
import { VOLUME_DISCOUNT_THRESHOLDS } from '../../../../events/billing-estimate';
import { config } from '../../lib/config';
import { paths } from '../../lib/paths';
import { formatDollars } from './plan-copy';

const [first, second, third] = VOLUME_DISCOUNT_THRESHOLDS;

export function BillingFaq({ headingId }: { headingId: string }) {
  return (
    <section className="billing-faq" aria-labelledby={headingId}>
      <h3 id={headingId} className="billing-faq__title">
        Questions
      </h3>
      <details>
        <summary>How do I cancel?</summary>
        <p>
          Press Manage on your plan to open the billing portal and cancel there, at any time. Your maps stay published until the end of the period you
          have paid for; until then the plan shows Canceled with the date it ends.
        </p>
      </details>
      <details>
        <summary>Why does each map need a licence?</summary>
        <p>
          Every map runs on software licensed per map, bought through a marketplace. Register the purchase code in the map’s Publish panel and it gets{' '}
          {LICENCE_BASIC_MONTHS} months of Basic usage included. Slots only work with registered maps: a slot cannot publish a map without one.
        </p>
      </details>
      <details>
        <summary>Can I have both plans?</summary>
        <p>
          Yes. Basic and Professional are separate subscriptions, each with its own slots: publish everyday maps into Basic slots and the maps that need
          wayfinding into Professional ones.
        </p>
      </details>
      <details>
        <summary>Are there discounts?</summary>
        <p>
          Annual billing costs less per map: {formatDollars(PLAN_PRICES.basic.yearly)} instead of {formatDollars(PLAN_PRICES.basic.monthly)} on Basic,{' '}
          {formatDollars(PLAN_PRICES.professional.yearly)} instead of {formatDollars(PLAN_PRICES.professional.monthly)} on Professional. Volume discounts
          start at {first}, {second} and {third} maps: <Link to={paths.contact}>contact us</Link> for a quote.
        </p>
      </details>
      <details>
        <summary>Can I get a refund?</summary>
        <p>No refunds are given once a subscription is activated. Cancel at any time to stop the next renewal.</p>
      </details>
    </section>
  );
}

export function BillingFootnote() {
  return (
    <p className="billing-footnote">
      <span aria-hidden="true">* </span>Each map requires a software licence bought through a marketplace. Slots only work with registered maps.{' '}
      <a href={config.marketplaceUrl} target="_blank" rel="noopener noreferrer">
        Buy a licence<span className="visually-hidden"> (opens the marketplace in a new tab)</span>
      </a>
    </p>
  );
}
