/** /pricing (spec §2, §9): the plans per map, licences, volume discounts, refunds and a FAQ. */
import { Link } from 'react-router-dom';
import { ButtonLink } from '../../components/ui/button';
import { CtaBand } from '../../features/marketing/components/cta-band';
import { PageDescription } from '../../features/marketing/components/page-description';
import { PricingLicences, PricingTerms } from '../../features/marketing/components/pricing-details';
import { PricingFaq } from '../../features/marketing/components/pricing-faq';
import { SALES_CONTACT_PATH } from '../../features/marketing/components/pricing-links';
import { PricingPlans } from '../../features/marketing/components/pricing-plans';
import { paths } from '../../lib/paths';
import '../../features/marketing/components/marketing.css';

export function PricingPage() {
  return (
    <div className="page pricing-page">
      <title>Pricing · Mapfold</title>
      <PageDescription content="Mapfold pricing per published map: Basic from $8/mo per map, Professional from $24/mo per map with annual billing. Two free test maps, volume discounts from 10 maps." />
      <div className="container">
        <div className="pricing-page__header">
          <span className="eyebrow">Pricing</span>
          <h1>Simple pricing, per map</h1>
          <p className="lead">
            Pay only for the maps you publish. Build and test for free, then pick a plan for each map when it goes live. Save with annual
            billing.
          </p>
        </div>
        <PricingPlans />
        <p className="pricing-page__estimate">
          Publishing several maps? <Link to={paths.estimate}>Estimate your monthly and yearly total</Link>.
        </p>
        <PricingLicences />
        <PricingTerms />
        <PricingFaq />
        <CtaBand
          title="Not sure which plan fits?"
          text="Tell us how many maps you run and what they are for. We will recommend a plan and quote any volume discount."
        >
          <ButtonLink to={SALES_CONTACT_PATH} size="lg" variant="secondary">
            Talk to sales
          </ButtonLink>
          <ButtonLink to={paths.estimate} size="lg" variant="ghost">
            Estimate your cost
          </ButtonLink>
        </CtaBand>
      </div>
    </div>
  );
}
