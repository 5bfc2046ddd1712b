/**
 * The viewer's words for a route (events/wayfinding/route-types.ts keeps steps as data, each
 * reader words them): one sentence per step, the distance and the walking time. Numbers go
 * through Intl in the visitor's language; the sentences are the product's English for now.
 */
import { describeStep } from '../../../../../events/wayfinding/describe-step';
import type { RouteFailure, RouteStep } from '../../../../../events/wayfinding/route-types';

/**
 * The sentence of a step ("Turn left after Café Nero", "Take the lift to Level 1"): the
 * product's English wording (events/wayfinding/describe-step.ts), so the viewer, the editor's
 * "test a route" and the server read the same route alike.
 */
export function stepSentence(step: RouteStep): string {
  return describeStep(step);
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
