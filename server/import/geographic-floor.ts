/**
 * The floor latitude/longitude points go on when no floor of the map places them (the
 * planner's `geographicFloor` option, events/import-planner.ts): a floor on the street basemap
 * fitted to them (events/basemap-bounds.ts, issue 29 item 5), unless some lie nearer a pole
 * than Web Mercator reaches (±85°): then the built-in world map, which shows the whole globe
 * (Natural Earth), handed over as its SVG exactly as the templates store it (content
 * addressed, so the file is the template's own when it is stored), with its calibration.
 */
import { basemapFloorAround, MERCATOR_LIMIT } from '../../events/basemap-bounds.js';
import type { LatLng } from '../../events/geo-calibration.js';
import type { PlannedFloor } from '../../events/map-import.js';
import { builtInMap } from '../templates/built-in-maps.js';

/** The floor for points no floor of the map can place, at the map's size. */
export function geographicFloor(points: LatLng[], size: { width: number; height: number }): PlannedFloor {
  const valid = points.filter((p) => Number.isFinite(p.lat) && Number.isFinite(p.lng) && Math.abs(p.lat) <= 90);
  if (valid.length > 0 && valid.every((p) => Math.abs(p.lat) <= MERCATOR_LIMIT)) return basemapFloorAround(valid, size);
  const world = builtInMap('world');
  return { key: world.layer.id, name: world.layer.name, drawing: { kind: 'generated', svg: world.svg, width: world.width, height: world.height }, geo: world.geo };
}
