/**
 * The three case-study pages (spec §2: real estate, retail, geographic), written as what they
 * are: examples. Each shows one of the product's own live maps (seeded by
 * server/seed/example-maps.ts; retail shows the demo mall), says plainly that it is an example
 * and that the business in it is made up, and tells what such a map solves, what is in this one
 * (counted from the seeded map: test/client/marketing-landing.test.tsx checks the counts), what
 * to try in it, how it is built and the features it uses. No customer, quote or result is
 * invented: there are none to show yet.
 */
import { ButtonLink } from '../../components/ui/button';
import { Checklist, ChecklistItem } from '../../components/ui/checklist-item';
import { Divider } from '../../components/ui/divider';
import { LinkCard } from '../../components/ui/link-card';
import { FadeUp } from '../../components/ui/scroll-in';
import { SectionHeading } from '../../components/ui/section-heading';
import { CtaBand } from '../../features/marketing/components/cta-band';
import { LiveMapEmbed } from '../../features/marketing/components/live-map-embed';
import { PageDescription } from '../../features/marketing/components/page-description';
import { paths } from '../../lib/paths';
import { CASE_STUDY_CARDS, CASE_STUDY_ORDER, caseStudyImage, type CaseStudyCard, type CaseStudyKey } from './case-study-cards';
import '../../features/marketing/components/marketing.css';
import '../../features/marketing/components/case-study.css';

interface CaseStudy extends CaseStudyCard {
  /** The example map the page embeds, and its title as the map itself gives it. */
  mapId: string;
  mapTitle: string;
  /** Who a map like this is for. */
  audience: string;
  eyebrow: string;
  title: string;
  metaDescription: string;
  /** What the example shows, in one or two sentences. */
  lead: string;
  /** That the place in the map is made up, in this example's words. */
  madeUp: string;
  /** The problem a map like this one solves (no figures: none are measured). */
  problem: string;
  /** What the example map holds: counts of the seeded map, not results. */
  contents: { value: string; label: string }[];
  /** What a visitor can try in the live map. */
  tryIt: string[];
  steps: { title: string; text: string }[];
  features: string[];
}

