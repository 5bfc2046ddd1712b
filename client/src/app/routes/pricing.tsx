import { ButtonLink } from '../../components/ui/button';
import { PLANS } from '../../features/marketing/plans';
import { useSession } from '../../lib/session';
import { paths } from '../paths';
import '../../features/marketing/components/marketing.css';

/** Plans and prices per map (spec §9), shown as '$/mo per map'. */
export function PricingPage() {
  const { status } = useSession();
  const next = status === 'signedIn' ? paths.subscribe : paths.register;
  return (
    <div className="page">
      <title>Pricing · Mapfold</title>
      <div className="container">
        <div className="page-header">
          <span className="eyebrow">Pricing</span>
          <h1>Simple pricing, per map</h1>
          <p>Pay for the maps you publish. Start with two free test maps, and save with annual billing.</p>
        </div>
        <div className="plans">
          {PLANS.map((plan) => (
            <section key={plan.id} className={`plan card${plan.id === 'professional' ? ' plan--featured' : ''}`} aria-labelledby={`plan-${plan.id}`}>
              <h2 id={`plan-${plan.id}`}>{plan.name}</h2>
              <p className="plan__price">
                <strong>${plan.monthly}</strong>
                <span>/mo per map, billed monthly</span>
              </p>
              <p className="plan__annual">${plan.annual}/mo per map with annual billing</p>
              <p className="plan__summary">{plan.summary}</p>
              <ul>
                {plan.features.map((feature) => (
                  <li key={feature}>{feature}</li>
                ))}
              </ul>
              <ButtonLink to={next} variant={plan.id === 'professional' ? 'primary' : 'secondary'} block>
                Choose {plan.name}
              </ButtonLink>
            </section>
          ))}
        </div>
        <p className="pricing-note">
          Each map also needs a software licence, bought through a marketplace; registering a licence gives 6 months of Basic for that map.
          Slots only work with registered maps. Volume discounts start at 10 maps. No refunds after activation.
        </p>
      </div>
    </div>
  );
}
