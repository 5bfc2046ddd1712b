import { ButtonLink } from '../../../components/ui/button';
import { FeatureCard } from '../../../components/ui/feature-card';
import { FadeUp } from '../../../components/ui/scroll-in';
import { SectionHeading } from '../../../components/ui/section-heading';
import { customWorkPath, paths } from '../../../lib/paths';
import { CtaBand } from './cta-band';
import './wayfinding.css';

function Icon({ d }: { d: string }) {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <path d={d} />
    </svg>
  );
}

/**
 * Two floors drawn in oblique projection (x - 0.33y, 0.62y) with the route from the entrance
 * on Level 1, up lift C, to the ward on Level 2: what the product draws, in miniature.
 */
function RouteVisual() {
  const floor = 'skewX(-28) scale(1 0.62)';
  return (
    <div className="wayfinding-visual" aria-hidden="true">
      <div className="wayfinding-visual__bar">
        <span />
        <span />
        <span />
        <em>St Mary’s Hospital · Directions</em>
      </div>
      <svg viewBox="0 0 460 330">
        <g transform={`translate(104 190) ${floor}`}>
          <rect width="340" height="200" rx="12" fill="#f8f9ff" stroke="#c9cffd" strokeWidth="2.5" />
          <g fill="#e6e9ff" stroke="#c9cffd" strokeWidth="2">
            <rect x="50" y="16" width="90" height="64" rx="6" />
            <rect x="156" y="16" width="90" height="64" rx="6" />
            <rect x="50" y="118" width="130" height="66" rx="6" />
            <rect x="262" y="16" width="62" height="168" rx="6" />
          </g>
          <path d="M30 190 V100 H200 V180" fill="none" stroke="#4451f2" strokeWidth="7" strokeLinecap="round" strokeLinejoin="round" />
          <circle cx="30" cy="190" r="10" fill="#fff" stroke="#4451f2" strokeWidth="6" />
          <rect x="190" y="170" width="20" height="20" rx="4" fill="#4451f2" />
        </g>
        <path d="M244 301 V153" stroke="#4451f2" strokeWidth="4" strokeDasharray="2 9" strokeLinecap="round" />
        <g transform={`translate(104 42) ${floor}`}>
          <rect width="340" height="200" rx="12" fill="#f8f9ff" fillOpacity="0.94" stroke="#c9cffd" strokeWidth="2.5" />
          <g fill="#e6e9ff" stroke="#c9cffd" strokeWidth="2">
            <rect x="16" y="16" width="160" height="64" rx="6" />
            <rect x="230" y="16" width="94" height="64" rx="6" fill="#dcfce7" stroke="#86efac" />
            <rect x="16" y="118" width="160" height="66" rx="6" />
            <rect x="230" y="118" width="94" height="66" rx="6" />
          </g>
          <path d="M200 180 V100 H277 V70" fill="none" stroke="#4451f2" strokeWidth="7" strokeLinecap="round" strokeLinejoin="round" />
          <rect x="190" y="170" width="20" height="20" rx="4" fill="#4451f2" />
        </g>
        <g transform="translate(365 48)">
          <path d="M0 -26c-10 0-17.5 7.4-17.5 17C-17.5 4 0 20 0 20S17.5 4 17.5-9C17.5-18.6 10-26 0-26z" fill="#4451f2" />
          <circle cy="-9" r="6" fill="#fff" />
        </g>
        <g fontFamily="Inter Variable, system-ui, sans-serif" fontWeight="650" fontSize="12" fill="#3a4170">
          <text x="16" y="116">Level 2</text>
          <text x="16" y="264">Level 1</text>
          <text x="386" y="66" fill="#2f855a">Cardiology</text>
          <text x="60" y="328" fill="#4451f2">Main entrance</text>
        </g>
      </svg>
      <div className="wayfinding-visual__directions">
        <div className="wayfinding-visual__summary">
          <strong>Cardiology, Ward B</strong>
          <span>Step-free · 3 min walk</span>
        </div>
        <ol>
          <li>Enter through the main lobby</li>
          <li>Take lift C to Level 2</li>
          <li>Turn right; Ward B is ahead on your left</li>
        </ol>
      </div>
    </div>
  );
}

