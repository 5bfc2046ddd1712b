/**
 * Which tool the editor's map is in, as a state machine (XState): select (click a location to
 * open it, drag its marker to move it), place a location, draw paths, place a connector. The
 * tools are exclusive; keys switch them (V, A, P, C) and Esc steps back. Placing a connector
 * is two steps: a click on the map says where, then the dialog says what (kind, name, floors).
 *
 * The modes a panel starts are states here too: placing a panel's pin (a floor's calibration
 * point, "Place on map": `placeLocation.pin`, with the hint the map shows) and choosing a
 * location's entrance on the path network (`pickEntrance`, with the location). Both are left
 * like any tool: Esc, another tool, or `done` / `cancel` once the click was taken.
 *
 * Pure: the editor sends events and reads the state; the path tool's own machine
 * (path-machine.ts) runs while the tool is `drawPath`.
 */
import { assign, setup } from 'xstate';
import type { Point } from '../../../../../events/map-document';

export type ToolName = 'select' | 'placeLocation' | 'drawPath' | 'placeConnector';

export type ToolsEvent =
  | { type: 'tool'; tool: ToolName }
  | { type: 'key'; key: string }
  /** A click on the map (the place tools' target). */
  | { type: 'click'; at: Point }
  /** The location or connector was made (or the dialog cancelled): the place tool's work is done. */
  | { type: 'done' }
  | { type: 'cancel' }
  /** A panel asks for a click on the map for its own use (a pin), saying so with a hint. */
  | { type: 'pin'; hint: string }
  /** The next click on a path point makes it an entrance of this location. */
  | { type: 'pickEntrance'; location: string };

export interface ToolsContext {
  /** Where the connector being placed stands (chosen by the click, before the dialog). */
  connectorAt: Point | null;
  /** The tool to go back to after placing a connector (the path tool, when it came from there). */
  returnTo: 'select' | 'drawPath';
  /** What the map says while a panel's pin is being placed (`placeLocation.pin`). */
  pinHint: string | null;
  /** The location whose entrance is being chosen (`pickEntrance`). */
  entranceFor: string | null;
}

const KEY_TOOLS: Readonly<Record<string, ToolName>> = { v: 'select', a: 'placeLocation', p: 'drawPath', c: 'placeConnector' };

/** The tool a (non-modified) key switches to, if any. */
export function toolOfKey(key: string): ToolName | null {
  return KEY_TOOLS[key.toLowerCase()] ?? null;
}

