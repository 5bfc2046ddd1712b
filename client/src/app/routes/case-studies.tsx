/**
 * The three case studies (spec §2): real estate, retail, geographic. Each shows a working
 * example map (seeded by server/seed/example-maps.ts; retail shows the demo mall), the
 * customer's problem, the result in numbers, how the map was built, a quote, the features used
 * and the way to start.
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
  /** The example map the page embeds. */
  mapId: string;
  mapTitle: string;
  industry: string;
  eyebrow: string;
  title: string;
  metaDescription: string;
  customer: string;
  /** What the customer had to solve. */
  problem: string;
  challenge: string;
  results: { value: string; label: string }[];
  steps: { title: string; text: string }[];
  quote: { text: string; name: string; role: string };
  features: string[];
}

export const CASE_STUDIES: Record<CaseStudyKey, CaseStudy> = {
  'real-estate': {
    ...CASE_STUDY_CARDS['real-estate'],
    mapId: 'example-real-estate',
    mapTitle: 'Maple Grove site plan',
    industry: 'Residential development',
    eyebrow: 'Case study · Real estate',
    title: 'Site plans that sell units',
    metaDescription:
      'How Alder & Finch Homes replaced PDF site plans with an interactive Mapfold map showing every plot’s status and price, updated by the sales team in seconds.',
    customer: 'Alder & Finch Homes',
    problem:
      'Alder & Finch Homes was selling 22 homes and two apartment buildings at Maple Grove from a PDF site plan that was out of date the day a plot was reserved.',
    challenge:
      'Buyers called the sales office to ask what was still available, agents kept their own marked-up copies, and every change waited for the designer. The team wanted one plan that buyers could explore on their phone and that showed the truth the moment a plot changed hands.',
    results: [
      { value: '61%', label: 'of availability questions answered by the map instead of a phone call' },
      { value: '< 1 min', label: 'from a reservation to the updated plan on the website (it took two days)' },
      { value: '+38%', label: 'more viewings booked in the first six months of sales' },
    ],
    steps: [
      { title: 'Uploaded the architect’s site plan', text: 'The SVG site plan became the map’s layer; every plot and building drawn in it became a clickable region.' },
      { title: 'Added a location per unit', text: 'Each plot got its type, bedrooms, living space and price, and its status as a group: Available, Reserved or Sold.' },
      { title: 'Embedded it on the development’s website', text: 'One line of embed code on the Maple Grove page. The sales team updates a plot’s status in the editor and the website shows it at once.' },
    ],
    quote: {
      text: 'Buyers used to ring us to ask what was left. Now they arrive at the show home knowing which plot they want, and we change a plot to Reserved before they have left the car park.',
      name: 'Hannah Okafor',
      role: 'Sales director, Alder & Finch Homes',
    },
    features: [
      'Site plan uploaded as SVG, every plot a clickable region',
      'Availability groups coloured on the plan, with a legend',
      'Price, size and status in each unit’s description',
      'Live updates: a status change shows on every embed at once',
      'Search and filters for buyers on phones and desktops',
      'Embed on the development’s own website',
    ],
  },
  retail: {
    ...CASE_STUDY_CARDS['retail'],
    mapId: 'demo',
    mapTitle: 'Riverside Mall directory',
    industry: 'Shopping centre',
    eyebrow: 'Case study · Retail',
    title: 'A store directory shoppers actually use',
    metaDescription:
      'How Riverside Mall put its two-floor store directory on its website and in-mall screens with one interactive Mapfold map that shoppers search in seconds.',
    customer: 'Riverside Mall',
    problem:
      'Riverside Mall’s 30 shops, restaurants and services were listed on printed boards and a static image on the website, and neither said which floor anything was on.',
    challenge:
      'Every new tenant meant reprinting directory boards and sending the web agency a new picture. Shoppers asked the information desk for the same handful of shops all day, and the food court on Level 1 was easy to miss.',
    results: [
      { value: '18,400', label: 'directory searches a month on the website and in-mall screens' },
      { value: '−45%', label: 'fewer “where is…” questions at the information desk' },
      { value: 'Same day', label: 'for a new tenant to appear on every directory' },
    ],
    steps: [
      { title: 'Drew each floor once', text: 'The ground floor and Level 1 are layers; every unit on the floor plans is a region tied to its shop.' },
      { title: 'Gave every shop its details', text: 'Category, opening hours, phone and a short description, grouped into Fashion, Food & drink, Electronics and more.' },
      { title: 'Published it everywhere from one map', text: 'The same map is embedded on the website and runs full screen on the in-mall screens, so an update reaches both.' },
    ],
    quote: {
      text: 'When a shop moves, we change it in one place before the shutters go up. The information desk finally spends its time on real questions.',
      name: 'Marco Bellini',
      role: 'Centre manager, Riverside Mall',
    },
    features: [
      'Two floors as layers, switched in one tap',
      'Shops as regions coloured by category',
      'Search by shop name or category',
      'Opening hours and phone numbers for every shop',
      'Services marked: information, restrooms, lifts, ATM',
      'Full-screen mode for in-mall screens',
    ],
  },
  geographic: {
    ...CASE_STUDY_CARDS['geographic'],
    mapId: 'example-geographic',
    mapTitle: 'Brightline Solar service territories',
    industry: 'Residential solar installation',
    eyebrow: 'Case study · Geographic',
    title: 'Regions and places, on one clear map',
    metaDescription:
      'How Brightline Solar mapped five service territories and 18 installation offices across the US with Mapfold, so homeowners see at a glance who serves them.',
    customer: 'Brightline Solar',
    problem:
      'Brightline Solar grew from one office to 18 across 21 states, and its website still answered “do you install in my area?” with a list of addresses.',
    challenge:
      'Homeowners outside the service area filled in quote forms that sales had to turn down, and regional managers kept their own spreadsheets of which states each office covered. Marketing wanted a map anyone could read in a second.',
    results: [
      { value: '+27%', label: 'more quote requests from homeowners inside the service area' },
      { value: '−70%', label: 'fewer quote requests from areas Brightline does not serve' },
      { value: '18', label: 'offices and five territories kept up to date on one map' },
    ],
    steps: [
      { title: 'Started from the built-in US states map', text: 'No drawing needed: every state is already a region, ready to colour.' },
      { title: 'Coloured states by territory', text: 'Five groups, Pacific to Northeast, each with its own colour and a legend; states not yet served say so.' },
      { title: 'Pinned every office', text: 'Each office has its address, hours, phone and crew count, and opens from the map or the search.' },
    ],
    quote: {
      text: 'Our coverage used to live in three spreadsheets. Now the map is the source of truth, and when we open an office it is on the website the same afternoon.',
      name: 'Daniel Reyes',
      role: 'Head of marketing, Brightline Solar',
    },
    features: [
      'Built-in US states map, every state a region',
      'Territories as coloured groups with a legend',
      'Office pins with address, hours and phone',
      'Search across states and offices',
      'Deep links to one office for ads and e-mails',
      'Embedded on the website and partner sites',
    ],
  },
};


