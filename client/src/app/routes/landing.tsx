import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ButtonLink } from '../../components/ui/button';
import { Checklist, ChecklistItem } from '../../components/ui/checklist-item';
import { FeatureCard } from '../../components/ui/feature-card';
import { LinkCard } from '../../components/ui/link-card';
import { FadeUp } from '../../components/ui/scroll-in';
import { SectionHeading } from '../../components/ui/section-heading';
import { CtaBand } from '../../features/marketing/components/cta-band';
import { LiveMapEmbed } from '../../features/marketing/components/live-map-embed';
import { PageDescription } from '../../features/marketing/components/page-description';
import { paths } from '../../lib/paths';
import { useSession } from '../../lib/session';
import { CASE_STUDY_CARDS, CASE_STUDY_ORDER, caseStudyImage } from './case-study-cards';
import '../../features/marketing/components/marketing.css';
import '../../features/marketing/components/landing.css';

/** The map the hero shows live (seeded by the server, the same one /demo opens). */
const DEMO_MAP_ID = 'demo';

export const LANDING_DESCRIPTION =
  'Mapfold builds custom interactive maps for business: floor plans, real-estate site plans, mall directories, geographic maps and wayfinding, published on your website in minutes.';

function Icon({ d }: { d: string }) {
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <path d={d} />
    </svg>
  );
}

const USE_CASES: { title: string; text: string; to: string | null; icon: string }[] = [
  { title: 'Real estate', text: 'Site plans where buyers see every unit, its status and its price.', to: paths.caseStudyRealEstate, icon: 'M3 21h18M5 21V9l7-5 7 5v12M9 21v-6h6v6' },
  { title: 'Retail', text: 'Store directories that lead shoppers straight to the shelf they need.', to: paths.caseStudyRetail, icon: 'M4 7h16l-1.5 12.5a2 2 0 0 1-2 1.5h-9a2 2 0 0 1-2-1.5zM9 7V5a3 3 0 0 1 6 0v2' },
  { title: 'Geographic', text: 'Regions, routes and points of interest on maps of any scale.', to: paths.caseStudyGeographic, icon: 'M12 21s-7-6.1-7-11.5A7 7 0 0 1 19 9.5C19 14.9 12 21 12 21zM12 12a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5z' },
  { title: 'Wayfinding', text: 'Turn-by-turn routes through campuses, hospitals and venues.', to: paths.wayfinding, icon: 'M9 4 3 6v14l6-2 6 2 6-2V4l-6 2zM9 4v14M15 6v14' },
  { title: 'Floor plans', text: 'Offices, floors and rooms that people can search and explore.', to: null, icon: 'M4 4h16v16H4zM4 12h7M11 4v11M15 12h5' },
];

const FEATURES: { title: string; text: string; icon: string }[] = [
  {
    title: 'Draw your space',
    text: 'Upload a floor plan or site plan as SVG or an image, or start from a built-in world or US map. Add a layer per floor and a location for everything people look for.',
    icon: 'M4 20h16M6 16l9.5-9.5a2.1 2.1 0 0 1 3 3L9 19H6z',
  },
  {
    title: 'Edit together, live',
    text: 'Every change shows up at once for everyone working on the map. Every version stays in its history, so you can go back to any of them.',
    icon: 'M16 19v-1a4 4 0 0 0-4-4H7a4 4 0 0 0-4 4v1M9.5 10a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7zM21 19v-1a4 4 0 0 0-3-3.9M15.5 3.1a3.5 3.5 0 0 1 0 6.8',
  },
  {
    title: 'Publish anywhere',
    text: 'Put your map on your website with one line of embed code. It loads fast, works on every phone, and updates the moment you change it.',
    icon: 'M8 9l-4 3 4 3M16 9l4 3-4 3M13.5 5l-3 14',
  },
];

const INCLUDED: string[] = [
  'Search, filters and a legend for visitors',
  'Floors as layers, places as regions or markers',
  'Rich descriptions with images, hours and phone numbers',
  'Deep links that open the map on one place',
  'Embed code for any website, full screen on kiosks',
  'Version history and live collaboration',
];

function UseCase({ title, text, to, icon }: (typeof USE_CASES)[number]) {
  const body: ReactNode = (
    <>
      <span className="use-case__icon">
        <Icon d={icon} />
      </span>
      <h3>{title}</h3>
      <p>{text}</p>
      {to ? <span className="use-case__more">See how →</span> : null}
    </>
  );
  return to ? (
    <Link to={to} className="use-case card">
      {body}
    </Link>
  ) : (
    <div className="use-case card">{body}</div>
  );
}

