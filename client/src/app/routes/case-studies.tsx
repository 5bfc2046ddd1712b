/** The three case studies (spec §2): real estate, retail, geographic. */
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

