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
 */
import { MapDocument } from '../../events/map-document.js';
import { applyEdit, checkEdit, type MapEdit } from '../../events/map-edits.js';
import { evolveMap, initialMapState, MapEvent, type MapAggregate } from '../../events/map.js';
import { MapState } from '../../events/map-states.js';
import type { Position } from '../../events/position.js';
import { streams } from '../../events/streams.js';
import type { Clock, IdGenerator } from '../clock.js';
import { WrongExpectedRevisionError, type EventStore } from '../../ports/event-store.js';
import { demoMallDocument } from './demo-mall.js';

export const DEMO_MAP_ID = 'demo';
/** The demo map belongs to the product itself, not to any user. */
export const SYSTEM_UID = 'mapfold';

/** Records the demo map unless it exists (then gives it paths if it has none); answers the position of what it recorded, or null. */
export async function seedDemoMap(store: EventStore, clock: Clock, ids: IdGenerator): Promise<Position | null> {
  const id = ids.uuid();
  try {
    const result = await store.append(
      streams.map(DEMO_MAP_ID),
      [
        {
          id,
          type: 'MapCreated',
          data: {
            mapId: DEMO_MAP_ID,
            uid: SYSTEM_UID,
            author: SYSTEM_UID,
            title: 'Riverside Mall (demo)',
            state: MapState.demo,
            document: demoMallDocument(),
            created: clock.now().toISOString(),
          },
          metadata: { userId: null, at: clock.now().toISOString(), correlationId: id, causationId: 'seed-demo-map' },
        },
      ],
      'no_stream',
    );
    return result.position;
  } catch (error) {
    if (error instanceof WrongExpectedRevisionError) return addDemoPaths(store, clock, ids);
    throw error;
  }
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
  const recorded = await store.readStream(streams.map(mapId));
  let state: MapAggregate = initialMapState;
  for (const event of recorded) state = evolveMap(state, MapEvent.parse({ type: event.type, data: event.data }));
  const last = recorded[recorded.length - 1];
  if (state.status !== 'active' || !last || state.document.paths.nodes.length > 0) return null;
  const edits = demoPathEdits(state.document);
  if (edits.length === 0) return null;
  const at = clock.now().toISOString();
  const correlationId = ids.uuid();
  try {
    const result = await store.append(
      streams.map(mapId),
      edits.map((edit) => {
        const { type, ...fields } = edit;
        return {
          id: ids.uuid(),
          type,
          data: { ...fields, mapId, edited: at },
          metadata: { userId: null, at, correlationId, causationId: 'seed-demo-map' },
        };
      }),
      last.revision,
    );
    return result.position;
  } catch (error) {
    if (error instanceof WrongExpectedRevisionError) return null;
    throw error;
  }
}