/** The opening of /wayfinding: the promise, the actions and the route picture. */
export function WayfindingHero() {
  return (
    <section className="wayfinding-hero" aria-labelledby="wayfinding-title">
      <div className="container wayfinding-hero__grid">
        <div>
          <span className="eyebrow">Wayfinding</span>
          <h1 id="wayfinding-title">Get every visitor to the right door</h1>
          <p className="lead">
            Indoor maps with turn-by-turn routes across floors and buildings, for hospitals, campuses, airports, venues and shopping centres.
            We build it from your floor plans; your visitors open it on the web, on a kiosk or inside your own app.
          </p>
          <div className="wayfinding-hero__actions">
            <ButtonLink to={customWorkPath} size="lg">
              Talk to us
            </ButtonLink>
            <ButtonLink to={paths.pricing} size="lg" variant="secondary">
              See pricing
            </ButtonLink>
          </div>
        </div>
        <RouteVisual />
      </div>
    </section>
  );
}

const PLACES: { title: string; text: string; icon: string }[] = [
  {
    title: 'Hospitals',
    text: 'Patients and visitors find clinics, wards and the pharmacy without stopping staff, and step-free routes avoid stairs.',
    icon: 'M12 7v10M7 12h10M4 4h16v16H4z',
  },
  {
    title: 'Campuses',
    text: 'Students find lecture halls, labs and offices across dozens of buildings from the first day of term.',
    icon: 'M3 9l9-5 9 5-9 5zM7 11v5c3 2 7 2 10 0v-5',
  },
  {
    title: 'Airports',
    text: 'Travellers see the way to their gate, security, lounges and transport, with walking times they can trust.',
    icon: 'M10.5 14 4 16.5V14l6.5-4V5a1.5 1.5 0 0 1 3 0v5l6.5 4v2.5L13.5 14v4l2 1.5V21L12 20l-3.5 1v-1.5l2-1.5z',
  },
  {
    title: 'Venues',
    text: 'Stadiums, arenas and conference centres route guests to their seat, session room or nearest exit.',
    icon: 'M4 20V10l8-6 8 6v10M9 20v-5h6v5',
  },
  {
    title: 'Shopping centres',
    text: 'Shoppers search for a store or a product and follow the route, and tenants get a better-placed listing.',
    icon: 'M4 7h16l-1.5 12.5a2 2 0 0 1-2 1.5h-9a2 2 0 0 1-2-1.5zM9 7V5a3 3 0 0 1 6 0v2',
  },
];

