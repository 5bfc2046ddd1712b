/**
 * The route over the map (a layer of its own, apart from the renderer the editor shares): the
 * legs on the floor shown, as an SVG line with a dash running along it (still when the
 * visitor prefers reduced motion), the start and end markers, the current step's ring, the
 * kiosk's "You are here", and, where the route leaves the floor, a prompt with a button that
 * switches to the next floor. Drawn in the map view's frame, outside React, where its
 * ScreenProjection puts the floor's points (the canvas's camera, or MapLibre's on a street
 * basemap); the view fits the route's leg on the floor shown whenever the route or the floor
 * changes (MapView.fitTo), and keeps the visitor's step in sight (MapView.ensureVisible).
 */
import { useEffect, useLayoutEffect, useRef } from 'react';
import type { MapView, ScreenProjection } from '../../../components/map/map-view';
import type { MapPoint } from '../../../components/map/types';
import type { Route } from '../../../../../events/wayfinding/route-types';
import { useTranslator } from '../../../i18n/i18n-context';
import { ROUTE_INSETS, ROUTE_MAX_ZOOM, type Insets } from './fit-route';
import { stepSentence } from '../../../i18n/route-words';
import { StepIcon } from './step-icon';

const NO_ENDS: readonly { layer: string; at: MapPoint }[] = [];

export interface RouteOverlayProps {
  /** The map on screen (null until its renderer hands it over: nothing is drawn then). */
  view: MapView | null;
  /** The route to draw, or null (only the kiosk's marker, if any). */
  route: Route | null;
  /** The floor shown. */
  layerId: string;
  /** The step the visitor is at (its ring on the map), or null. */
  step: number | null;
  /** The kiosk's place: "You are here". */
  here: { layer: string; at: MapPoint } | null;
  /** Show another floor (the prompt's button); `step`: the step to go on with there. */
  onFloor: (layerId: string, step: number) => void;
  /** Room kept free around the fitted route (the controls over the map), in px. */
  insets?: Insets;
  /** The From and To places' own markers (a place's pin may stand away from its entrance): kept in view too. */
  ends?: readonly { layer: string; at: MapPoint }[];
}

/** Segments of `points` on screen as an SVG path ("M x y L x y …"). */
function pathOf(screen: ScreenProjection, legs: readonly (readonly MapPoint[])[]): string {
  let d = '';
  for (const points of legs) {
    points.forEach((point, index) => {
      const at = screen.toScreen(point);
      d += `${index === 0 ? 'M' : 'L'}${at.x.toFixed(1)} ${at.y.toFixed(1)}`;
    });
  }
  return d;
}

function place(element: Element | null, screen: ScreenProjection, point: MapPoint | null): void {
  if (!(element instanceof SVGElement || element instanceof HTMLElement)) return;
  if (!point) {
    element.style.display = 'none';
    return;
  }
  const at = screen.toScreen(point);
  element.style.display = '';
  element.style.transform = `translate(${at.x.toFixed(1)}px, ${at.y.toFixed(1)}px)`;
}

