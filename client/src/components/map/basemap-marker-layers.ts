/**
 * How a basemap floor's markers look on MapLibre's map (maplibre-map-view.ts): the clustered
 * GeoJSON source's layers (clusters as discs in the accent with their count, pins in each
 * location's colour, dots for the small marker types) and the selected location's own larger
 * pin on top, never hidden in a cluster. Pins are images drawn once per colour, like the
 * canvas's pins (a head with a white ring and a point, MARKER_HEIGHT's 40 px above the anchor).
 *
 * Every marker takes part in MapLibre's label placement (always drawn, never hidden by a label):
 * placement goes from the top layer down, so the basemap's place names, placed after, go around
 * a marker (its towns' names have variable anchors: beside, above or below their dot) or give
 * way, as store locators' maps do, instead of being cut by a disc ('llas' for Dallas). A pin's
 * image is its own box; a disc (a cluster, a dot) is a circle layer, which MapLibre does not
 * place, so a symbol of a transparent square of the disc's size (MARKER_BOX) stands for it.
 */
import type { AddLayerObject, Map as MapLibreMap } from 'maplibre-gl';

export const MARKERS_SOURCE = 'mf-markers';
export const SELECTED_SOURCE = 'mf-selected';
/**
 * Above this zoom no point is clustered (MapLibre's clusterMaxZoom): a town's scale, where a
 * store locator's points are read one by one, and the embedded basemap (zoom 0 to 8, zoomed
 * further) still has its towns' names.
 */
export const CLUSTER_MAX_ZOOM = 10;
/** The zoom a location is brought in at, when further out: every point stands alone there. */
export const REVEAL_ZOOM = CLUSTER_MAX_ZOOM + 1;
/** The layers a click or the pointer picks from, the topmost first. */
export const PICKED_LAYERS = ['mf-selected-pin', 'mf-selected-dot', 'mf-pins', 'mf-dots', 'mf-clusters'];
export const CLUSTER_LAYER = 'mf-clusters';

const PIN_PREFIX = 'mf-pin-';
/** A transparent square, scaled to a disc's size: the box the disc takes in label placement. */
export const MARKER_BOX = 'mf-marker-box';
const BOX_SIZE = 4;
/** A disc's box: its radius and stroke (MapLibre draws a circle's stroke outside its radius), across, in box units. */
const discBox = (radius: number | unknown[], stroke: number) =>
  typeof radius === 'number' ? (2 * (radius + stroke)) / BOX_SIZE : ['/', ['*', 2, ['+', radius, stroke]], BOX_SIZE];
const CLUSTER_RADIUS = ['step', ['get', 'point_count'], 15, 10, 18, 100, 22, 1000, 27];
/** A layer of boxes standing for a circle layer's discs in label placement (drawn as nothing). */
const boxes = (id: string, source: string, filter: unknown[], size: number | unknown[]) => ({
  id,
  type: 'symbol',
  source,
  filter,
  layout: { 'icon-image': MARKER_BOX, 'icon-size': size, 'icon-allow-overlap': true, 'icon-ignore-placement': false },
});
const unclustered = ['!', ['has', 'point_count']];
const pinImage = ['concat', PIN_PREFIX, ['get', 'color']];

