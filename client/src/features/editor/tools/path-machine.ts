/**
 * The path tool as a state machine (XState): pointer and key events in map coordinates come in,
 * `PathsEdited` edits go out (emitted as `{ type: 'edit', edit }`), one per user action.
 *
 *   idle ──click on empty──▶ drawing (a node laid; each click lays the next and links it)
 *   idle ──click on a node or link──▶ idle, that node or link selected
 *   any ──shift-click a node──▶ drawing from it (a branch); shift-click a link: cut it there and branch
 *   drawing ──click the path's end again, or Esc──▶ idle
 *   pressed ──moved off a node──▶ dragging (the node follows, one edit when let go)
 *   pressed ──moved off empty ground──▶ panning (the map's own gesture; nothing laid)
 *   Delete / Backspace: the selected node (with its links) or link goes
 *
 * Snapping: onto a node within HIT_PX screen pixels, onto a link (cut there), onto 0/45/90°
 * from the previous node (axes, and the previous link's direction); Alt held snaps to nothing.
 * The machine applies its own edits to its copy of the network at once, so the next click
 * snaps to what the last one laid before the editor's document comes back (`sync`).
 *
 * No DOM here: the canvas (path-overlay.tsx) turns pointer events into these, and the tests
 * feed them directly.
 */
import { and, assign, not, enqueueActions, setup } from 'xstate';
import type { Point } from '../../../../../events/map-document';
import { applyPathsEdit, type PathNetwork, type PathNode, type PathsEdit } from '../../../../../events/path-network';
import { DRAG_PX, distance, landingAt, nodeAt, edgeAt, snapAngle, snapAxes, arrivingDirection, tidy } from './path-geometry';
import { linked, mergeEdits, moveNodeEdit, newEdge, pathsEdit, splitEdge, type NewId } from './path-edits';

export type PathSelection = { kind: 'node'; id: string } | { kind: 'edge'; id: string };

/** A pointer event on the map: where (map units), how many map units a screen pixel is, the keys held. */
export interface PointerInfo {
  at: Point;
  scale: number;
  shift?: boolean;
  alt?: boolean;
}

export type PathToolEvent =
  | ({ type: 'down' } & PointerInfo)
  | ({ type: 'move' } & PointerInfo)
  | ({ type: 'up' } & PointerInfo)
  | { type: 'cancel' }
  | { type: 'key'; key: string }
  | { type: 'select'; selection: PathSelection | null }
  | { type: 'sync'; network: PathNetwork; layer: string };

export type PathToolEmitted = { type: 'edit'; edit: PathsEdit };

export interface PathToolContext {
  network: PathNetwork;
  layer: string;
  ids: NewId;
  /** The path being drawn, oldest first; its last node is where the next click links from. */
  trail: string[];
  selection: PathSelection | null;
  /** The press in progress: where it started and the node under it (a drag moves that node). */
  press: (PointerInfo & { node: string | null }) | null;
  /** The node being dragged and where it is now. */
  drag: { node: string; to: Point } | null;
  /** Where the next click would lay its node (snapped), for the rubber band. */
  cursor: Point | null;
}

export interface PathToolInput {
  network: PathNetwork;
  layer: string;
  ids: NewId;
}

const nodeById = (network: PathNetwork, id: string | undefined): PathNode | null => (id ? network.nodes.find((node) => node.id === id) ?? null : null);

/** What a click does: the edit it makes (if any) and where the drawing and the selection stand after it. */
export function clickResult(context: PathToolContext, pointer: PointerInfo): { edit: PathsEdit | null; trail: string[]; selection: PathSelection | null } {
  const { network, layer, ids, trail } = context;
  const end = pointer.shift ? null : nodeById(network, trail.at(-1));
  const landing = landingAt(network, pointer.at, { layer, scale: pointer.scale, from: end, previous: trail.at(-2) ?? null, free: pointer.alt ?? false });
  const node = (id: string): PathSelection => ({ kind: 'node', id });

  if (pointer.shift) {
    // A branch: the next clicks go on from here.
    if (landing.kind === 'node') return { edit: null, trail: [landing.node.id], selection: node(landing.node.id) };
    if (landing.kind === 'edge') {
      const split = splitEdge(ids, landing.edge, layer, landing.point);
      return { edit: split.edit, trail: [split.node.id], selection: node(split.node.id) };
    }
    const fresh: PathNode = { id: ids('node'), layer, x: landing.point.x, y: landing.point.y };
    return { edit: pathsEdit({ nodes: [fresh] }), trail: [fresh.id], selection: node(fresh.id) };
  }

  if (end) {
    if (landing.kind === 'node') {
      // The path's end clicked again: the path is done.
      if (landing.node.id === end.id) return { edit: null, trail: [], selection: node(end.id) };
      const edit = linked(network, end.id, landing.node.id) ? null : pathsEdit({ edges: [newEdge(ids, end.id, landing.node.id)] });
      return { edit, trail: [...trail, landing.node.id], selection: node(landing.node.id) };
    }
    if (landing.kind === 'edge') {
      const split = splitEdge(ids, landing.edge, layer, landing.point);
      return { edit: mergeEdits(split.edit, pathsEdit({ edges: [newEdge(ids, end.id, split.node.id)] })), trail: [...trail, split.node.id], selection: node(split.node.id) };
    }
    const fresh: PathNode = { id: ids('node'), layer, x: landing.point.x, y: landing.point.y };
    return { edit: pathsEdit({ nodes: [fresh], edges: [newEdge(ids, end.id, fresh.id)] }), trail: [...trail, fresh.id], selection: node(fresh.id) };
  }

  // Not drawing: a click on the network selects; on empty ground it starts a path.
  if (landing.kind === 'node') return { edit: null, trail: [], selection: node(landing.node.id) };
  if (landing.kind === 'edge') return { edit: null, trail: [], selection: { kind: 'edge', id: landing.edge.id } };
  const fresh: PathNode = { id: ids('node'), layer, x: landing.point.x, y: landing.point.y };
  return { edit: pathsEdit({ nodes: [fresh] }), trail: [fresh.id], selection: node(fresh.id) };
}

