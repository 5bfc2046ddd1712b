/**
 * The directions in the viewer (viewer.tsx), in the directions' chunk (directions-code.ts): their
 * panel (beside the map, or a sheet on a phone) for the route between the ends the viewer's
 * controller holds, and over the map the route itself and what the address says (directions-sync.tsx).
 */
import { useCallback, useMemo } from 'react';
import type { Group } from '../../../components/map/types';
import type { ViewerController, ViewerState } from '../controller/viewer-controller';
import { DirectionsPanel as Panel } from './directions-panel';
import { DirectionsSync } from './directions-sync';
import { RouteOverlay } from './route-overlay';
import { arrive, changeDirections, foldDirections, kioskIdle, routeFloor, setStep, swapDirections } from './directions-commands';

/** Room the route keeps clear of the controls over the map (the phone's top bar and floor prompt). */
const WIDE_ROUTE_INSETS = { top: 96, right: 88, bottom: 120, left: 72 };
const NARROW_ROUTE_INSETS = { top: 128, right: 60, bottom: 96, left: 28 };
/** The same right to left, where the controls sit on the other side (viewer.css, logical properties). */
const mirrored = (insets: typeof WIDE_ROUTE_INSETS) => ({ ...insets, right: insets.left, left: insets.right });
const RTL_WIDE_ROUTE_INSETS = mirrored(WIDE_ROUTE_INSETS);
const RTL_NARROW_ROUTE_INSETS = mirrored(NARROW_ROUTE_INSETS);

interface PanelProps {
  controller: ViewerController;
  state: ViewerState;
  groupsById: ReadonlyMap<string, Group>;
  narrow: boolean;
}

/** The directions' form and steps. */
export function ViewerDirectionsPanel({ controller, state, groupsById, narrow }: PanelProps) {
  const { route, here } = state;
  const { byId, doc } = controller;
  const layerNames = useMemo(() => (doc.layers.length > 1 ? new Map(doc.layers.map((layer) => [layer.id, layer.name])) : null), [doc.layers]);
  return (
    <Panel
      locations={controller.shownLocations}
      byId={byId}
      groupsById={groupsById}
      layerNames={layerNames}
      from={route.from}
      to={route.to}
      stepFree={route.stepFree}
      step={route.step}
      here={here ? byId.get(here) ?? null : null}
      result={controller.routeResult}
      onChange={(next) => changeDirections(controller, next)}
      onSwap={() => swapDirections(controller)}
      onStep={(step) => setStep(controller, step)}
      onClose={() => controller.closeDirections(true)}
      sheet={narrow ? { folded: state.directionsFolded, onToggle: () => foldDirections(controller) } : undefined}
    />
  );
}

/** Over the map: what the address says of directions, and the route with its ends (route-overlay.tsx). */
export function MapDirections({ controller, state, layerId, narrow, rtl, offered }: { controller: ViewerController; state: ViewerState; layerId: string; narrow: boolean; rtl: boolean; offered: boolean }) {
  const { route, here } = state;
  const { byId, deepLinks, shownRoute } = controller;
  // The From and To places' markers, fitted into view with the route (route-overlay.tsx).
  const ends = useMemo(
    () =>
      [shownRoute?.from.location, shownRoute?.to.location].flatMap((id) => {
        const place = id ? byId.get(id) : undefined;
        return place?.position ? [{ layer: place.layer, at: place.position }] : [];
      }),
    [shownRoute, byId],
  );
  // Stable: the overlay fits the route again when it changes.
  const onFloor = useCallback((id: string, step: number) => routeFloor(controller, id, step), [controller]);
  const hereLocation = here ? byId.get(here) ?? null : null;
  const hereAnchor = hereLocation && layerId === hereLocation.layer ? controller.view?.anchorOf(hereLocation.id) ?? hereLocation.position : null;
  return (
    <>
      {offered ? <DirectionsSync state={route} here={here} deepLinks={deepLinks} isPlace={(id) => byId.has(id)} onArrive={(next, fixed) => arrive(controller, next, fixed)} onKioskIdle={(fixed) => kioskIdle(controller, fixed)} /> : null}
      {shownRoute || (here && route.open) ? (
        <RouteOverlay
          view={controller.view}
          route={shownRoute}
          layerId={layerId}
          step={route.step}
          here={hereLocation && hereAnchor ? { layer: hereLocation.layer, at: hereAnchor } : null}
          onFloor={onFloor}
          insets={rtl ? (narrow ? RTL_NARROW_ROUTE_INSETS : RTL_WIDE_ROUTE_INSETS) : narrow ? NARROW_ROUTE_INSETS : WIDE_ROUTE_INSETS}
          ends={ends}
        />
      ) : null}
    </>
  );
}
