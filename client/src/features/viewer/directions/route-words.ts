/**
 * The viewer's words for a route (events/wayfinding/route-types.ts keeps steps as data, each
 * reader words them): one sentence per step, the distance and the walking time. Numbers go
 * through Intl in the visitor's language; the sentences are English, like the rest of the viewer.
 */
import type { Route, RouteFailure, RouteStep } from '../../../../../events/wayfinding/route-types';

const TURNS: Partial<Record<RouteStep['kind'], string>> = {
  straight: 'Continue straight',
  'slight-left': 'Bear left',
  'slight-right': 'Bear right',
  left: 'Turn left',
  right: 'Turn right',
  'sharp-left': 'Turn sharp left',
  'sharp-right': 'Turn sharp right',
  'u-turn': 'Turn around',
};

const CONNECTOR_WORDS = { lift: 'the lift', stairs: 'the stairs', escalator: 'the escalator', ramp: 'the ramp' } as const;

/** The sentence of a step ("Turn left after Café Nero", "Take the lift to Level 1"). */
export function stepSentence(step: RouteStep, ends: { from: string; to: string }): string {
  switch (step.kind) {
    case 'depart':
      return `Start at ${ends.from}`;
    case 'connector': {
      const connector = step.connector;
      if (!connector) return 'Change floors';
      const what = connector.name ? connector.name : CONNECTOR_WORDS[connector.kind];
      return `Take ${what} to ${connector.toLayerName}`;
    }
    case 'arrive':
      return step.side === 'left' || step.side === 'right' ? `Your destination is on the ${step.side}` : 'Your destination is ahead';
    default: {
      const turn = TURNS[step.kind] ?? 'Continue';
      if (!step.landmark) return turn;
      return step.kind === 'straight' ? `${turn} past ${step.landmark.title}` : `${turn} after ${step.landmark.title}`;
    }
  }
}

const numbers = new Map<string, Intl.NumberFormat>();
function format(options: Intl.NumberFormatOptions, value: number): string {
  const key = JSON.stringify(options);
  let formatter = numbers.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(undefined, options);
    numbers.set(key, formatter);
  }
  return formatter.format(value);
}

/** "240 m", "1.2 km": rounded like a sign would be (5 m steps up close, 10 m further). */
export function metresText(metres: number): string {
  if (metres >= 1000) return format({ style: 'unit', unit: 'kilometer', maximumFractionDigits: 1 }, metres / 1000);
  const rounded = metres < 50 ? Math.max(5, Math.round(metres / 5) * 5) : Math.round(metres / 10) * 10;
  return format({ style: 'unit', unit: 'meter' }, rounded);
}

/** "4 min": at least one minute. */
export function walkingTimeText(seconds: number): string {
  return format({ style: 'unit', unit: 'minute', unitDisplay: 'short' }, Math.max(1, Math.round(seconds / 60)));
}

/** Metres of one step of `route` (steps carry map units; the route knows the scale). */
export function stepMetres(route: Route, step: RouteStep): number {
  return route.distance > 0 ? (step.distance * route.metres) / route.distance : 0;
}

/** Why there is no route, plainly. */
export function failureText(failure: RouteFailure, names: { from: string; to: string }): string {
  switch (failure.reason) {
    case 'unknown-end':
      return failure.which === 'from' ? 'The starting place is not on this map.' : 'The destination is not on this map.';
    case 'off-network':
      return `${failure.which === 'from' ? names.from : names.to} is not connected to any walkway yet, so no route can reach it.`;
    case 'no-path':
      return 'No route between these places.';
    case 'no-step-free-path':
      return 'No step-free route between these places.';
  }
}
