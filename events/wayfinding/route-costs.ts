/**
 * What a route costs and how long it takes: the scale of each floor (map units to metres), the
 * cost of changing floors, walking speed. Routing minimises metres (walked, plus the metres a
 * floor change is worth), so floors drawn at different scales still compare fairly.
 */
import { geoDistance } from 'd3-geo';
import { floorToGeo } from '../geo-calibration.js';
import type { Layer, Settings } from '../map-document.js';
import type { ConnectorKind } from '../path-network.js';

/**
 * Metres per map unit on a floor nobody calibrated. Floor plans are commonly drawn at about ten
 * pixels to the metre (the demo mall's 1200-unit floors are then 120 m across, a mid-size mall);
 * a settings-free constant, so a route's length does not change when the map is resized.
 */
export const ASSUMED_METRES_PER_UNIT = 0.1;

/** An adult's everyday walking pace, used for the estimated time (m/s). */
export const WALKING_SPEED = 1.2;

/**
 * What changing floors costs in the search, in metres of walking it is worth: a fixed part
 * (finding the connector, waiting, getting on) and a part per floor travelled. The fixed part
 * keeps routes on one floor unless another floor really is shorter; the same for every kind, so
 * the shortest route takes the nearest connector and the step-free one the nearest lift or ramp.
 */
export const FLOOR_CHANGE_COST = 15;
export const FLOOR_COST = 10;

/** Seconds a floor change adds to the walking time: waiting (a lift), then per floor travelled. */
const CONNECTOR_SECONDS: Record<ConnectorKind, { wait: number; perFloor: number }> = {
  lift: { wait: 30, perFloor: 5 },
  stairs: { wait: 0, perFloor: 20 },
  escalator: { wait: 0, perFloor: 15 },
  ramp: { wait: 0, perFloor: 40 },
};

const EARTH_RADIUS_METRES = 6_371_008.8;

/** The search cost of going `floors` floors by a connector. */
export function connectorCost(floors: number): number {
  return FLOOR_CHANGE_COST + FLOOR_COST * Math.max(1, floors);
}

/** Seconds a ride of `floors` floors on a connector of `kind` takes (waiting included). */
export function connectorSeconds(kind: ConnectorKind, floors: number): number {
  const { wait, perFloor } = CONNECTOR_SECONDS[kind];
  return wait + perFloor * Math.max(1, floors);
}

/**
 * Metres per map unit on a floor: measured at the floor's centre from its geo calibration (one
 * per cent of its width east and of its height south, averaged), else {@link ASSUMED_METRES_PER_UNIT}.
 */
export function metresPerUnit(layer: Pick<Layer, 'geo' | 'file'>, settings: Pick<Settings, 'size'>): number {
  if (!layer.geo) return ASSUMED_METRES_PER_UNIT;
  const size = layer.file ? { width: layer.file.width, height: layer.file.height } : settings.size;
  const centre = { x: size.width / 2, y: size.height / 2 };
  const dx = size.width / 100;
  const dy = size.height / 100;
  const here = floorToGeo(layer.geo, size, centre);
  const east = floorToGeo(layer.geo, size, { x: centre.x + dx, y: centre.y });
  const south = floorToGeo(layer.geo, size, { x: centre.x, y: centre.y + dy });
  if (!here || !east || !south) return ASSUMED_METRES_PER_UNIT;
  const metres = (a: typeof here, b: typeof here) => geoDistance([a.lng, a.lat], [b.lng, b.lat]) * EARTH_RADIUS_METRES;
  const scale = (metres(here, east) / dx + metres(here, south) / dy) / 2;
  return Number.isFinite(scale) && scale > 0 ? scale : ASSUMED_METRES_PER_UNIT;
}
