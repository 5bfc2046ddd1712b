/**
 * "Test a route" in the Paths panel: two locations and the step-free switch, the route found by
 * the same `findRoute` the viewer uses, drawn on the floors (by the editor, from `onRoute`) and
 * its steps worded as the viewer words them (route-words.ts, in the app's English). A step is a
 * button: it shows its floor and place.
 */
import { useEffect, useId, useMemo, useState } from 'react';
import type { MapDocument, Point } from '../../../../../events/map-document';
import { findRoute } from '../../../../../events/wayfinding/find-route';
import type { Route, RouteFailure } from '../../../../../events/wayfinding/route-types';
import { useTranslator } from '../../../i18n/i18n-context';
import { exactMetresText, stepSentence } from '../../../i18n/route-words';

export interface RouteTestProps {
  document: MapDocument;
  /** The route to draw on the map (null: none). */
  onRoute: (route: Route | null) => void;
  /** Show a place of a floor (a step chosen in the list). */
  onShow: (layer: string, at: Point) => void;
}

export function failureText(failure: RouteFailure, document: MapDocument, from: string, to: string): string {
  const title = (id: string) => document.locations.find((location) => location.id === id)?.title ?? 'That location';
  switch (failure.reason) {
    case 'unknown-end':
      return `${title(failure.which === 'from' ? from : to)} is no longer on the map.`;
    case 'off-network':
      return `${title(failure.which === 'from' ? from : to)} is not on the paths: draw paths on its floor, or choose its entrance in its form.`;
    case 'no-step-free-path':
      return 'Only a way with steps joins them: add a lift or a ramp, or mark the links step-free where they are.';
    case 'no-path':
      return 'No path joins them: check the network for gaps.';
  }
}

function duration(seconds: number): string {
  const minutes = Math.max(1, Math.round(seconds / 60));
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

export function RouteTest({ document: doc, onRoute, onShow }: RouteTestProps) {
  const ids = useId();
  const translator = useTranslator();
  const locations = useMemo(() => [...doc.locations].sort((a, b) => a.title.localeCompare(b.title)), [doc.locations]);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [stepFree, setStepFree] = useState(false);
  const [asked, setAsked] = useState(false);
  const floorName = (layer: string) => doc.layers.find((candidate) => candidate.id === layer)?.name ?? layer;

  // Asked for: the answer follows the map as it is edited.
  const result = useMemo(() => (asked && from && to ? findRoute(doc, { location: from }, { location: to }, { stepFree }) : null), [asked, doc, from, to, stepFree]);
  useEffect(() => {
    onRoute(result?.ok ? result.route : null);
  }, [result, onRoute]);
  useEffect(() => () => onRoute(null), [onRoute]);

  return (
    <section className="ep-section" aria-labelledby={`${ids}-title`}>
      <h3 id={`${ids}-title`} className="ep-section__title">
        Test a route
      </h3>
      {locations.length < 2 ? (
        <p className="ep-hint">Add two locations to test a route between them.</p>
      ) : (
        <form
          className="pt-route-form"
          onSubmit={(event) => {
            event.preventDefault();
            setAsked(true);
          }}
        >
          <label>
            From
            <select className="ep-input" value={from} onChange={(event) => setFrom(event.target.value)}>
              <option value="">Choose a location</option>
              {locations.map((location) => (
                <option key={location.id} value={location.id}>
                  {location.title} ({floorName(location.layer)})
                </option>
              ))}
            </select>
          </label>
          <label>
            To
            <select className="ep-input" value={to} onChange={(event) => setTo(event.target.value)}>
              <option value="">Choose a location</option>
              {locations.map((location) => (
                <option key={location.id} value={location.id}>
                  {location.title} ({floorName(location.layer)})
                </option>
              ))}
            </select>
          </label>
          <label className="pt-choice">
            <input type="checkbox" checked={stepFree} onChange={(event) => setStepFree(event.target.checked)} />
            Step-free (lifts and ramps, no stairs)
          </label>
          <div className="pt-row">
            <button type="submit" className="ep-loc-button ep-loc-button--primary" disabled={!from || !to || from === to}>
              Show route
            </button>
            {asked ? (
              <button type="button" className="ep-loc-button ep-loc-button--quiet" onClick={() => setAsked(false)}>
                Clear
              </button>
            ) : null}
          </div>
        </form>
      )}
      <div aria-live="polite">
        {result && !result.ok ? (
          <p className="ep-warning" role="alert">
            {failureText(result.failure, doc, from, to)}
          </p>
        ) : null}
        {result?.ok ? (
          <>
            <p className="ep-hint">
              {exactMetresText(translator, result.route.metres)}, about {duration(result.route.seconds)}
              {result.route.floorChanges > 0 ? `, ${result.route.floorChanges === 1 ? '1 floor change' : `${result.route.floorChanges} floor changes`}` : ''}.
            </p>
            <ol className="pt-steps" aria-label="Route steps">
              {result.route.steps.map((step, index) => (
                <li key={index}>
                  <button type="button" className="pt-list__item" onClick={() => onShow(step.layer, step.at)}>
                    {stepSentence(translator, step, { distance: true })}
                  </button>
                </li>
              ))}
            </ol>
          </>
        ) : null}
      </div>
    </section>
  );
}
