/**
 * Whether a map's viewer offers directions (issue 17, plans): routes are part of Professional
 * (the pricing page), so the viewer of a Basic or test map shows none, while the editor still
 * draws and tests routes on any map. The product's own maps (the demo and example maps,
 * state 2, and admin maps, state 9) show them as the shop window. A map whose network joins
 * nothing has nothing to show.
 *
 * `admin`: the visitor is an admin. Only the main app knows that (the app's /m/:id page and the
 * editor's preview, where the session is loaded anyway); the standalone viewer page never asks,
 * because /m/{id} and /api/public/maps/{id} are cached by CDNs and must not depend on cookies.
 */
import type { PathNetwork } from '../path-network.js';

/**
 * States whose public viewer shows directions: demo 2, pro 3 and adm 9 (events/map-states.ts;
 * written out, not imported, so the viewer's first chunk does not gain a module of its own).
 */
export const DIRECTIONS_STATES: ReadonlySet<number> = new Set([2, 3, 9]);

export interface DirectionsQuestion {
  /** The map's state (events/map-states.ts). */
  state: number;
  paths: Pick<PathNetwork, 'edges' | 'connectors'>;
  /** The visitor is an admin (known only where the session is loaded anyway). */
  admin?: boolean;
}

/** True when the network has something to walk: a link on a floor or a connector between floors. */
export function hasPathNetwork(paths: Pick<PathNetwork, 'edges' | 'connectors'>): boolean {
  return paths.edges.length > 0 || paths.connectors.length > 0;
}

export function directionsAllowed({ state, paths, admin = false }: DirectionsQuestion): boolean {
  if (!hasPathNetwork(paths)) return false;
  return admin || DIRECTIONS_STATES.has(state);
}
