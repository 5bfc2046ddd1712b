/**
 * What routing answers (events/wayfinding/find-route.ts), shared by the viewer's directions,
 * the editor's "test a route" and the server. Steps are data (a kind, a landmark, a connector, a
 * floor), not sentences: the viewer's messages word them (client/src/i18n/route-words.ts), in
 * the visitor's language or the editor's English, so the same route reads the same everywhere.
 */
import type { Point } from '../map-document.js';
import type { ConnectorKind } from '../path-network.js';

export interface RouteOptions {
  /** Avoid stairs, escalators and links with steps. */
  stepFree: boolean;
}

/** Where a route starts or ends: a location (entered by its entrances) or a path point. */
export type RouteEnd = { location: string } | { node: string };
/** Where a route goes: one place, or the nearest location of a group (the nearest toilet). */
export type RouteTarget = RouteEnd | { group: string };

/** The part of a route on one floor: a polyline in the floor's coordinates. */
export interface RouteLeg {
  layer: string;
  points: Point[];
  /** Length in map units. */
  distance: number;
}

export type RouteStepKind =
  | 'depart'
  | 'straight'
  | 'slight-left'
  | 'slight-right'
  | 'left'
  | 'right'
  | 'sharp-left'
  | 'sharp-right'
  | 'u-turn'
  | 'connector'
  | 'arrive';

export interface RouteStep {
  kind: RouteStepKind;
  /** The floor the step happens on (for 'connector': the floor it starts on). */
  layer: string;
  /** Where on that floor (for showing the step on the map). */
  at: Point;
  /** Map units walked from the previous step to this one. */
  distance: number;
  /** Metres walked from the previous step to this one (the floor's scale, as `Route.metres`). */
  metres: number;
  /** The location the step is worded by ("after Café Nero"), when one is near. */
  landmark?: { id: string; title: string };
  /** For 'connector': what to take and to which floor. */
  connector?: { id: string; kind: ConnectorKind; name: string; toLayer: string; toLayerName: string };
  /** For 'arrive': on which side the destination is. */
  side?: 'left' | 'right' | 'ahead';
}

export interface Route {
  from: { location?: string; node: string };
  to: { location?: string; node: string };
  stepFree: boolean;
  legs: RouteLeg[];
  steps: RouteStep[];
  /** Length in map units over every floor. */
  distance: number;
  /** Length in metres (from the floors' geo calibration, else the map's assumed scale). */
  metres: number;
  /** Walking time in seconds (floor changes included). */
  seconds: number;
  floorChanges: number;
}

/** Why no route: an end is unknown or off the network, or nothing joins them (with steps avoided). */
export type RouteFailure =
  | { reason: 'unknown-end'; which: 'from' | 'to' }
  | { reason: 'off-network'; which: 'from' | 'to' }
  | { reason: 'no-path' }
  | { reason: 'no-step-free-path' };

export type RouteResult = { ok: true; route: Route } | { ok: false; failure: RouteFailure };
