/**
 * The marketing, contact and legal pages (spec §2). Plain for now: a heading and real copy;
 * the case-study layouts and the extended footer come with their own issue.
 */
import { Link, useSearchParams } from 'react-router-dom';
import { ButtonLink } from '../../components/ui/button';
import { SimplePage } from '../../features/marketing/components/simple-page';
import { paths } from '../paths';

const startActions = (
  <>
    <ButtonLink to={paths.register}>Start for free</ButtonLink>
    <ButtonLink to={paths.contact} variant="secondary">
      Talk to us
    </ButtonLink>
  </>
);

export const RealEstateCaseStudyPage = () => (
  <SimplePage
    eyebrow="Case study · Real estate"
    title="Site plans that sell units"
    lead="A residential developer replaced static PDF site plans with an interactive map of every building, floor and unit, with availability kept up to date by the sales team."
    actions={startActions}
  >
    <p>
      Buyers explore the development from their phone, filter by size and price, and open a unit to see its plan and status. When a unit
      is reserved, the sales team marks it once and every embedded copy of the map shows it at the same moment.
    </p>
  </SimplePage>
);

export const RetailCaseStudyPage = () => (
  <SimplePage
    eyebrow="Case study · Retail"
    title="A store directory shoppers actually use"
    lead="A shopping centre put its directory on its website and on in-mall screens from one map, so every shop, entrance and service is findable in seconds."
    actions={startActions}
  >
    <p>
      Each level is a layer and each shop a location with its category, hours and logo. Shoppers search for a brand and see where it is,
      and the centre's team updates tenants without waiting for a designer.
    </p>
  </SimplePage>
);

export const GeographicCaseStudyPage = () => (
  <SimplePage
    eyebrow="Case study · Geographic"
    title="Regions and places, on one clear map"
    lead="A tourism board mapped its trails, viewpoints and partner businesses across a whole region, and published it on its website and partners' sites."
    actions={startActions}
  >
    <p>
      Layers group the map by theme, from hiking to food, and every place carries its own description and photos. Partners embed the
      same map, so there is one source of truth for the whole region.
    </p>
  </SimplePage>
);

export const WayfindingPage = () => (
  <SimplePage
    eyebrow="Wayfinding"
    title="Get people where they are going"
    lead="Routes between any two locations across floors and buildings, for hospitals, campuses, airports and venues."
    actions={startActions}
  >
    <p>
      Draw the paths once; Mapfold works out the way from the entrance to the room, including lifts and stairs between floors. Visitors
      follow the route on their phone, and your front desk answers fewer questions.
    </p>
  </SimplePage>
);

export const EstimatePage = () => (
  <SimplePage
    eyebrow="Estimate"
    title="Estimate your project"
    lead="Need a map built for you? Tell us about your space and we will send a fixed-price estimate within two business days."
    actions={<ButtonLink to={paths.contact}>Request an estimate</ButtonLink>}
  >
    <p>
      Useful details: the kind of place, how many floors or areas, roughly how many locations, whether you need wayfinding, and where the
      map will be published. Plans in PDF, DWG or image form are all fine.
    </p>
  </SimplePage>
);

export function ContactPage() {
  // The footer's "Custom Work" opens this page on that topic.
  const [params] = useSearchParams();
  const custom = params.get('topic') === 'custom';
  return (
    <SimplePage
      eyebrow={custom ? 'Contact · Custom work' : 'Contact'}
      title="Contact us"
      lead={
        custom
          ? 'Want us to build your map? Tell us about your space, and we will come back with a plan and a fixed price.'
          : 'Questions about plans, licences or a custom map? We answer every message within one business day.'
      }
    >
      <p>
        Email us at <a href={custom ? 'mailto:hello@mapfold.com?subject=Custom%20work' : 'mailto:hello@mapfold.com'}>hello@mapfold.com</a>. For
        help with an existing map, include its link so we can look at it straight away. For custom work, see the{' '}
        <Link to={paths.estimate}>estimate page</Link>.
      </p>
    </SimplePage>
  );
}

export const AgreementPage = () => (
  <SimplePage eyebrow="Legal" title="Service Agreement" lead="The agreement between Mapfold and the businesses that subscribe to host their maps.">
    <h2>Subscriptions and slots</h2>
    <p>
      A subscription gives a number of hosting slots for the chosen plan. Each published map uses one slot and needs a registered software
      licence bought through a marketplace. Slots work only with registered maps.
    </p>
    <h2>Cancelling</h2>
    <p>You can cancel at any time from your account; your maps stay published until the end of the paid period. No refunds after activation.</p>
  </SimplePage>
);

export const PrivacyPage = () => (
  <SimplePage eyebrow="Legal" title="Privacy Policy" lead="What we collect, why, and the choices you have.">
    <h2>What we collect</h2>
    <p>
      Your account details (name and email), the maps you create, and usage information that helps us keep Mapfold fast and reliable.
      Payments are handled by our card payment provider; we never see or store card numbers.
    </p>
    <h2>Your choices</h2>
    <p>You can export or delete your maps at any time, and ask us to delete your account by writing to privacy@mapfold.com.</p>
  </SimplePage>
);

export const TermsPage = () => (
  <SimplePage eyebrow="Legal" title="Terms & Conditions" lead="The rules for using Mapfold's website and map builder.">
    <h2>Your content</h2>
    <p>Your maps remain yours. You give us the right to host and display them as needed to run the service for you.</p>
    <h2>Fair use</h2>
    <p>Do not use Mapfold to publish unlawful content or to disrupt the service for others. We may suspend accounts that do.</p>
  </SimplePage>
);
