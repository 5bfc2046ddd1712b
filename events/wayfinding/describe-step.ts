/**
 * A route step in English ("Turn left after Lumière Café", "Take Lift A to Level 1", "Your
 * destination is on the right"): the editor's "test a route", the server and the viewer until it
 * words steps in the visitor's language (issue 19) from the same step data.
 */
import type { RouteStep, RouteStepKind } from './route-types.js';

const TURNS: Partial<Record<RouteStepKind, string>> = {
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

export interface DescribeOptions {
  /** Say the walk before the step ("Walk 40 m, then turn left …"); off by default. */
  distance?: boolean;
}

/** Whole metres, at least 1 (a step is never "0 m" away once anything is walked). */
export function formatMetres(metres: number): string {
  return `${Math.max(1, Math.round(metres))} m`;
}

export function describeStep(step: RouteStep, options: DescribeOptions = {}): string {
  const sentence = words(step);
  if (!options.distance || step.kind === 'depart' || step.metres < 0.5) return sentence;
  // "then take the lift", but "then Cinema Royale is ahead": a place's name keeps its capital.
  const named = step.kind === 'arrive' && step.landmark !== undefined;
  return `Walk ${formatMetres(step.metres)}, then ${named ? sentence : sentence.charAt(0).toLowerCase() + sentence.slice(1)}`;
}

function words(step: RouteStep): string {
  switch (step.kind) {
    case 'depart':
      return step.landmark ? `Start at ${step.landmark.title}` : 'Start here';
    case 'connector': {
      const connector = step.connector;
      if (!connector) return 'Change floors';
      const what = connector.name || CONNECTOR_WORDS[connector.kind];
      return `Take ${what} to ${connector.toLayerName}`;
    }
    case 'arrive': {
      const who = step.landmark ? step.landmark.title : 'Your destination';
      if (step.side === 'left' || step.side === 'right') return `${who} is on the ${step.side}`;
      return `${who} is ahead`;
    }
    default: {
      const turn = TURNS[step.kind] ?? 'Continue';
      if (!step.landmark) return turn;
      return step.kind === 'straight' ? `${turn} past ${step.landmark.title}` : `${turn} after ${step.landmark.title}`;
    }
  }
}
