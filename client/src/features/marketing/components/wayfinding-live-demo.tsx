/**
 * /wayfinding's live demo: the demo mall's viewer (/m/demo) in a frame, opened on a route whose
 * step-free version differs from the shortest (server/seed/demo-mall-paths.ts,
 * DEMO_STEP_FREE_PAIR), with a switch between the two. The frame is the real viewer (a page
 * of its own, so this page carries none of its code) and loads only when scrolled near.
 */
import { useState } from 'react';
import { SectionHeading } from '../../../components/ui/section-heading';

/** The demo mall's pair whose step-free route differs (DEMO_STEP_FREE_PAIR in the seed). */
export const DEMO_ROUTE = { map: 'demo', from: 'g-urbanthread', to: 'l1-cinema' } as const;

/** The viewer's address for the demo route, step-free or not. */
export function demoRouteSrc(stepFree: boolean): string {
  return `/m/${DEMO_ROUTE.map}?from=${DEMO_ROUTE.from}&to=${DEMO_ROUTE.to}${stepFree ? '&stepfree=1' : ''}`;
}

export function WayfindingLiveDemo() {
  const [stepFree, setStepFree] = useState(false);
  return (
    <section className="section wayfinding-live" aria-labelledby="live-demo-title">
      <div className="container">
        <SectionHeading
          id="live-demo-title"
          eyebrow="Live demo"
          title="Find your way around Riverside Mall"
          lead="A real map with real routes: from Urban Thread on the ground floor to Cinema Royale on Level 1. Turn step-free on and the route takes the lift instead of the stairs. Pick any two places in the panel, or follow the steps with the keyboard."
        />
        <div className="wayfinding-live__controls" role="group" aria-label="Route shown">
          <button type="button" className="wayfinding-live__option" aria-pressed={!stepFree} onClick={() => setStepFree(false)}>
            Shortest route
          </button>
          <button type="button" className="wayfinding-live__option" aria-pressed={stepFree} onClick={() => setStepFree(true)}>
            Step-free route
          </button>
        </div>
        <div className="wayfinding-live__frame">
          <iframe
            src={demoRouteSrc(stepFree)}
            title={`Map: Riverside Mall (demo), directions${stepFree ? ', step-free' : ''}`}
            loading="lazy"
            allow="fullscreen"
            allowFullScreen
          />
        </div>
      </div>
    </section>
  );
}