/** The markers' layers over the basemap's, for the theme's accent. */
export function markerLayers(accent: string, dark: boolean): AddLayerObject[] {
  const ring = dark ? '#0f172a' : '#ffffff';
  return [
    {
      id: CLUSTER_LAYER,
      type: 'circle',
      source: MARKERS_SOURCE,
      filter: ['has', 'point_count'],
      paint: {
        'circle-color': accent,
        'circle-opacity': 0.92,
        'circle-radius': CLUSTER_RADIUS,
        'circle-stroke-color': ring,
        'circle-stroke-width': 3,
        'circle-stroke-opacity': 0.85,
      },
    },
    {
      id: 'mf-cluster-count',
      type: 'symbol',
      source: MARKERS_SOURCE,
      filter: ['has', 'point_count'],
      // The count, and the disc's box in label placement.
      layout: {
        'text-field': ['get', 'point_count_abbreviated'],
        'text-font': ['Noto Sans Medium'],
        'text-size': 13,
        'text-allow-overlap': true,
        'text-ignore-placement': true,
        'icon-image': MARKER_BOX,
        'icon-size': discBox(CLUSTER_RADIUS, 3),
        'icon-allow-overlap': true,
        'icon-ignore-placement': false,
      },
      paint: { 'text-color': '#ffffff' },
    },
    {
      id: 'mf-dots',
      type: 'circle',
      source: MARKERS_SOURCE,
      filter: ['all', unclustered, ['==', ['get', 'shape'], 'dot']],
      paint: { 'circle-color': ['get', 'color'], 'circle-radius': 6, 'circle-stroke-color': ring, 'circle-stroke-width': 2 },
    },
    boxes('mf-dot-boxes', MARKERS_SOURCE, ['all', unclustered, ['==', ['get', 'shape'], 'dot']], discBox(6, 2)),
    {
      id: 'mf-pins',
      type: 'symbol',
      source: MARKERS_SOURCE,
      filter: ['all', unclustered, ['==', ['get', 'shape'], 'pin']],
      // Always drawn; the basemap's labels under a pin are left out (placement goes from the top layer down).
      layout: { 'icon-image': pinImage, 'icon-anchor': 'bottom', 'icon-allow-overlap': true, 'icon-ignore-placement': false },
    },
    {
      id: 'mf-selected-dot',
      type: 'circle',
      source: SELECTED_SOURCE,
      filter: ['==', ['get', 'shape'], 'dot'],
      paint: { 'circle-color': ['get', 'color'], 'circle-radius': 9, 'circle-stroke-color': ring, 'circle-stroke-width': 3 },
    },
    boxes('mf-selected-dot-box', SELECTED_SOURCE, ['==', ['get', 'shape'], 'dot'], discBox(9, 3)),
    {
      id: 'mf-selected-pin',
      type: 'symbol',
      source: SELECTED_SOURCE,
      filter: ['==', ['get', 'shape'], 'pin'],
      layout: { 'icon-image': pinImage, 'icon-anchor': 'bottom', 'icon-size': 1.2, 'icon-allow-overlap': true, 'icon-ignore-placement': false },
    },
  ] as AddLayerObject[];
}

/** Adds the discs' box image (MARKER_BOX), if the map has it not. */
export function addMarkerBox(map: MapLibreMap): void {
  if (!map.hasImage(MARKER_BOX)) map.addImage(MARKER_BOX, { width: BOX_SIZE, height: BOX_SIZE, data: new Uint8Array(BOX_SIZE * BOX_SIZE * 4) });
}

/** Adds a pin image for each colour the markers use that the map has not yet. */
export function addPinImages(map: MapLibreMap, colours: Iterable<string>, dark: boolean): void {
  for (const colour of colours) {
    const name = PIN_PREFIX + colour;
    if (!map.hasImage(name)) map.addImage(name, drawPin(colour, dark), { pixelRatio: PIN_RATIO });
  }
}

/** The colour of a pin image's name (null: not a pin's). */
export function pinColourOf(name: string): string | null {
  return name.startsWith(PIN_PREFIX) ? name.slice(PIN_PREFIX.length) : null;
}

/** Draws the map's pins again with the ring of the theme's mode (light or dark). */
export function repaintPins(map: MapLibreMap, dark: boolean): void {
  for (const name of [...map.listImages()]) {
    const colour = pinColourOf(name);
    if (colour && map.hasImage(name)) map.updateImage(name, drawPin(colour, dark));
  }
}

const PIN_RATIO = 2;
const PIN_WIDTH = 30;
const PIN_HEIGHT = 40;

/** A pin: a round head with a ring and a white middle, its point on the bottom edge. */
function drawPin(colour: string, dark: boolean): ImageData {
  const canvas = document.createElement('canvas');
  canvas.width = PIN_WIDTH * PIN_RATIO;
  canvas.height = PIN_HEIGHT * PIN_RATIO;
  const context = canvas.getContext('2d')!;
  context.scale(PIN_RATIO, PIN_RATIO);
  const cx = PIN_WIDTH / 2;
  const cy = 14;
  const r = 11;
  context.beginPath();
  context.moveTo(cx, PIN_HEIGHT - 2);
  context.bezierCurveTo(cx - 3, 30, cx - r, 23, cx - r, cy);
  context.arc(cx, cy, r, Math.PI, 0);
  context.bezierCurveTo(cx + r, 23, cx + 3, 30, cx, PIN_HEIGHT - 2);
  context.closePath();
  context.shadowColor = 'rgba(15, 23, 42, 0.35)';
  context.shadowBlur = 3;
  context.shadowOffsetY = 1;
  context.fillStyle = colour;
  context.fill();
  context.shadowColor = 'transparent';
  context.lineWidth = 2;
  context.strokeStyle = dark ? '#0f172a' : '#ffffff';
  context.stroke();
  context.beginPath();
  context.arc(cx, cy, 4.5, 0, Math.PI * 2);
  context.fillStyle = '#ffffff';
  context.fill();
  return context.getImageData(0, 0, canvas.width, canvas.height);
}
