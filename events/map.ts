/**
 * The map aggregate (stream `map-{id}`): its commands, events, state, `evolve` and `decide`.
 * Pure: time, ids and the caller's slot usage come in through the context.
 */
import { z } from 'zod';
import { DomainError } from './errors.js';
import { MapDocument } from './map-document.js';
import { FREE_TEST_SLOTS, MapState } from './map-states.js';
import { parseMapTitle } from './map-title.js';
import type { Principal } from './principal.js';

// ---- events -------------------------------------------------------------------------------

export const MapCreated = z.object({
  type: z.literal('MapCreated'),
  data: z.object({
    mapId: z.string(),
    uid: z.string(),
    author: z.string(),
    title: z.string(),
    state: z.number().int(),
    document: MapDocument,
    created: z.iso.datetime({ offset: true }),
  }),
});

export const MapSaved = z.object({
  type: z.literal('MapSaved'),
  data: z.object({
    mapId: z.string(),
    title: z.string().optional(),
    document: MapDocument.optional(),
    edited: z.iso.datetime({ offset: true }),
  }),
});

export const MapDeleted = z.object({
  type: z.literal('MapDeleted'),
  data: z.object({
    mapId: z.string(),
    deletedAt: z.iso.datetime({ offset: true }),
  }),
});

export const MapEvent = z.discriminatedUnion('type', [MapCreated, MapSaved, MapDeleted]);
export type MapEvent = z.infer<typeof MapEvent>;
export const MAP_EVENT_TYPES: ReadonlySet<string> = new Set(MapEvent.options.map((o) => o.shape.type.value));

// ---- commands -----------------------------------------------------------------------------

export type MapCommand =
  | { type: 'CreateMap'; data: { mapId: string; title: string; document: MapDocument } }
  | { type: 'SaveMap'; data: { mapId: string; title?: string | undefined; document?: MapDocument | undefined } }
  | { type: 'DeleteMap'; data: { mapId: string } };

export interface MapContext {
  principal: Principal | null;
  now: Date;
  /** How many of the principal's maps are in a state below 1 (spec §5), from the read model. */
  testMapsInUse: number;
}

// ---- state --------------------------------------------------------------------------------

export type MapAggregate =
  | { status: 'absent' }
  | {
      status: 'active';
      mapId: string;
      uid: string;
      author: string;
      title: string;
      state: number;
      document: MapDocument;
      created: string;
      edited: string;
    }
  | { status: 'deleted'; mapId: string; uid: string };

export const initialMapState: MapAggregate = { status: 'absent' };

export function evolveMap(state: MapAggregate, event: MapEvent): MapAggregate {
  switch (event.type) {
    case 'MapCreated': {
      const { mapId, uid, author, title, state: mapState, document, created } = event.data;
      return { status: 'active', mapId, uid, author, title, state: mapState, document, created, edited: created };
    }
    case 'MapSaved':
      if (state.status !== 'active') return state;
      return {
        ...state,
        title: event.data.title ?? state.title,
        document: event.data.document ?? state.document,
        edited: event.data.edited,
      };
    case 'MapDeleted':
      if (state.status !== 'active') return state;
      return { status: 'deleted', mapId: state.mapId, uid: state.uid };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

// ---- decide -------------------------------------------------------------------------------

function requireUser(context: MapContext): Principal {
  if (!context.principal) throw new DomainError('unauthenticated', 'Unauthenticated');
  return context.principal;
}

/** The map an existing-map command acts on, if the principal may change it. */
function requireOwnedMap(state: MapAggregate, principal: Principal) {
  if (state.status !== 'active') throw new DomainError('not-found', 'Map not found.');
  if (state.uid !== principal.uid) {
    throw new DomainError('permission-denied', 'You do not have permission to change this map.');
  }
  return state;
}

export function hasFreeTestSlot(principal: Principal, testMapsInUse: number): boolean {
  return principal.admin || testMapsInUse < FREE_TEST_SLOTS;
}

export function decideMap(command: MapCommand, state: MapAggregate, context: MapContext): MapEvent[] {
  const principal = requireUser(context);
  const at = context.now.toISOString();
  switch (command.type) {
    case 'CreateMap': {
      if (state.status !== 'absent') throw new DomainError('aborted', 'A map with this id already exists.');
      if (!hasFreeTestSlot(principal, context.testMapsInUse)) {
        throw new DomainError(
          'resource-exhausted',
          `No free test slot: you already have ${FREE_TEST_SLOTS} test maps. Subscribe or delete a test map first.`,
        );
      }
      return [
        {
          type: 'MapCreated',
          data: {
            mapId: command.data.mapId,
            uid: principal.uid,
            author: principal.uid,
            title: parseMapTitle(command.data.title),
            state: MapState.test,
            document: command.data.document,
            created: at,
          },
        },
      ];
    }
    case 'SaveMap': {
      requireOwnedMap(state, principal);
      const { title, document } = command.data;
      if (title === undefined && document === undefined) return [];
      return [
        {
          type: 'MapSaved',
          data: {
            mapId: command.data.mapId,
            ...(title !== undefined ? { title: parseMapTitle(title) } : {}),
            ...(document !== undefined ? { document } : {}),
            edited: at,
          },
        },
      ];
    }
    case 'DeleteMap': {
      requireOwnedMap(state, principal);
      return [{ type: 'MapDeleted', data: { mapId: command.data.mapId, deletedAt: at } }];
    }
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}
