/**
 * Seeds the demo map (id `demo`, state 2) on first start. Idempotent across restarts and
 * processes: its stream is created with expected revision "no stream", so only one start
 * ever records it.
 *
 * A demo recorded before maps had paths (issue 17) keeps its document as it was created, so at
 * every start the demo's stream is read too: a demo whose network is empty gets the mall's
 * network by the same edits an editor makes (one `PathsEdited`, then each location's entrances
 * by `LocationUpdated`), appended at the revision read, so two processes starting together
 * record them once. A demo that has any path point is left as its editors made it.
 *
 * Likewise a demo recorded before IMDF export (issue 28) gets the mall's address and its
 * floors' calibration, each only where it has none (`SettingsChanged`, `LayerCalibrated`).
 */
import { MapDocument } from '../../events/map-document.js';
import { applyEdit, checkEdit, type MapEdit } from '../../events/map-edits.js';
import { mapDecider, type MapAggregate, type MapEvent } from '../../events/map.js';
import { MapState } from '../../events/map-states.js';
import type { Position } from '../../events/position.js';
import type { Clock, IdGenerator } from '../clock.js';
import type { EventStore } from '../../ports/event-store.js';
import { handleCommand, type CommandMetadata } from '../commands/command-handler.js';
import { DEMO_ADDRESS, DEMO_CALIBRATION, demoMallDocument } from './demo-mall.js';

export const DEMO_MAP_ID = 'demo';
/** The demo map belongs to the product itself, not to any user. */
export const SYSTEM_UID = 'mapfold';

/** The product itself records the seeds: no user, one correlation per seeding. */
function seedMetadata(clock: Clock, ids: IdGenerator): CommandMetadata {
  return { principal: null, now: clock.now(), correlationId: ids.uuid(), commandId: 'seed-demo-map' };
}

/** Records the demo map unless it exists (then gives it paths if it has none); answers the position of what it recorded, or null. */
export async function seedDemoMap(store: EventStore, clock: Clock, ids: IdGenerator): Promise<Position | null> {
  const meta = seedMetadata(clock, ids);
  const at = meta.now.toISOString();
  // Two processes starting together: the second's append conflicts, and it decides again on
  // the demo the first recorded (which has its paths: nothing more to record).
  const outcome = await handleCommand({ store, ids }, mapDecider, DEMO_MAP_ID, (state): MapEvent[] => {
    if (state.status === 'absent') {
      const data = { mapId: DEMO_MAP_ID, uid: SYSTEM_UID, author: SYSTEM_UID, title: 'Riverside Mall (demo)', state: MapState.demo, document: demoMallDocument(), created: at };
      return [{ type: 'MapCreated', data }];
    }
    return [...demoPathEvents(state, DEMO_MAP_ID, at), ...asEvents(demoImdfEdits(state), DEMO_MAP_ID, at)];
  }, meta);
  return outcome.position;
}

/** Edits as the events a map records for them. */
function asEvents(edits: MapEdit[], mapId: string, at: string): MapEvent[] {
  return edits.map((edit) => {
    const { type, ...fields } = edit;
    return { type, data: { ...fields, mapId, edited: at } } as MapEvent;
  });
}

/** The path edits a demo without any path point gets, as events; none for any other map. */
function demoPathEvents(state: MapAggregate, mapId: string, at: string): MapEvent[] {
  if (state.status !== 'active' || state.document.paths.nodes.length > 0) return [];
  return asEvents(demoPathEdits(state.document), mapId, at);
}

/** What a demo recorded before IMDF export lacks for it: the mall's address, its floors' calibration (only floors of the mall that have none). */
export function demoImdfEdits(state: MapAggregate): MapEdit[] {
  if (state.status !== 'active') return [];
  const { document } = state;
  const edits: MapEdit[] = [];
  if (!document.settings.address) edits.push({ type: 'SettingsChanged', settings: { ...document.settings, address: DEMO_ADDRESS } });
  const mallFloors = new Set(demoMallDocument().layers.map((l) => l.id));
  for (const layer of document.layers) {
    if (!layer.geo && mallFloors.has(layer.id)) edits.push({ type: 'LayerCalibrated', id: layer.id, geo: DEMO_CALIBRATION });
  }
  return edits;
}

/**
 * The edits that give `document` (a demo without paths) the mall's network and its locations'
 * entrances: only what applies to it as it is now (a floor its editors removed gets no paths,
 * a location they removed or moved to another floor no entrance).
 */
export function demoPathEdits(document: MapDocument): MapEdit[] {
  const demo = demoMallDocument();
  const layers = new Set(document.layers.map((l) => l.id));
  const nodes = demo.paths.nodes.filter((n) => layers.has(n.layer));
  const kept = new Set(nodes.map((n) => n.id));
  const paths: MapEdit = {
    type: 'PathsEdited',
    put: {
      nodes,
      edges: demo.paths.edges.filter((e) => kept.has(e.from) && kept.has(e.to)),
      connectors: demo.paths.connectors.map((c) => ({ ...c, nodes: c.nodes.filter((n) => kept.has(n)) })).filter((c) => c.nodes.length >= 2),
    },
    removed: { nodes: [], edges: [], connectors: [] },
  };
  const edits: MapEdit[] = [];
  let current = document;
  for (const edit of [
    paths,
    ...demo.locations.map((l): MapEdit => ({ type: 'LocationUpdated', id: l.id, changes: { entrances: l.entrances } })),
  ]) {
    if (edit.type === 'LocationUpdated') {
      const location = current.locations.find((l) => l.id === edit.id);
      const entrances = edit.changes.entrances ?? [];
      const layer = demo.locations.find((l) => l.id === edit.id)?.layer;
      if (!location || location.entrances.length > 0 || location.layer !== layer || entrances.length === 0) continue;
    }
    if (checkEdit(current, edit) !== null) continue;
    current = applyEdit(current, edit);
    edits.push(edit);
  }
  return edits[0]?.type === 'PathsEdited' ? edits : [];
}

/** Gives the map `mapId` (the demo) the mall's paths when it has none; answers the position of the edits recorded, or null. */
export async function addDemoPaths(store: EventStore, clock: Clock, ids: IdGenerator, mapId = DEMO_MAP_ID): Promise<Position | null> {
  const meta = seedMetadata(clock, ids);
  const outcome = await handleCommand({ store, ids }, mapDecider, mapId, (state) => demoPathEvents(state, mapId, meta.now.toISOString()), meta);
  return outcome.position;
}
