/**
 * The words of a route (events/wayfinding/route-types.ts keeps steps as data): one sentence per
 * step, the distance and the walking time, in the translator's language. The one wording of
 * steps: the viewer reads it in the visitor's language, the editor's "test a route" and the
 * tests in English (the English catalogue), so no second English wording can drift from it.
 *
 * Each sentence is a whole message whose `select` on the step's turn, the connector's kind or
 * the destination's side lets every language word each case its own way (messages/{locale}/
 * directions.json); distances and times go through Intl in the translator's locale.
 */
import type { ConnectorKind } from '../../../events/path-network';
import type { RouteFailure, RouteStep, RouteStepKind } from '../../../events/wayfinding/route-types';
import type { Translator } from './translator';

/** The turns' choices in the messages (ICU's select keys take no hyphen). */
const TURNS: Partial<Record<RouteStepKind, string>> = {
  straight: 'straight',
  'slight-left': 'slightLeft',
  'slight-right': 'slightRight',
  left: 'left',
  right: 'right',
  'sharp-left': 'sharpLeft',
  'sharp-right': 'sharpRight',
  'u-turn': 'uTurn',
};

export interface StepWordsOptions {
  /** Say the walk before the step ("Walk 40 m, then turn left …"), in whole metres; off by default. */
  distance?: boolean;
}

/**
 * The sentence of a step ("Turn left after Café Nero", "Take Lift A to Level 1", "Your
 * destination is on the right"), or with `distance` the walk before it too.
 */
export function stepSentence(translator: Translator, step: RouteStep, options: StepWordsOptions = {}): string {
  const { t } = translator;
  const walked = options.distance === true && step.kind !== 'depart' && step.metres >= 0.5;
  const distance = walked ? exactMetresText(translator, step.metres) : '';
  const place = step.landmark?.title ?? '';
  switch (step.kind) {
    case 'depart':
      return step.landmark ? t('directions.startAt', { place }) : t('directions.start');
    case 'connector': {
      const connector = step.connector;
      if (!connector) return t('directions.changeFloors');
      const values = { kind: connector.kind, name: connector.name, floor: connector.toLayerName, distance };
      if (connector.name) return t(walked ? 'directions.walkTakeNamed' : 'directions.takeNamed', values);
      return t(walked ? 'directions.walkTake' : 'directions.take', values);
    }
    case 'arrive': {
      const values = { side: step.side ?? 'ahead', place, distance };
      if (step.landmark) return t(walked ? 'directions.walkArriveAt' : 'directions.arriveAt', values);
      return t(walked ? 'directions.walkArrive' : 'directions.arrive', values);
    }
    default: {
      const values = { turn: TURNS[step.kind] ?? 'other', place, distance };
      if (step.landmark) return t(walked ? 'directions.walkTurnAt' : 'directions.turnAt', values);
      return t(walked ? 'directions.walkTurn' : 'directions.turn', values);
    }
  }
}

const numbers = new Map<string, Intl.NumberFormat>();
function format(locale: string, options: Intl.NumberFormatOptions, value: number): string {
  const key = `${locale}:${JSON.stringify(options)}`;
  let formatter = numbers.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale, options);
    numbers.set(key, formatter);
  }
  return formatter.format(value);
}

/** "240 m", "1.2 km" (as the locale writes them): rounded like a sign would be (5 m steps up close, 10 m further). */
export function metresText({ locale }: Translator, metres: number): string {
  if (metres >= 1000) return format(locale, { style: 'unit', unit: 'kilometer', maximumFractionDigits: 1 }, metres / 1000);
  const rounded = metres < 50 ? Math.max(5, Math.round(metres / 5) * 5) : Math.round(metres / 10) * 10;
  return format(locale, { style: 'unit', unit: 'meter' }, rounded);
}

/** Whole metres, at least 1 (a step is never "0 m" away once anything is walked): the editor's exact figure. */
export function exactMetresText({ locale }: Translator, metres: number): string {
  return format(locale, { style: 'unit', unit: 'meter' }, Math.max(1, Math.round(metres)));
}

/**
 * "4 min": at least one minute. A message rather than Intl's short unit, which some languages
 * shorten past reading (Arabic's is one letter): each says its minutes its own way.
 */
export function walkingTimeText({ t }: Translator, seconds: number): string {
  return t('directions.minutes', { count: Math.max(1, Math.round(seconds / 60)) });
}

/** "via the stairs and the lift": the kinds of floor change a route takes, listed as the locale lists. */
export function viaText(translator: Translator, kinds: readonly ConnectorKind[]): string {
  const names = kinds.map((kind) => translator.t('directions.connector', { kind }));
  return translator.t('directions.via', { connectors: new Intl.ListFormat(translator.locale, { type: 'conjunction' }).format(names) });
}

/** Why there is no route, plainly (`names`: the ends' titles, when known). */
export function failureText({ t }: Translator, failure: RouteFailure, names: { from: string | null; to: string | null }): string {
  switch (failure.reason) {
    case 'unknown-end':
      return t(failure.which === 'from' ? 'directions.unknownFrom' : 'directions.unknownTo');
    case 'off-network': {
      const place = failure.which === 'from' ? names.from : names.to;
      // (Shown only once both ends are picked: a title is always known.)
      return place === null ? t('directions.noPath') : t('directions.offNetwork', { place });
    }
    case 'no-path':
      return t('directions.noPath');
    case 'no-step-free-path':
      return t('directions.noStepFreePath');
  }
}