/** What Delete does: the edit removing the selection, and the drawing after it. */
export function deleteResult(context: PathToolContext): { edit: PathsEdit | null; trail: string[]; selection: PathSelection | null } {
  const { selection, trail } = context;
  if (!selection) return { edit: null, trail, selection };
  if (selection.kind === 'edge') return { edit: pathsEdit({ removeEdges: [selection.id] }), trail, selection: null };
  // Removing the path's end steps the drawing back to the node before it (Backspace undoes the last click).
  const rest = trail.at(-1) === selection.id ? trail.slice(0, -1) : trail.includes(selection.id) ? [] : trail;
  return { edit: pathsEdit({ removeNodes: [selection.id] }), trail: rest, selection: rest.length > 0 ? { kind: 'node', id: rest.at(-1)! } : null };
}

/** Where a dragged node goes: lined up with its linked neighbours when near (Alt: anywhere). */
function dragTarget(network: PathNetwork, nodeId: string, pointer: PointerInfo): Point {
  if (pointer.alt) return tidy(pointer.at);
  const neighbours = network.edges
    .filter((edge) => edge.from === nodeId || edge.to === nodeId)
    .map((edge) => nodeById(network, edge.from === nodeId ? edge.to : edge.from))
    .filter((node): node is PathNode => node !== null);
  return tidy(snapAxes(pointer.at, neighbours, pointer.scale));
}

/** The rubber band's end while drawing: the point the next click would lay (snapped like it). */
function cursorOf(context: PathToolContext, pointer: PointerInfo): Point | null {
  const end = nodeById(context.network, context.trail.at(-1));
  if (!end || pointer.shift) return null;
  if (pointer.alt) return tidy(pointer.at);
  const onNode = nodeAt(context.network, context.layer, pointer.at, pointer.scale);
  if (onNode) return { x: onNode.x, y: onNode.y };
  const snapped = snapAngle(end, pointer.at, arrivingDirection(context.network, end, context.trail.at(-2) ?? null));
  if (snapped !== pointer.at) return snapped;
  return edgeAt(context.network, context.layer, pointer.at, pointer.scale)?.point ?? tidy(pointer.at);
}

const pointerOf = (event: PathToolEvent): PointerInfo => {
  if (event.type !== 'down' && event.type !== 'move' && event.type !== 'up') throw new Error(`not a pointer event: ${event.type}`);
  return { at: event.at, scale: event.scale, shift: event.shift ?? false, alt: event.alt ?? false };
};

const isDeleteKey = (event: PathToolEvent) => event.type === 'key' && (event.key === 'Delete' || event.key === 'Backspace');
const isEscape = (event: PathToolEvent) => event.type === 'key' && event.key === 'Escape';

