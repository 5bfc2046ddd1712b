/**
 * The directions' code, one chunk the viewer loads when a visitor opens the directions or an
 * address asks for them (controller/viewer-controller.ts): most visitors never do, and the
 * viewer's first load stays small. The store locator's code is a chunk of its own
 * (store-locator/load-near-code.ts), so a street map does not fetch the route finding with it.
 */
import type { MapDocument } from '../../../components/map/types';
import { findRoute } from '../../../../../events/wayfinding/find-route';
import type { RouteResult } from '../../../../../events/wayfinding/route-types';

import './directions.css';

export { DirectionsPanel } from './directions-panel';
export { DirectionsSync } from './directions-sync';
export { RouteOverlay } from './route-overlay';
export { MapDirections, ViewerDirectionsPanel } from './viewer-directions';

/** Routes found, by document (an edited document is a new object) and by ends and option. */
const found = new WeakMap<MapDocument, Map<string, RouteResult>>();

/** The route between two locations (remembered: the panel, the map and the floors ask alike). */
export function routeBetween(document: MapDocument, from: string, to: string, stepFree: boolean): RouteResult {
  let routes = found.get(document);
  if (!routes) {
    routes = new Map();
    found.set(document, routes);
  }
  const key = `${from}\n${to}\n${stepFree ? 1 : 0}`;
  let result = routes.get(key);
  if (!result) {
    result = findRoute(document, { location: from }, { location: to }, { stepFree });
    routes.set(key, result);
  }
  return result;
}
