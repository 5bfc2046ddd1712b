/**
 * The directions panel: From and To (place pickers searching like the directory), a swap
 * button, a "Step-free" switch, the route's walking time and distance, and its steps as an
 * ordered list named "Directions" that is also the way to follow the route without a mouse:
 * each step is focusable (one Tab stop, arrow keys move, Home and End), the Previous and Next
 * buttons do the same, the map follows to the step's floor and place, and each step reached
 * is read out through a polite live region. A kiosk's start is fixed ("You are here").
 */
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { Group, Location } from '../../../components/map/types';
import type { RouteResult } from '../../../../../events/wayfinding/route-types';
import { useTranslator } from '../../../i18n/i18n-context';
import { Icon } from '../icons';
import { PlaceCombobox } from './place-combobox';
import { failureText, metresText, stepSentence, viaText, walkingTimeText } from '../../../i18n/route-words';
import { StepIcon } from './step-icon';
import { inDirectoryOrder } from '../../../../../events/directory-order';

export interface DirectionsPanelProps {
  /** The places one can pick (the map's shown locations: listed in the directory's order). */
  locations: readonly Location[];
  byId: ReadonlyMap<string, Location>;
  groupsById: ReadonlyMap<string, Group>;
  layerNames: ReadonlyMap<string, string> | null;
  from: string | null;
  to: string | null;
  stepFree: boolean;
  /** The step the visitor is at, or null before they start following. */
  step: number | null;
  /** A kiosk's fixed start. */
  here: Location | null;
  result: RouteResult | null;
  onChange: (change: { from?: string | null; to?: string | null; stepFree?: boolean }) => void;
  onSwap: () => void;
  onStep: (index: number) => void;
  onClose: () => void;
  /**
   * On a phone the panel is a sheet over the lower part of the map: a handle folds it down to
   * its title and the route's summary (walking time, distance), so the map gets the room back.
   */
  sheet?: { folded: boolean; onToggle: () => void } | undefined;
}