export const CASE_STUDIES: Record<CaseStudyKey, CaseStudy> = {
  'real-estate': {
    ...CASE_STUDY_CARDS['real-estate'],
    mapId: 'example-real-estate',
    mapTitle: 'Maple Grove site plan (example)',
    audience: 'Housing developers and estate agents',
    eyebrow: 'Example · Real estate',
    title: 'A site plan buyers can explore',
    metaDescription:
      'An example Mapfold map: a housing development’s site plan where every plot shows its status and price. Open it and try it as a buyer would.',
    lead: 'A housing development’s site plan as a live map: every plot and building is a region with its status and price, coloured Available, Reserved or Sold.',
    madeUp: 'Maple Grove, its plots and its prices are made up',
    problem:
      'Developments are often sold from a PDF site plan that is out of date the day a plot is reserved: buyers phone to ask what is left, and every change waits for a designer. In a map like this one, the sales team changes a plot’s status in the editor and every page the map is embedded in shows it at once.',
    contents: [
      { value: '22', label: 'plots: townhouses and detached homes, each a region of the site plan' },
      { value: '2', label: 'apartment buildings' },
      { value: '3', label: 'statuses in the legend: Available, Reserved and Sold' },
    ],
    tryIt: ['Click a plot for its bedrooms, living space and price', 'Search for a plot by its number, such as “Plot 12”', 'Open the legend to see what each colour means'],
    steps: [
      { title: 'A site plan drawn as SVG', text: 'Uploaded as the map’s layer: every plot and building drawn in it became a clickable region.' },
      { title: 'A location per unit', text: 'Each plot has its type, bedrooms, living space and price, and its status as a group: Available, Reserved or Sold.' },
      { title: 'Published and embedded', text: 'The map above is the published map, embedded with the same one line of code you would put on your website.' },
    ],
    features: [
      'Site plan uploaded as SVG, every plot a clickable region',
      'Status groups coloured on the plan, with a legend',
      'Price, size and status in each unit’s description',
      'Live updates: a status change shows on every embed at once',
      'Search for buyers on phones and desktops',
      'Embed on a development’s own website',
    ],
  },
  retail: {
    ...CASE_STUDY_CARDS['retail'],
    mapId: 'demo',
    mapTitle: 'Riverside Mall directory',
    audience: 'Shopping centres, markets and venues',
    eyebrow: 'Example · Retail',
    title: 'A store directory shoppers can search',
    metaDescription: 'An example Mapfold map: a two-floor mall directory with search, categories and directions. Open it and try it as a shopper would.',
    lead: 'A two-floor shopping centre’s directory as a live map: every shop is a region on its floor, grouped by category, with search and directions between shops.',
    madeUp: 'Riverside Mall and its shops are made up',
    problem:
      'Printed directory boards and a picture on the website go out of date with every new tenant, and neither says which floor a shop is on. One map, embedded on the website and shown full screen on in-centre screens, is changed in one place and is right everywhere.',
    contents: [
      { value: '2', label: 'floors, switched in one tap' },
      { value: '30', label: 'shops, restaurants and services' },
      { value: '6', label: 'categories in the legend, from Fashion to Services' },
    ],
    tryIt: ['Switch between the Ground floor and Level 1', 'Search for a shop or a category, such as “Food”', 'Ask for directions from one shop to another'],
    steps: [
      { title: 'Each floor drawn once', text: 'The Ground floor and Level 1 are layers; every unit on the floor plans is a region tied to its shop.' },
      { title: 'Every shop given its details', text: 'Category, opening hours, phone and a short description, grouped into Fashion, Food & drink, Electronics and more.' },
      { title: 'Walkways for directions', text: 'Paths along the corridors, stairs and lifts let visitors ask for the way from one shop to another, across floors.' },
    ],
    features: [
      'Two floors as layers, switched in one tap',
      'Shops as regions coloured by category',
      'Search by shop name or category',
      'Opening hours and phone numbers for every shop',
      'Directions between shops, across floors',
      'Full-screen mode for in-centre screens',
    ],
  },
  geographic: {
    ...CASE_STUDY_CARDS['geographic'],
    mapId: 'example-geographic',
    mapTitle: 'Brightline Solar service territories (example)',
    audience: 'Companies with regions, branches or dealers',
    eyebrow: 'Example · Geographic',
    title: 'Regions and places, on one clear map',
    metaDescription:
      'An example Mapfold map: a solar installer’s service territories and offices across the US, on the built-in US states map. Open it and explore it.',
    lead: 'A company’s service territories and offices across the United States as a live map: states coloured by territory, an office pin in each city it works from.',
    madeUp: 'Brightline Solar and its offices are made up',
    problem:
      'A list of office addresses does not answer “do you serve my area?”, and coverage kept in spreadsheets goes stale. On a map like this one, anyone sees at a glance who serves them, and a new office is on the website as soon as it is added in the editor.',
    contents: [
      { value: '5', label: 'territories, each a coloured group in the legend' },
      { value: '21', label: 'states coloured by the territory that serves them' },
      { value: '18', label: 'offices, each a pin with its address, hours and phone' },
    ],
    tryIt: ['Click a state to see which territory serves it', 'Search for a city, such as “Denver”', 'Open the legend for the five territories'],
    steps: [
      { title: 'The built-in US states map', text: 'No drawing needed: every state is already a region, ready to colour.' },
      { title: 'States coloured by territory', text: 'Five groups, Pacific to Northeast, each with its own colour and a place in the legend.' },
      { title: 'An office pin in each city', text: 'Each office has its address, hours and phone, and opens from the map or the search.' },
    ],
    features: [
      'Built-in US states map, every state a region',
      'Territories as coloured groups with a legend',
      'Office pins with address, hours and phone',
      'Search across states and offices',
      'Deep links that open the map on one office',
      'Embed on a website and partner sites',
    ],
  },
};