export const toolsMachine = setup({
  types: { context: {} as ToolsContext, events: {} as ToolsEvent },
  guards: {
    toSelect: ({ event }) => (event.type === 'tool' && event.tool === 'select') || (event.type === 'key' && toolOfKey(event.key) === 'select'),
    toPlaceLocation: ({ event }) => (event.type === 'tool' && event.tool === 'placeLocation') || (event.type === 'key' && toolOfKey(event.key) === 'placeLocation'),
    toDrawPath: ({ event }) => (event.type === 'tool' && event.tool === 'drawPath') || (event.type === 'key' && toolOfKey(event.key) === 'drawPath'),
    toPlaceConnector: ({ event }) => (event.type === 'tool' && event.tool === 'placeConnector') || (event.type === 'key' && toolOfKey(event.key) === 'placeConnector'),
    escape: ({ event }) => event.type === 'key' && event.key === 'Escape',
    backToPaths: ({ context }) => context.returnTo === 'drawPath',
  },
  actions: {
    fromPaths: assign({ returnTo: 'drawPath' as const }),
    fromSelect: assign({ returnTo: 'select' as const }),
    aim: assign(({ event }) => ({ connectorAt: event.type === 'click' ? event.at : null })),
    forget: assign({ connectorAt: null }),
    pin: assign(({ event }) => ({ pinHint: event.type === 'pin' ? event.hint : null })),
    forgetPin: assign({ pinHint: null }),
    entrance: assign(({ event }) => ({ entranceFor: event.type === 'pickEntrance' ? event.location : null })),
    forgetEntrance: assign({ entranceFor: null }),
  },
}).createMachine({
  id: 'tools',
  context: { connectorAt: null, returnTo: 'select', pinHint: null, entranceFor: null },
  initial: 'select',
  // From any tool: a panel's pin, or choosing an entrance.
  on: {
    pin: { target: '.placeLocation.pin', actions: 'pin' },
    pickEntrance: { target: '.pickEntrance', actions: 'entrance' },
  },
  states: {
    select: {
      on: {
        tool: [
          { guard: 'toPlaceLocation', target: 'placeLocation' },
          { guard: 'toDrawPath', target: 'drawPath' },
          { guard: 'toPlaceConnector', target: 'placeConnector', actions: 'fromSelect' },
        ],
        key: [
          { guard: 'toPlaceLocation', target: 'placeLocation' },
          { guard: 'toDrawPath', target: 'drawPath' },
          { guard: 'toPlaceConnector', target: 'placeConnector', actions: 'fromSelect' },
        ],
      },
    },
    placeLocation: {
      initial: 'location',
      exit: 'forgetPin',
      states: {
        /** The next click places a new location (or links the region under it). */
        location: {},
        /** The next click is a panel's (context.pinHint says what for). */
        pin: {},
      },
      on: {
        tool: [{ guard: 'toDrawPath', target: 'drawPath' }, { guard: 'toPlaceConnector', target: 'placeConnector', actions: 'fromSelect' }, { target: 'select' }],
        key: [
          { guard: 'escape', target: 'select' },
          { guard: 'toSelect', target: 'select' },
          { guard: 'toDrawPath', target: 'drawPath' },
          { guard: 'toPlaceConnector', target: 'placeConnector', actions: 'fromSelect' },
        ],
        done: 'select',
        cancel: 'select',
      },
    },
    drawPath: {
      on: {
        tool: [
          { guard: 'toSelect', target: 'select' },
          { guard: 'toPlaceLocation', target: 'placeLocation' },
          { guard: 'toPlaceConnector', target: 'placeConnector', actions: 'fromPaths' },
        ],
        // Esc belongs to the path machine here (it ends the path); V leaves the tool.
        key: [
          { guard: 'toSelect', target: 'select' },
          { guard: 'toPlaceLocation', target: 'placeLocation' },
          { guard: 'toPlaceConnector', target: 'placeConnector', actions: 'fromPaths' },
        ],
      },
    },
    placeConnector: {
      initial: 'aiming',
      exit: 'forget',
      states: {
        /** Waiting for the click that says where it stands. */
        aiming: {
          on: { click: { target: 'naming', actions: 'aim' } },
        },
        /** The dialog is open: kind, name, floors. */
        naming: {
          on: { click: { actions: 'aim' } },
        },
      },
      on: {
        done: [{ guard: 'backToPaths', target: 'drawPath' }, { target: 'select' }],
        cancel: [{ guard: 'backToPaths', target: 'drawPath' }, { target: 'select' }],
        key: [
          { guard: 'escape', target: 'done_' },
          { guard: 'toSelect', target: 'select' },
          { guard: 'toDrawPath', target: 'drawPath' },
        ],
        tool: [{ guard: 'toSelect', target: 'select' }, { guard: 'toDrawPath', target: 'drawPath' }, { guard: 'toPlaceLocation', target: 'placeLocation' }],
      },
    },
    /** The next click on a path point makes it an entrance of context.entranceFor. */
    pickEntrance: {
      exit: 'forgetEntrance',
      on: {
        key: [
          { guard: 'escape', target: 'select' },
          { guard: 'toSelect', target: 'select' },
          { guard: 'toPlaceLocation', target: 'placeLocation' },
          { guard: 'toDrawPath', target: 'drawPath' },
          { guard: 'toPlaceConnector', target: 'placeConnector', actions: 'fromSelect' },
        ],
        tool: [
          { guard: 'toPlaceLocation', target: 'placeLocation' },
          { guard: 'toDrawPath', target: 'drawPath' },
          { guard: 'toPlaceConnector', target: 'placeConnector', actions: 'fromSelect' },
          { target: 'select' },
        ],
        done: 'select',
        cancel: 'select',
      },
    },
    /** Esc out of placing a connector: back where it came from. */
    done_: {
      always: [{ guard: 'backToPaths', target: 'drawPath' }, { target: 'select' }],
    },
  },
});

/** The tool a snapshot is in (the steps of placeLocation and placeConnector folded; choosing an entrance is the select tool's). */
export function toolOf(value: unknown): ToolName {
  if (typeof value === 'string') return value === 'done_' || value === 'pickEntrance' ? 'select' : (value as ToolName);
  return value !== null && typeof value === 'object' && 'placeLocation' in value ? 'placeLocation' : 'placeConnector';
}
