import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ButtonLink } from '../../components/ui/button';
import { useSession } from '../../lib/session';
import { paths } from '../paths';
import '../../features/marketing/components/marketing.css';

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

const FEATURES: { title: string; text: string }[] = [
  { title: 'Draw your space', text: 'Upload a plan or start from a map, then add layers for floors and locations for everything people look for.' },
  { title: 'Edit together, live', text: 'Every change shows up at once for everyone working on the map, and every version stays in its history.' },
  { title: 'Publish anywhere', text: 'Put your map on your website with one line of embed code. It loads fast and works on every phone.' },
];

function HeroVisual() {
  return (
    <div className="hero-visual" aria-hidden="true">
      <div className="hero-visual__window">
        <div className="hero-visual__bar">
          <span />
          <span />
          <span />
          <em>Riverside Mall · Level 1</em>
        </div>
        <svg viewBox="0 0 480 300">
          <rect width="480" height="300" fill="#f8f9ff" />
          <g fill="#e6e9ff" stroke="#c9cffd" strokeWidth="2">
            <rect x="24" y="24" width="120" height="90" rx="8" />
            <rect x="24" y="130" width="120" height="146" rx="8" />
            <rect x="160" y="24" width="160" height="70" rx="8" />
            <rect x="336" y="24" width="120" height="120" rx="8" />
            <rect x="336" y="160" width="120" height="116" rx="8" />
            <rect x="160" y="206" width="160" height="70" rx="8" />
          </g>
          <rect x="176" y="110" width="128" height="80" rx="40" fill="#eef9f2" stroke="#b7e4c7" strokeWidth="2" />
          <path d="M84 114 V150 H240 V110" fill="none" stroke="#4451f2" strokeWidth="4" strokeLinecap="round" strokeDasharray="2 10" />
          <path d="M240 110 V80 H396 V144" fill="none" stroke="#4451f2" strokeWidth="4" strokeLinecap="round" />
          <g transform="translate(396 150)">
            <path d="M0 -26c-10 0-17.5 7.4-17.5 17C-17.5 4 0 20 0 20S17.5 4 17.5-9C17.5-18.6 10-26 0-26z" fill="#4451f2" />
            <circle cx="0" cy="-9" r="6" fill="#fff" />
          </g>
          <circle cx="84" cy="114" r="9" fill="#fff" stroke="#4451f2" strokeWidth="4" />
          <g fontFamily="Inter Variable, system-ui, sans-serif" fontSize="13" fontWeight="600" fill="#3a4170">
            <text x="40" y="60">Pharmacy</text>
            <text x="40" y="180">Food court</text>
            <text x="180" y="58">Fashion</text>
            <text x="352" y="60">Electronics</text>
            <text x="352" y="200">Cinema</text>
            <text x="180" y="246">Books</text>
            <text x="214" y="178" fill="#2f855a">Garden</text>
          </g>
        </svg>
      </div>
      <div className="hero-visual__chip hero-visual__chip--a">
        <span className="hero-visual__dot" />
        <span>
          Published
          <small>embedded on riverside.example</small>
        </span>
      </div>
      <div className="hero-visual__chip hero-visual__chip--b">
        <span>
          2 min walk
          <small>to Electronics</small>
        </span>
      </div>
    </div>
  );
}

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
          <HeroVisual />
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

      <section className="section" aria-labelledby="how-title">
        <div className="container">
          <div className="section__head">
            <span className="eyebrow">How it works</span>
            <h2 id="how-title">From plan to published in an afternoon</h2>
          </div>
          <div className="features">
            {FEATURES.map((feature, index) => (
              <div key={feature.title} className="feature">
                <span className="feature__num">{index + 1}</span>
                <h3>{feature.title}</h3>
                <p>{feature.text}</p>
              </div>
            ))}
          </div>
        </div>
      </section>

      <section className="section" style={{ paddingTop: 0 }}>
        <div className="container">
          <div className="cta-band">
            <div>
              <h2>Your first map is free</h2>
              <p>Try everything on two test maps, then subscribe when you publish.</p>
            </div>
            <ButtonLink to={signedIn ? paths.newMap : paths.register} size="lg" variant="secondary">
              {signedIn ? 'Create a map' : 'Create your account'}
            </ButtonLink>
          </div>
        </div>
      </section>
    </>
  );
}