function CaseStudyPage({ studyKey }: { studyKey: CaseStudyKey }) {
  const study = CASE_STUDIES[studyKey];
  const others = CASE_STUDY_ORDER.filter((key) => key !== studyKey).map((key) => CASE_STUDIES[key]);
  return (
    <div className="case-study">
      <title>{`${study.title} · Example map · Mapfold`}</title>
      <PageDescription content={study.metaDescription} />

      <div className="case-study__hero">
        <div className="container case-study__hero-grid">
          <div>
            <span className="eyebrow">{study.eyebrow}</span>
            <h1>{study.title}</h1>
            <p className="lead">{study.lead}</p>
            <p className="case-study__notice" role="note">
              <strong>This is an example, not a customer story.</strong> {study.madeUp}; the map is one of Mapfold’s own live demo maps,
              working exactly as a published map does.
            </p>
          </div>
          <dl className="case-study__facts">
            <div>
              <dt>What it is</dt>
              <dd>An example map by the Mapfold team</dd>
            </div>
            <div>
              <dt>Made for</dt>
              <dd>{study.audience}</dd>
            </div>
            <div>
              <dt>Map</dt>
              <dd>{study.mapTitle}</dd>
            </div>
          </dl>
        </div>
      </div>

      <section className="case-study__map" aria-label="The example map">
        <div className="container">
          <LiveMapEmbed src={paths.viewer.to(study.mapId)} title={study.mapTitle} caption="Live example map: explore it as a visitor would" />
        </div>
      </section>

      <section className="section case-study__challenge" aria-labelledby="problem-title">
        <div className="container case-study__split">
          <SectionHeading id="problem-title" eyebrow="The problem" title="What a map like this solves" />
          <p className="case-study__text">{study.problem}</p>
        </div>
      </section>

      <section className="section section--alt" aria-labelledby="contents-title">
        <div className="container">
          <SectionHeading id="contents-title" eyebrow="In this example" title="What the map holds" />
          <ul className="case-study__results">
            {study.contents.map((item, index) => (
              <li key={item.label}>
                <FadeUp delay={index * 0.08}>
                  <strong>{item.value}</strong>
                  <span>{item.label}</span>
                </FadeUp>
              </li>
            ))}
          </ul>
          <h3 className="case-study__try-title" id="try-title">
            Try it in the map above
          </h3>
          <ul className="case-study__try" aria-labelledby="try-title">
            {study.tryIt.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </div>
      </section>

      <section className="section" aria-labelledby="steps-title">
        <div className="container">
          <SectionHeading id="steps-title" eyebrow="How it is built" title="Three steps in the editor" />
          <ol className="case-study__steps">
            {study.steps.map((step) => (
              <li key={step.title}>
                <h3>{step.title}</h3>
                <p>{step.text}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section className="section" aria-labelledby="features-title">
        <div className="container case-study__split">
          <SectionHeading id="features-title" eyebrow="Features used" title="Everything in this map" lead="All of it is in every plan, including the two free test maps." />
          <Checklist label="Features in this example" className="case-study__checklist">
            {study.features.map((feature) => (
              <ChecklistItem key={feature}>{feature}</ChecklistItem>
            ))}
          </Checklist>
        </div>
      </section>

      <section className="section" style={{ paddingTop: 0 }}>
        <div className="container">
          <CtaBand title="Build a map like this one" text="Start on two free test maps, or tell us about your project.">
            <ButtonLink to={paths.register} size="lg" variant="secondary">
              Start for free
            </ButtonLink>
            <ButtonLink to={paths.contact} size="lg" variant="ghost">
              Talk to us
            </ButtonLink>
          </CtaBand>
          <Divider className="case-study__divider" />
          <nav aria-labelledby="more-title">
            <h2 id="more-title" className="case-study__more-title">
              More examples
            </h2>
            <div className="case-study__more">
              {others.map((other) => (
                <LinkCard key={other.key} to={other.path} title={other.cardTitle} arrow="right" {...caseStudyImage(other)} />
              ))}
            </div>
          </nav>
        </div>
      </section>
    </div>
  );
}

export const RealEstateCaseStudyPage = () => <CaseStudyPage studyKey="real-estate" />;
export const RetailCaseStudyPage = () => <CaseStudyPage studyKey="retail" />;
export const GeographicCaseStudyPage = () => <CaseStudyPage studyKey="geographic" />;
