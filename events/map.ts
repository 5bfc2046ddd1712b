/**
 * The map aggregate (stream `map-{id}`): its commands, events, state, `evolve` and `decide`.
 * Pure: time, ids and the caller's slot usage come in through the context.
 */
import { z } from 'zod';
import { DomainError } from './errors.js';
import { MapDocument } from './map-document.js';
import { applyEdit, checkEdit, MAP_EDIT_TYPES, MapEdit, type MapEditType } from './map-edits.js';
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

const EDIT_TYPES = MapEdit.options.map((option) => option.shape.type.value) as [MapEditType, ...MapEditType[]];

/**
 * An edit of the document, recorded under the edit's own name (`LocationAdded`, ...) with the
 * edit's fields beside `mapId` and `edited`: the log reads as what happened, field by field.
 */
export const MapEdited = z
  .object({ type: z.enum(EDIT_TYPES), data: z.looseObject({ mapId: z.string(), edited: z.iso.datetime({ offset: true }) }) })
  .transform(({ type, data }, context) => {
    const { mapId, edited, ...fields } = data;
    const edit = MapEdit.safeParse({ type, ...fields });
    if (!edit.success) {
      for (const issue of edit.error.issues) context.addIssue({ code: 'custom', message: issue.message, path: ['data', ...issue.path] });
      return z.NEVER;
    }
    const { type: _type, ...editFields } = edit.data;
    return { type: edit.data.type, data: { ...editFields, mapId, edited } } as MapEditedEvent;
  });

/** The stored shape of an edit event: the edit's type, its fields plus mapId and edited. */
export type MapEditedEvent = {
  [T in MapEditType]: { type: T; data: Omit<Extract<MapEdit, { type: T }>, 'type'> & { mapId: string; edited: string } };
}[MapEditType];

export function isEditEvent(event: MapEvent): event is MapEditedEvent {
  return MAP_EDIT_TYPES.has(event.type);
}

/** The edit an edit event records. */
export function editOf(event: MapEditedEvent): MapEdit {
  const { mapId: _mapId, edited: _edited, ...fields } = event.data;
  return { type: event.type, ...fields } as MapEdit;
}

function editEvent(edit: MapEdit, mapId: string, edited: string): MapEditedEvent {
  const { type, ...fields } = edit;
  return { type, data: { ...fields, mapId, edited } } as MapEditedEvent;
}

export const MapEvent = z.union([MapCreated, MapSaved, MapDeleted, MapEdited]);
export type MapEvent = z.infer<typeof MapCreated> | z.infer<typeof MapSaved> | z.infer<typeof MapDeleted> | MapEditedEvent;
export const MAP_EVENT_TYPES: ReadonlySet<string> = new Set(['MapCreated', 'MapSaved', 'MapDeleted', ...EDIT_TYPES]);

// ---- commands -----------------------------------------------------------------------------

export type MapCommand =
  | { type: 'CreateMap'; data: { mapId: string; title: string; document: MapDocument } }
  | { type: 'SaveMap'; data: { mapId: string; title?: string | undefined; document?: MapDocument | undefined } }
  | { type: 'DeleteMap'; data: { mapId: string } }
  /** Edits of the document, applied in order; all or none. */
  | { type: 'EditMap'; data: { mapId: string; edits: MapEdit[] } };

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
    default:
      if (state.status !== 'active') return state;
      return { ...state, document: applyEdit(state.document, editOf(event)), edited: event.data.edited };
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
    case 'EditMap': {
      // The owner edits; an admin may too (spec §6).
      const map = principal.admin && state.status === 'active' ? state : requireOwnedMap(state, principal);
      let document = map.document;
      return command.data.edits.map((proposed, index) => {
        const edit: MapEdit =
          proposed.type === 'LayerRemoved'
            ? { ...proposed, removedLocations: document.locations.filter((l) => l.layer === proposed.id).map((l) => l.id) }
            : proposed;
        const problem = checkEdit(document, edit);
        if (problem) throw new DomainError('invalid-argument', `edits.${index}.${problem}`);
        document = applyEdit(document, edit);
        return editEvent(edit, command.data.mapId, at);
      });
    }
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}
