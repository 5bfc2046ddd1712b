/** /estimate (spec §2, §9): what a subscription costs for a number of maps. */
import { Link } from 'react-router-dom';
import { EstimateCalculator } from '../../features/marketing/components/estimate-calculator';
import { PageDescription } from '../../features/marketing/components/page-description';
import { SALES_CONTACT_PATH } from '../../features/marketing/components/pricing-links';
import { customWorkPath, paths } from '../../lib/paths';
import '../../features/marketing/components/marketing.css';

export function EstimatePage() {
  return (
    <div className="page estimate-page">
      <title>Estimate your cost · Mapfold</title>
      <PageDescription content="Work out what Mapfold costs for your maps: choose the number of maps, the plan and monthly or annual billing to see your monthly and yearly total." />
      <div className="container">
        <div className="estimate-page__header">
          <span className="eyebrow">Estimate</span>
          <h1>Estimate your cost</h1>
          <p className="lead">
            Choose how many maps you will publish, the plan and how you would like to pay. The totals update as you go. See{' '}
            <Link to={paths.pricing}>pricing</Link> for what each plan includes.
          </p>
        </div>
        <EstimateCalculator />
        <section className="estimate-notes" aria-label="How the estimate works">
          <div>
            <h2>Per map, per month</h2>
            <p>Every plan is priced per published map. Test maps cost nothing, and you can add or remove slots at any time.</p>
          </div>
          <div>
            <h2>Volume pricing</h2>
            <p>
              From 10, 50 and 100 maps, volume discounts lower the price per map. <Link to={SALES_CONTACT_PATH}>Our sales team</Link> quotes
              them for your exact number.
            </p>
          </div>
          <div>
            <h2>Built for you</h2>
            <p>
              Need the maps drawn, routes set up or an integration with your systems? <Link to={customWorkPath}>Tell us about it</Link>; our
              team quotes custom work at a fixed price.
            </p>
          </div>
        </section>
      </div>
    </div>
  );
}