export function RouteOverlay({ view, route, layerId, step, here, onFloor, insets = ROUTE_INSETS, ends = NO_ENDS }: RouteOverlayProps) {
  const rootRef = useRef<HTMLDivElement>(null);
  const translator = useTranslator();
  const { t } = translator;
  const legs = route ? route.legs.filter((leg) => leg.layer === layerId).map((leg) => leg.points) : [];
  const first = route?.legs[0];
  const last = route?.legs[route.legs.length - 1];
  const start = first && first.layer === layerId ? first.points[0] ?? null : null;
  const end = last && last.layer === layerId ? last.points[last.points.length - 1] ?? null : null;
  const current = route && step !== null ? route.steps[step] ?? null : null;
  const ring = current && current.layer === layerId && current.kind !== 'depart' && current.kind !== 'arrive' ? current.at : null;
  const herePoint = here && here.layer === layerId ? here.at : null;
  // Where the route arrives on this floor from another, and leaves it for another.
  const changes = route
    ? route.legs.flatMap((leg, index) => {
        if (leg.layer !== layerId) return [];
        const points: MapPoint[] = [];
        if (index > 0 && leg.points[0]) points.push(leg.points[0]);
        if (index < route.legs.length - 1 && leg.points[leg.points.length - 1]) points.push(leg.points[leg.points.length - 1]!);
        return points;
      })
    : [];

  // Where the route leaves this floor: the connector step nearest the visitor's step.
  const leaving = route
    ? route.steps
        .map((candidate, index) => ({ candidate, index }))
        .filter(({ candidate }) => candidate.kind === 'connector' && candidate.layer === layerId && candidate.connector)
        .sort((a, b) => Math.abs(a.index - (step ?? 0)) - Math.abs(b.index - (step ?? 0)))[0] ?? null
    : null;

  const live = useRef({ legs, start, end, ring, herePoint, changes });
  live.current = { legs, start, end, ring, herePoint, changes };

  // Drawn in every frame of the view (and now): only attributes change, React stays out.
  const screen = view?.screen;
  useLayoutEffect(() => {
    const root = rootRef.current;
    if (!root || !screen) return;
    const paths = root.querySelectorAll<SVGPathElement>('.mf-route__path');
    let drawn = false;
    const draw = () => {
      const { legs: shown, start: from, end: to, ring: at, herePoint: you, changes: hops } = live.current;
      const d = pathOf(screen, shown);
      for (const path of paths) path.setAttribute('d', d);
      place(root.querySelector('.mf-route__start'), screen, from);
      place(root.querySelector('.mf-route__end'), screen, to);
      place(root.querySelector('.mf-route__ring'), screen, at);
      place(root.querySelector('.mf-route__here'), screen, you);
      root.querySelectorAll('.mf-route__change').forEach((element, index) => place(element, screen, hops[index] ?? null));
      if (!drawn && d && screen.width > 0) {
        drawn = true;
        // The benchmarks read when a route was first on screen.
        (window as { __mapfoldRouteDrawn?: number }).__mapfoldRouteDrawn ??= performance.now();
      }
    };
    draw();
    return screen.onFrame(draw);
  });

  // The view shows the route's leg on this floor when the route, the floor or the view (a
  // floor on a street basemap has MapLibre's) changes, and follows the visitor's step on the
  // same floor; a step on another floor shows that floor. Nothing until the view is there.
  const seen = useRef<{ route: Route | null; layerId: string; step: number | null; view: MapView | null; fitted: boolean }>({ route: null, layerId, step: null, view: null, fitted: false });
  useEffect(() => {
    if (!view) return;
    const before = seen.current;
    const now = (seen.current = { ...before, route, layerId, step, view });
    if (!route) return;
    const target = step !== null ? route.steps[step] : undefined;
    if (step !== before.step && target && target.layer !== layerId) {
      onFloor(target.layer, step!);
      return;
    }
    if (route !== before.route || layerId !== before.layerId || view !== before.view) {
      const points = [
        ...route.legs.filter((leg) => leg.layer === layerId).flatMap((leg) => leg.points),
        ...ends.filter((end) => end.layer === layerId).map((end) => end.at),
      ];
      const fit = () => {
        if (points.length === 0 || !view.fitTo) return true;
        // The first fit jumps there; later ones move.
        if (!view.fitTo(points, insets, { maxZoom: ROUTE_MAX_ZOOM, animate: now.fitted })) return false;
        now.fitted = true;
        return true;
      };
      if (fit()) return;
      // The view cannot move yet (its code or its first drawing still coming): again as it draws.
      const off = view.screen.onFrame(() => {
        if (fit()) off();
      });
      return off;
    }
    if (step !== before.step && target && target.layer === layerId) view.ensureVisible?.(target.at, 80);
  }, [route, layerId, step, view, onFloor, insets, ends]);

  return (
    <div ref={rootRef} className="mf-route" data-mf-route="">
      <svg className="mf-route__svg" aria-hidden="true" focusable="false">
        <path className="mf-route__path mf-route__casing" />
        <path className="mf-route__path mf-route__line" />
        <path className="mf-route__path mf-route__dash" />
        {changes.map((_, index) => (
          <g key={index} className="mf-route__change" style={{ display: 'none' }}>
            <rect x="-11" y="-11" width="22" height="22" rx="6" />
            <path d="M-4 -2.5l4-4 4 4M-4 2.5l4 4 4-4" />
          </g>
        ))}
        <g className="mf-route__ring" style={{ display: 'none' }}>
          <circle r="13" className="mf-route__ring-halo" />
          <circle r="6.5" className="mf-route__ring-dot" />
        </g>
        <g className="mf-route__start" style={{ display: 'none' }}>
          <circle r="9" className="mf-route__start-dot" />
        </g>
        <g className="mf-route__end" style={{ display: 'none' }}>
          <path className="mf-route__end-pin" d="M0 0c-2-6-11-12.5-11-21a11 11 0 0 1 22 0c0 8.5-9 15-11 21z" />
          <circle cy="-21" r="4.2" fill="#fff" />
        </g>
      </svg>
      <div className="mf-route__here" style={{ display: 'none' }}>
        <span className="mf-route__here-dot" aria-hidden="true" />
        <span className="mf-route__here-label">{t('directions.youAreHere')}</span>
      </div>
      {leaving && leaving.candidate.connector ? (
        <div className="mf-floor-prompt" data-mf-ui="" role="group" aria-label={t('directions.floorChange')}>
          <span className="mf-floor-prompt__icon" aria-hidden="true">
            <StepIcon kind="connector" connector={leaving.candidate.connector.kind} />
          </span>
          <p className="mf-floor-prompt__text">{stepSentence(translator, leaving.candidate)}</p>
          <button
            type="button"
            className="mf-button mf-button--primary mf-floor-prompt__go"
            onClick={() => onFloor(leaving.candidate.connector!.toLayer, Math.min(leaving.index + 1, route!.steps.length - 1))}
          >
            {t('directions.goTo', { floor: leaving.candidate.connector.toLayerName })}
          </button>
        </div>
      ) : null}
    </div>
  );
}
