/**
 * The basemap under a picture of a floor on a street basemap (issue 29 item 1): MapLibre draws
 * the map's basemap once more, off screen, in the picture's frame and at its pixel density (a
 * 2× PNG or a printed page gets tiles drawn at twice the pixels, not a screenshot stretched),
 * with its drawing buffer kept so the canvas can be read once every tile is in (`idle`). The
 * style is the one on screen (the map's theme, the viewer's language), without the markers'
 * layers: the picture draws its markers itself, as every picture does (scene.ts). Tiles, glyphs
 * and sprites come from this server (or a BASEMAP_URL that serves them with CORS, as WebGL
 * requires anyway), so the canvas is never tainted. The visitor's map is not moved.
 *
 * Loaded by export-picture.ts only for such a floor (MapLibre is in the page already then).
 */
import { Map as MapLibreMap, type StyleSpecification } from 'maplibre-gl';
import { floorBounds, toLngLat, type FloorGeo } from '../basemap-floor';
import { MARKERS_SOURCE, SELECTED_SOURCE } from '../basemap-marker-layers';
import { setUpMapLibre } from '../maplibre-setup';
import { attributionText, frameView, type BasemapFrame, type LiveMap } from './basemap-frame';
import type { ScreenView } from './scene';

/** The map on screen a picture copies: MapLibreMapView's `map` and `floorState`. */
export interface LiveBasemap {
  map: MapLibreMap;
  floorState: { floor: FloorGeo } | null;
}

export interface BasemapCapture {
  /** The basemap as a PNG `data:` URL, the frame's size in CSS pixels. */
  href: string;
  /** Where the floor is in the frame (the scene's view), and its stretch down the page (frameView). */
  view: ScreenView;
  stretch: number;
  /** What the tiles' licences ask to be written on the map. */
  attribution: string;
}

/** How long the tiles may take before the picture is made with what has come. */
const IDLE_WITHIN = 20_000;

/** The basemap of `live` drawn in `frame` at `pixelRatio`. */
export async function captureBasemap(live: LiveMap, frame: BasemapFrame, pixelRatio: number): Promise<BasemapCapture> {
  const state = (live as LiveBasemap).floorState;
  const liveMap = (live as LiveBasemap).map;
  if (!state) throw new Error('The basemap has no floor yet.');
  setUpMapLibre();
  const style = liveMap.getStyle();
  const markers = new Set([MARKERS_SOURCE, SELECTED_SOURCE]);
  const sources = Object.fromEntries(Object.entries(style.sources).filter(([id]) => !markers.has(id)));
  const layers = style.layers.filter((layer) => !('source' in layer) || typeof layer.source !== 'string' || !markers.has(layer.source));
  const attribution = attributionText(Object.values(sources).map((source) => ('attribution' in source ? source.attribution : undefined)));

  const container = document.createElement('div');
  container.setAttribute('aria-hidden', 'true');
  // Laid out at the frame's size (MapLibre sizes its canvas from it), out of sight.
  container.style.cssText = `position:fixed;left:-100000px;top:0;width:${frame.width}px;height:${frame.height}px;pointer-events:none;overflow:hidden`;
  document.body.append(container);
  const center = liveMap.getCenter();
  const map = new MapLibreMap({
    container,
    style: { ...style, sources, layers } as StyleSpecification,
    center,
    zoom: frame.kind === 'view' ? Math.max(0, liveMap.getZoom() + frame.zoomBy) : liveMap.getZoom(),
    pixelRatio,
    interactive: false,
    attributionControl: false,
    renderWorldCopies: false,
    fadeDuration: 0,
    maxPitch: 0,
    canvasContextAttributes: { preserveDrawingBuffer: true, antialias: true },
  });
  try {
    if (frame.kind === 'floor') map.fitBounds(floorBounds(state.floor), { padding: frame.padding, animate: false });
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, IDLE_WITHIN);
      map.once('idle', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    // Drawn once more now that all is in, then read while the buffer holds it.
    map.redraw();
    const href = map.getCanvas().toDataURL('image/png');
    const { size } = state.floor;
    const at = (x: number, y: number) => {
      const point = map.project(toLngLat(state.floor, { x, y }));
      return { x: point.x, y: point.y };
    };
    return { href, ...frameView(frame, size, at(0, 0), at(size.width, size.height)), attribution };
  } finally {
    map.remove();
    container.remove();
  }
}