export const pathToolMachine = setup({
  types: {
    context: {} as PathToolContext,
    events: {} as PathToolEvent,
    input: {} as PathToolInput,
    emitted: {} as PathToolEmitted,
  },
  guards: {
    drawing: ({ context }) => context.trail.length > 0,
    movedFar: ({ context, event }) => {
      if (!context.press || event.type !== 'move') return false;
      return distance(context.press.at, event.at) > DRAG_PX * context.press.scale;
    },
    pressedNode: ({ context }) => context.press?.node != null,
    deleteKey: ({ event }) => isDeleteKey(event),
    escape: ({ event }) => isEscape(event),
    hasSelection: ({ context }) => context.selection !== null,
  },
  actions: {
    press: assign(({ context, event }) => {
      const pointer = pointerOf(event);
      return { press: { ...pointer, node: nodeAt(context.network, context.layer, pointer.at, pointer.scale)?.id ?? null }, cursor: null };
    }),
    click: enqueueActions(({ context, event, enqueue }) => {
      const pointer = pointerOf(event);
      const result = clickResult(context, { ...pointer, shift: context.press?.shift ?? pointer.shift ?? false, alt: pointer.alt ?? false });
      const network = result.edit ? applyPathsEdit(context.network, result.edit).network : context.network;
      enqueue.assign({ network, trail: result.trail, selection: result.selection, press: null });
      if (result.edit) enqueue.emit({ type: 'edit', edit: result.edit });
    }),
    startDrag: assign(({ context, event }) => {
      const node = context.press!.node!;
      return { drag: { node, to: dragTarget(context.network, node, pointerOf(event)) }, selection: { kind: 'node' as const, id: node } };
    }),
    followDrag: assign(({ context, event }) => ({ drag: context.drag ? { node: context.drag.node, to: dragTarget(context.network, context.drag.node, pointerOf(event)) } : null })),
    drop: enqueueActions(({ context, enqueue }) => {
      const node = nodeById(context.network, context.drag?.node);
      enqueue.assign({ drag: null, press: null });
      if (!node || !context.drag || (node.x === context.drag.to.x && node.y === context.drag.to.y)) return;
      const edit = moveNodeEdit(node, context.drag.to);
      enqueue.assign({ network: applyPathsEdit(context.network, edit).network });
      enqueue.emit({ type: 'edit', edit });
    }),
    endPress: assign({ press: null, drag: null }),
    trackCursor: assign(({ context, event }) => ({ cursor: cursorOf(context, pointerOf(event)) })),
    deleteSelection: enqueueActions(({ context, enqueue }) => {
      const result = deleteResult(context);
      if (!result.edit) return;
      enqueue.assign({ network: applyPathsEdit(context.network, result.edit).network, trail: result.trail, selection: result.selection });
      enqueue.emit({ type: 'edit', edit: result.edit });
    }),
    endPath: assign({ trail: [], cursor: null }),
    clearSelection: assign({ selection: null }),
    select: assign(({ event }) => (event.type === 'select' ? { selection: event.selection } : {})),
    sync: assign(({ context, event }) => {
      if (event.type !== 'sync') return {};
      const ids = new Set(event.network.nodes.map((node) => node.id));
      const edgeIds = new Set(event.network.edges.map((edge) => edge.id));
      // Another floor, or the drawing's nodes gone (undo, a collaborator): the path ends there.
      const trail = event.layer !== context.layer || context.trail.some((id) => !ids.has(id)) ? [] : context.trail;
      const selection =
        context.selection && (context.selection.kind === 'node' ? ids.has(context.selection.id) : edgeIds.has(context.selection.id)) && event.layer === context.layer ? context.selection : null;
      return { network: event.network, layer: event.layer, trail, selection, cursor: trail.length > 0 ? context.cursor : null };
    }),
  },
}).createMachine({
  id: 'pathTool',
  context: ({ input }) => ({ network: input.network, layer: input.layer, ids: input.ids, trail: [], selection: null, press: null, drag: null, cursor: null }),
  initial: 'idle',
  on: {
    // Not a transition: a collaborator's edit must not end a drag under way.
    sync: { actions: 'sync' },
    select: { actions: ['select', 'endPath'], target: '.idle' },
  },
  states: {
    idle: {
      on: {
        down: { target: 'pressed', actions: 'press' },
        key: [
          { guard: 'deleteKey', actions: 'deleteSelection', target: 'settle' },
          { guard: 'escape', actions: 'clearSelection' },
        ],
      },
    },
    drawing: {
      // The path's nodes went (undo, a collaborator, another floor): nothing to draw on from.
      always: { guard: not('drawing'), target: 'idle' },
      on: {
        down: { target: 'pressed', actions: 'press' },
        move: { actions: 'trackCursor' },
        key: [
          { guard: 'deleteKey', actions: 'deleteSelection', target: 'settle' },
          { guard: 'escape', actions: 'endPath', target: 'idle' },
        ],
      },
    },
    /** A button is down; not yet a click, a drag or a pan. */
    pressed: {
      on: {
        move: [
          { guard: and(['movedFar', 'pressedNode']), target: 'draggingNode', actions: 'startDrag' },
          { guard: 'movedFar', target: 'panning', actions: 'endPress' },
        ],
        up: { actions: 'click', target: 'settle' },
        cancel: { actions: 'endPress', target: 'settle' },
      },
    },
    panning: {
      on: {
        // Not on a node: the map pans (the canvas lets the gesture through); nothing to do.
        up: { actions: 'endPress', target: 'settle' },
        cancel: { actions: 'endPress', target: 'settle' },
      },
    },
    draggingNode: {
      on: {
        move: { actions: 'followDrag' },
        up: { actions: ['followDrag', 'drop'], target: 'settle' },
        cancel: { actions: 'endPress', target: 'settle' },
        key: { guard: 'escape', actions: 'endPress', target: 'settle' },
      },
    },
    /** Back to drawing when a path is under way, else to idle. */
    settle: {
      always: [{ guard: 'drawing', target: 'drawing' }, { target: 'idle' }],
    },
  },
});
