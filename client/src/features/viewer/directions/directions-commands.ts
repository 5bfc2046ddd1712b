/**
 * The directions mode's commands that only the directions' own parts give (their panel, the
 * route over the map, the address's sync): they load with the directions' code
 * (directions-code.ts), and act on the viewer's controller (controller/viewer-controller.ts),
 * which opens and closes the mode itself.
 */
import type { ViewerController } from '../controller/viewer-controller';
import type { DirectionsState } from './use-directions';

type Ends = { from?: string | null; to?: string | null; stepFree?: boolean };

/** The ends or the step-free option changed in the panel (a kiosk's start stays). */
export function changeDirections(controller: ViewerController, next: Ends): void {
  const { here } = controller.getSnapshot();
  controller.setDirections({ ...next, ...(here ? { from: here } : {}), step: null });
}

/** From and To swapped (not at a kiosk, whose start is fixed). */
export function swapDirections(controller: ViewerController): void {
  const { route, here } = controller.getSnapshot();
  if (!here) controller.setDirections({ from: route.to, to: route.from, step: null });
}

/** The step followed (null: none yet). */
export function setStep(controller: ViewerController, step: number | null): void {
  controller.setDirections({ step });
}

/** The phone's directions sheet folded to its summary, or unfolded. */
export function foldDirections(controller: ViewerController): void {
  controller.setDirections({}, { directionsFolded: !controller.getSnapshot().directionsFolded });
}

/** A route's step on another floor: that floor shows. */
export function routeFloor(controller: ViewerController, layerId: string, step: number): void {
  controller.setDirections({ step }, { layerId });
}

/** The address named a route or a kiosk (directions-sync.tsx). */
export function arrive(controller: ViewerController, route: DirectionsState, here: string | null): void {
  controller.setDirections(route, { here });
}

/** A kiosk left alone: back to its start, nothing open, the home view. */
export function kioskIdle(controller: ViewerController, here: string): void {
  const place = controller.byId.get(here);
  controller.setDirections({ open: true, from: here, to: null, stepFree: false, step: null }, { selectedId: null, shareOpen: false, sheetOpen: false, ...(place ? { layerId: place.layer } : {}) });
  controller.view?.resetView(false);
}
