/**
 * How a route's leg is fitted into view on one floor (route-overlay.tsx, through MapView.fitTo
 * and components/map/view-fit.ts): room around it for the controls over the map, zoomed no
 * closer than a short route needs.
 */
import type { Insets } from '../../../components/map/map-view';

export type { Insets };

/** Room kept free: the floor buttons above, the zoom buttons right, the legend below. */
export const ROUTE_INSETS: Insets = { top: 96, right: 88, bottom: 120, left: 72 };

/** No closer than 1.8× the whole floor: a short route keeps the shops around it in view. */
export const ROUTE_MAX_ZOOM = 1.8;
