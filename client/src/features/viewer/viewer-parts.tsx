/**
 * The viewer's parts whose code loads after the map (viewer.tsx): the directory, minimap and
 * legend, drawn by the server and hydrated when their code arrives (lib/lazy-part.ts); the
 * details popup and the search, fetched in idle time; the share menu and the hover tooltip,
 * when first wanted.
 */
import { lazy } from 'react';
import { preloadStaticMap } from '../../components/map/map-renderer';
import { lazyPart } from '../../lib/lazy-part';

// Loaded when the share button is first pressed: most visitors never open it.
export const ShareMenu = lazy(() => import('./share-menu').then((module) => ({ default: module.ViewerShareMenu })));
// A location's details: fetched in idle time once the map is on screen (and at once if a
// location is opened before that), so the first load carries only what draws the map.
export const loadPopup = () => import('./popup');
export const Details = lazy(() => loadPopup().then((module) => ({ default: module.LocationDetails })));
/** The hover tooltip, on the first hover (tooltip.tsx). */
export const Tooltip = lazy(() => import('./tooltip').then((module) => ({ default: module.Tooltip })));

/**
 * The directory, the minimap and the legend: drawn by the server, hydrated when their code
 * arrives, just after the map's (lib/lazy-part.ts), each behind memo in its own boundary.
 */
const directoryPart = lazyPart(() => import('./hydrated-later').then((module) => module.Directory));
const minimapPart = lazyPart(() => import('./hydrated-later').then((module) => module.Minimap));
const legendPart = lazyPart(() => import('./hydrated-later').then((module) => module.Legend));
export const LazyDirectory = directoryPart.Part;
export const LazyMinimap = minimapPart.Part;
export const LazyLegend = legendPart.Part;

/** Loads the parts that hydrate later; the server renderer awaits it before rendering. */
export function preloadViewerParts(): Promise<unknown> {
  return Promise.all([directoryPart.preload(), minimapPart.preload(), legendPart.preload(), preloadStaticMap()]);
}