/** The kinds of place the offering is made for. */
export function WayfindingPlaces() {
  return (
    <section className="section section--alt" aria-labelledby="places-title">
      <div className="container">
        <SectionHeading
          id="places-title"
          eyebrow="Who it is for"
          title="Made for big, busy places"
          lead="Anywhere people arrive for the first time, under some pressure, and need to be somewhere at a set time."
        />
        <ul className="wayfinding-places">
          {PLACES.map((place) => (
            <li key={place.title} className="card wayfinding-place">
              <span className="wayfinding-place__icon">
                <Icon d={place.icon} />
              </span>
              <h3>{place.title}</h3>
              <p>{place.text}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

const STEPS: { title: string; text: string }[] = [
  {
    title: 'Send us your plans',
    text: 'Floor plans as PDF, DWG or images, a list of destinations, and anything visitors ask your front desk about.',
  },
  {
    title: 'We draw the map and the paths',
    text: 'Our team builds each floor in Mapfold, adds every destination and lays out walkable paths, lifts, stairs and entrances.',
  },
  {
    title: 'You review and publish',
    text: 'Try routes on the test map, ask for changes, then publish to your website, kiosks and app on the same day.',
  },
  {
    title: 'Keep it current yourself',
    text: 'Rename a room, move a department or close a corridor in the editor. The change reaches every screen at once.',
  },
];

/** How a wayfinding project runs, from plans to published. */
export function WayfindingSteps() {
  return (
    <section className="section" aria-labelledby="how-title">
      <div className="container">
        <SectionHeading id="how-title" eyebrow="How it works" title="From floor plans to routes in weeks, not months" />
        <ol className="wayfinding-steps">
          {STEPS.map((step, index) => (
            <li key={step.title} className="wayfinding-step">
              <span className="wayfinding-step__num" aria-hidden="true">
                {String(index + 1).padStart(2, '0')}
              </span>
              <h3>{step.title}</h3>
              <p>{step.text}</p>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}

const CHANNELS: { title: string; text: string; points: string[] }[] = [
  {
    title: 'On the web',
    text: 'A fast map page that opens on any phone, no app to install.',
    points: ['QR codes at entrances open the map at that spot', 'Links straight to a destination in letters and emails'],
  },
  {
    title: 'On kiosks',
    text: 'Full-screen touch maps for lobbies and reception desks.',
    points: ['"You are here" set per kiosk', 'Returns to the start screen when left idle'],
  },
  {
    title: 'In your site and app',
    text: 'Embed the map with one line of code, in a web page or an app web view.',
    points: ['Matches your colours and fonts', 'Keyboard and screen-reader friendly'],
  },
];

/** Where the map runs: web, kiosks, embeds. */
export function WayfindingChannels() {
  return (
    <section className="section section--alt" aria-labelledby="where-title">
      <div className="container">
        <SectionHeading id="where-title" eyebrow="Where it runs" title="One map, every screen" lead="Build it once. Every copy shows the same, current map." />
        <div className="wayfinding-channels">
          {CHANNELS.map((channel, index) => (
            <FadeUp key={channel.title} delay={index * 0.08}>
              <div className="card wayfinding-channel">
                <h3>{channel.title}</h3>
                <p>{channel.text}</p>
                <ul>
                  {channel.points.map((point) => (
                    <li key={point}>{point}</li>
                  ))}
                </ul>
              </div>
            </FadeUp>
          ))}
        </div>
      </div>
    </section>
  );
}

const FEATURES: { title: string; text: string; icon: string }[] = [
  { title: 'Routes across floors', text: 'Paths link floors through lifts, stairs and escalators, and buildings through bridges and outdoor walkways.', icon: 'M4 18h4v-4h4v-4h4V6h4' },
  { title: 'Step-free options', text: 'Visitors who cannot use stairs get a route by lifts and ramps, with the same clear directions.', icon: 'M12 5a2 2 0 1 0 0-.01M10 9h4l1 6h3M10 9l-1 5a4 4 0 1 0 6 3' },
  { title: 'Search everything', text: 'Departments, rooms, people, services and amenities, with the names visitors actually use.', icon: 'M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14zM20 20l-4-4' },
  { title: 'Live changes', text: 'Close a corridor for works or move a clinic: routes take the change into account straight away.', icon: 'M4 12a8 8 0 0 1 14-5.3M20 12a8 8 0 0 1-14 5.3M18 3v4h-4M6 21v-4h4' },
];

/** What the wayfinding map does for a visitor. */
export function WayfindingFeatures() {
  return (
    <section className="section" aria-labelledby="features-title">
      <div className="container">
        <SectionHeading id="features-title" eyebrow="Features" title="Everything a visitor needs to find their way" />
        <div className="wayfinding-features">
          {FEATURES.map((feature) => (
            <FeatureCard key={feature.title} title={feature.title} icon={<Icon d={feature.icon} />}>
              <p>{feature.text}</p>
            </FeatureCard>
          ))}
        </div>
      </div>
    </section>
  );
}

/** The closing call to action. */
export function WayfindingCallToAction() {
  return (
    <section className="section wayfinding-cta" aria-labelledby="cta-title">
      <div className="container">
        <CtaBand
          titleId="cta-title"
          title="Plan your wayfinding project"
          text="Tell us about your site. We reply within one business day with a plan, a timeline and a fixed price."
        >
          <ButtonLink to={customWorkPath} size="lg" variant="secondary">
            Talk to us
          </ButtonLink>
          <ButtonLink to={paths.pricing} size="lg" variant="ghost">
            See pricing
          </ButtonLink>
        </CtaBand>
      </div>
    </section>
  );
}