/** The landing page (spec §2): custom interactive maps for business. */
export function LandingPage() {
  const { status } = useSession();
  const signedIn = status === 'signedIn';
  return (
    <>
      <title>Mapfold · Custom interactive maps for business</title>
      <PageDescription content={LANDING_DESCRIPTION} />
      {status === 'signedOut' ? (
        <div className="promo-banner">
          <div className="container promo-banner__inner">
            <p>
              <strong>Bought Mapfold on a marketplace?</strong> Register your purchase code for 6 months of Basic, free, for that map.
            </p>
            <Link to={`${paths.register}?licence=1`}>Get free access →</Link>
          </div>
        </div>
      ) : null}

      <section className="hero">
        <div className="container hero__grid">
          <div>
            <span className="eyebrow">Interactive maps for business</span>
            <h1>
              Custom interactive maps <span className="accent">for business</span>
            </h1>
            <p className="lead">
              Build floor plans, real-estate site plans, retail directories, geographic maps and wayfinding, then publish them on your
              website in minutes.
            </p>
            <div className="hero__actions">
              <ButtonLink to={signedIn ? paths.maps : paths.register} size="lg">
                {signedIn ? 'Go to your maps' : 'Start for free'}
              </ButtonLink>
              <ButtonLink to={paths.pricing} size="lg" variant="secondary">
                See pricing
              </ButtonLink>
            </div>
            <p className="hero__note">Two free test maps. No card needed.</p>
          </div>
          <LiveMapEmbed
            className="hero__map"
            src={paths.viewer.to(DEMO_MAP_ID)}
            title="Riverside Mall directory"
            aspectRatio={5 / 4}
            lazy={false}
            caption="Live demo: Riverside Mall, two floors"
          />
        </div>
      </section>

      <section className="section section--alt" aria-labelledby="use-cases-title">
        <div className="container">
          <div className="section__head">
            <span className="eyebrow">Made for your kind of place</span>
            <h2 id="use-cases-title">One builder, every kind of map</h2>
            <p>From a single office floor to a whole city district, Mapfold keeps your map accurate, searchable and on brand.</p>
          </div>
          <div className="use-cases">
            {USE_CASES.map((useCase) => (
              <UseCase key={useCase.title} {...useCase} />
            ))}
          </div>
        </div>
      </section>

      <section className="section" aria-labelledby="case-studies-title">
        <div className="container">
          <SectionHeading
            id="case-studies-title"
            eyebrow="Examples"
            title="See what you can build"
            lead="A housing development’s site plan, a mall directory, a company’s service territories: three live example maps made by the Mapfold team. Open one and try it as a visitor would."
          />
          <div className="landing-cases">
            {CASE_STUDY_ORDER.map((key, index) => {
              const study = CASE_STUDY_CARDS[key];
              return (
                <FadeUp key={key} delay={index * 0.08}>
                  <LinkCard to={study.path} title={study.cardTitle} arrow="right" className="landing-cases__card" {...caseStudyImage(study)} />
                </FadeUp>
              );
            })}
          </div>
        </div>
      </section>

      <section className="section section--alt" aria-labelledby="how-title">
        <div className="container">
          <SectionHeading id="how-title" eyebrow="How it works" title="From plan to published in an afternoon" />
          <div className="landing-features">
            {FEATURES.map((feature, index) => (
              <FadeUp key={feature.title} delay={index * 0.08}>
                <FeatureCard icon={<Icon d={feature.icon} />} title={feature.title}>
                  <p>{feature.text}</p>
                </FeatureCard>
              </FadeUp>
            ))}
          </div>
        </div>
      </section>

      <section className="section" aria-labelledby="included-title">
        <div className="container landing-included">
          <SectionHeading
            id="included-title"
            eyebrow="In every plan"
            title="Everything your visitors need to find their way"
            lead="Every plan, and both free test maps, come with the whole map builder. Professional adds wayfinding routes and priority support."
          />
          <Checklist label="Included in every plan" className="landing-included__list">
            {INCLUDED.map((item) => (
              <ChecklistItem key={item}>{item}</ChecklistItem>
            ))}
          </Checklist>
        </div>
      </section>

      <section className="section" style={{ paddingTop: 0 }}>
        <div className="container">
          <CtaBand title="Your first map is free" text="Try everything on two test maps, then subscribe when you publish.">
            <ButtonLink to={signedIn ? paths.newMap : paths.register} size="lg" variant="secondary">
              {signedIn ? 'Create a map' : 'Create your account'}
            </ButtonLink>
          </CtaBand>
        </div>
      </section>
    </>
  );
}