export function DirectionsPanel(props: DirectionsPanelProps) {
  const { byId, groupsById, layerNames, from, to, stepFree, step, here, result, onChange, onSwap, onStep, onClose, sheet } = props;
  const folded = sheet?.folded ?? false;
  const detailsId = useId();
  const fromLocation = here ?? (from ? byId.get(from) ?? null : null);
  const toLocation = to ? byId.get(to) ?? null : null;
  const translator = useTranslator();
  const { t } = translator;
  const locations = useMemo(() => inDirectoryOrder(props.locations, translator.locale), [props.locations, translator.locale]);
  const ends = { from: fromLocation?.title ?? null, to: toLocation?.title ?? null };
  const route = result?.ok ? result.route : null;
  const steps = route?.steps ?? [];
  const listRef = useRef<HTMLOListElement>(null);
  const toRef = useRef<HTMLInputElement>(null);
  const fromRef = useRef<HTMLInputElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  /** The step moved by the keyboard inside the list: its item takes the focus. */
  const focusStep = useRef(false);
  const [announcement, setAnnouncement] = useState('');

  // Opening the panel puts the focus on the first field to fill in.
  useEffect(() => {
    if (!from && !here) fromRef.current?.focus();
    else if (!to) toRef.current?.focus();
    else headingRef.current?.focus();
    // Only when the panel opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // A new route (or none) is read out once; a step reached, each time.
  const routeKey = route ? `${route.from.node}>${route.to.node}:${route.stepFree}:${route.metres}` : result && !result.ok ? result.failure.reason : '';
  useEffect(() => {
    if (!result) return;
    setAnnouncement(
      route
        ? t('directions.found', { time: walkingTimeText(translator, route.seconds), distance: metresText(translator, route.metres), count: route.steps.length })
        : failureText(translator, (result as Extract<RouteResult, { ok: false }>).failure, ends),
    );
    // By the route's identity (and the language) only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [routeKey, translator]);
  useEffect(() => {
    if (!route || step === null) return;
    const current = route.steps[step];
    if (!current) return;
    const metres = current.metres;
    const place = { step: step + 1, count: route.steps.length, sentence: stepSentence(translator, current) };
    setAnnouncement(metres >= 1 && current.kind !== 'depart' ? t('directions.announceWalk', { ...place, distance: metresText(translator, metres) }) : t('directions.announce', place));
    if (focusStep.current) {
      focusStep.current = false;
      listRef.current?.querySelector<HTMLElement>(`[data-step="${step}"]`)?.focus();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [step, routeKey, translator]);

  const go = (index: number, focus: boolean) => {
    if (!route) return;
    const next = Math.max(0, Math.min(route.steps.length - 1, index));
    focusStep.current = focus;
    onStep(next);
  };
  const onStepKey = (event: KeyboardEvent<HTMLLIElement>, index: number) => {
    const moves: Record<string, number> = { ArrowDown: index + 1, ArrowRight: index + 1, ArrowUp: index - 1, ArrowLeft: index - 1, Home: 0, End: steps.length - 1 };
    const target = moves[event.key];
    if (target !== undefined) {
      event.preventDefault();
      go(target, true);
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      go(index, true);
    }
  };
  const connectorKinds = [...new Set(steps.flatMap((candidate) => (candidate.connector ? [candidate.connector.kind] : [])))];
  const via = connectorKinds.length > 0 ? viaText(translator, connectorKinds) : null;
  const current = step ?? -1;
  const time = route ? walkingTimeText(translator, route.seconds) : '';

  return (
    <section className={`mf-directions${folded ? ' mf-directions--folded' : ''}`} aria-labelledby="mf-directions-title" data-mf-ui="">
      {sheet ? (
        <button type="button" className="mf-sheet-handle" aria-expanded={!folded} aria-controls={detailsId} onClick={sheet.onToggle}>
          <span className="mf-sheet-handle__grip" aria-hidden="true" />
          <span className="mf-sheet-handle__text">{t(folded ? 'directions.expand' : 'directions.collapse')}</span>
        </button>
      ) : null}
      <div className="mf-directions__head">
        <h2 id="mf-directions-title" className="mf-directions__title" tabIndex={-1} ref={headingRef}>
          {t('directions.title')}
        </h2>
        <button type="button" className="mf-icon-button" aria-label={t('directions.close')} onClick={onClose}>
          <Icon name="close" />
        </button>
      </div>

      <div id={detailsId} className="mf-directions__details" hidden={folded}>
        <div className={`mf-directions__ends${here ? ' mf-directions__ends--fixed' : ''}`}>
          {here ? (
            <div className="mf-place mf-place--from mf-place--fixed">
              <span className="mf-place__label">{t('directions.from')}</span>
              <span className="mf-place__dot" aria-hidden="true" />
              <p className="mf-place__input mf-place__here">
                <strong>{t('directions.youAreHere')}</strong>
                <span>{here.title}</span>
              </p>
            </div>
          ) : (
            <PlaceCombobox
              label={t('directions.from')}
              placeholder={t('directions.fromPlaceholder')}
              locations={locations}
              groupsById={groupsById}
              layerNames={layerNames}
              value={fromLocation}
              onChange={(id) => onChange({ from: id })}
              marker="from"
              inputRef={fromRef}
            />
          )}
          <PlaceCombobox
            label={t('directions.to')}
            placeholder={t('directions.toPlaceholder')}
            locations={locations}
            groupsById={groupsById}
            layerNames={layerNames}
            value={toLocation}
            onChange={(id) => onChange({ to: id })}
            marker="to"
            inputRef={toRef}
          />
          {here ? null : (
            <button type="button" className="mf-directions__swap" aria-label={t('directions.swap')} disabled={!from && !to} onClick={onSwap}>
              <svg width={18} height={18} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
                <path d="M7 4v16M3 8l4-4 4 4M17 20V4M13 16l4 4 4-4" />
              </svg>
            </button>
          )}
        </div>

        <div className="mf-directions__options">
          <button type="button" role="switch" aria-checked={stepFree} className="mf-switch" onClick={() => onChange({ stepFree: !stepFree })}>
            <span className="mf-switch__track" aria-hidden="true">
              <span className="mf-switch__thumb" />
            </span>
            <span className="mf-switch__text">
              <span className="mf-switch__label">{t('directions.stepFree')}</span>
              <span className="mf-switch__hint">{t('directions.stepFreeHint')}</span>
            </span>
          </button>
        </div>
      </div>

      <div className="mf-directions__body">
        {!fromLocation || !toLocation ? (
          <p className="mf-directions__empty">{t(!fromLocation && !toLocation ? 'directions.chooseBoth' : !fromLocation ? 'directions.chooseFrom' : 'directions.chooseTo')}</p>
        ) : result && !result.ok ? (
          <p className="mf-directions__failure" role="alert">
            {failureText(translator, result.failure, ends)}
          </p>
        ) : route ? (
          <>
            <div className="mf-route-summary">
              <WalkingTime text={t('directions.walkTime', { time })} time={time} />
              <p className="mf-route-summary__detail">
                {metresText(translator, route.metres)}
                {via ? ` · ${via}` : route.floorChanges === 0 ? ` · ${t('directions.sameFloor')}` : ''}
                {route.stepFree ? <span className="mf-route-summary__badge">{t('directions.stepFree')}</span> : null}
              </p>
            </div>
            <div className="mf-stepper" hidden={folded}>
              <button type="button" className="mf-button" aria-label={t('directions.previousStep')} disabled={current <= 0} onClick={() => go(current - 1, false)}>
                {t('directions.previous')}
              </button>
              <span className="mf-stepper__count" aria-hidden="true">
                {step === null ? t('directions.stepCount', { count: steps.length }) : t('directions.stepOf', { step: current + 1, count: steps.length })}
              </span>
              <button type="button" className="mf-button mf-button--primary" aria-label={t(step === null ? 'directions.beginStep' : 'directions.nextStep')} disabled={current >= steps.length - 1} onClick={() => go(current + 1, false)}>
                {t(step === null ? 'directions.begin' : 'directions.next')}
              </button>
            </div>
            <ol ref={listRef} className="mf-steps" aria-label={t('directions.title')} hidden={folded}>
              {steps.map((candidate, index) => {
                const metres = candidate.metres;
                return (
                  <li
                    key={index}
                    data-step={index}
                    className="mf-step"
                    tabIndex={index === Math.max(0, current) ? 0 : -1}
                    aria-current={index === current ? 'step' : undefined}
                    onClick={() => go(index, true)}
                    onKeyDown={(event) => onStepKey(event, index)}
                  >
                    <span className={`mf-step__badge mf-step__badge--${candidate.kind}`}>
                      <StepIcon kind={candidate.kind} connector={candidate.connector?.kind} />
                    </span>
                    <span className="mf-step__text">
                      <span className="mf-step__sentence">{stepSentence(translator, candidate)}</span>
                      {candidate.kind === 'depart' && layerNames ? <span className="mf-step__detail">{layerNames.get(candidate.layer)}</span> : null}
                      {candidate.kind === 'connector' && candidate.connector ? <span className="mf-step__detail">{t('directions.floors', { from: layerNames?.get(candidate.layer) ?? '', to: candidate.connector.toLayerName })}</span> : null}
                    </span>
                    {metres >= 1 && candidate.kind !== 'depart' ? <span className="mf-step__distance">{metresText(translator, metres)}</span> : null}
                  </li>
                );
              })}
            </ol>
          </>
        ) : (
          <p className="mf-directions__empty">{t('directions.finding')}</p>
        )}
      </div>
      <p className="mf-visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
    </section>
  );
}

/** "4 min walk" with the time in bold, wherever the language puts it ("徒歩 4 分"). */
function WalkingTime({ text, time }: { text: string; time: string }) {
  const at = text.indexOf(time);
  const before = at < 0 ? '' : text.slice(0, at);
  const after = at < 0 ? text : text.slice(at + time.length);
  return (
    <p className="mf-route-summary__time">
      {before ? <span>{before}</span> : null}
      {at < 0 ? null : <strong>{time}</strong>}
      {after ? <span>{after}</span> : null}
    </p>
  );
}