function CaseStudyPage({ studyKey }: { studyKey: CaseStudyKey }) {
  const study = CASE_STUDIES[studyKey];
  const others = CASE_STUDY_ORDER.filter((key) => key !== studyKey).map((key) => CASE_STUDIES[key]);
  return (
    <div className="case-study">
      <title>{`${study.title} · ${study.customer} case study · Mapfold`}</title>
      <PageDescription content={study.metaDescription} />

      <div className="case-study__hero">
        <div className="container case-study__hero-grid">
          <div>
            <span className="eyebrow">{study.eyebrow}</span>
            <h1>{study.title}</h1>
            <p className="lead">{study.problem}</p>
          </div>
          <dl className="case-study__facts">
            <div>
              <dt>Customer</dt>
              <dd>{study.customer}</dd>
            </div>
            <div>
              <dt>Industry</dt>
              <dd>{study.industry}</dd>
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
          <LiveMapEmbed src={paths.viewer.to(study.mapId)} title={study.mapTitle} caption="Working example: explore it like a visitor would" />
        </div>
      </section>

      <section className="section case-study__challenge" aria-labelledby="challenge-title">
        <div className="container case-study__split">
          <SectionHeading id="challenge-title" eyebrow="The challenge" title="What had to change" />
          <p className="case-study__text">{study.challenge}</p>
        </div>
      </section>

      <section className="section section--alt" aria-labelledby="results-title">
        <div className="container">
          <SectionHeading id="results-title" eyebrow="The result" title={`What the map did for ${study.customer}`} />
          <ul className="case-study__results">
            {study.results.map((result, index) => (
              <li key={result.label}>
                <FadeUp delay={index * 0.08}>
                  <strong>{result.value}</strong>
                  <span>{result.label}</span>
                </FadeUp>
              </li>
            ))}
          </ul>
          <p className="case-study__footnote">
            {study.customer} is an example customer: the figures show what a project like this one typically achieves, and the map above is a
            working example.
          </p>
        </div>
      </section>

      <section className="section" aria-labelledby="steps-title">
        <div className="container">
          <SectionHeading id="steps-title" eyebrow="How they built it" title="Three steps, one afternoon" />
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

      <section className="section case-study__quote-section" aria-label="What the customer says">
        <div className="container">
          <figure className="case-study__quote">
            <blockquote>
              <p>{study.quote.text}</p>
            </blockquote>
            <figcaption>
              <strong>{study.quote.name}</strong>
              <span>{study.quote.role}</span>
            </figcaption>
          </figure>
        </div>
      </section>

      <section className="section" aria-labelledby="features-title">
        <div className="container case-study__split">
          <SectionHeading id="features-title" eyebrow="Features used" title="Everything in this map" lead="All of it is in every plan, including the two free test maps." />
          <Checklist label={`Features used by ${study.customer}`} className="case-study__checklist">
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
              More case studies
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
