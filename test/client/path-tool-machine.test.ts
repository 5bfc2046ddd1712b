/**
 * The editor's path tool and tool switch as state machines, fed pointer and key events in map
 * coordinates without a browser: what each click lays, the snapping, branches, drags, deletes,
 * and that every action is one `PathsEdited` edit the map document accepts.
 */
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { applyPathsEdit, checkPathNetwork, emptyPathNetwork, type PathNetwork, type PathsEdit } from '../../events/path-network';
import { pathToolMachine, type PathToolEvent } from '../../client/src/features/editor/tools/path-machine';
import { toolOf, toolsMachine } from '../../client/src/features/editor/tools/tools-machine';
import { connectorEdit } from '../../client/src/features/editor/tools/path-edits';
import { snapAngle } from '../../client/src/features/editor/tools/path-geometry';

function counter() {
  const next: Record<string, number> = {};
  return (kind: 'node' | 'edge' | 'conn') => {
    next[kind] = (next[kind] ?? 0) + 1;
    return `${kind}-${next[kind]}`;
  };
}

/** The machine with a record of its edits, the network they make applied like the editor would. */
function tool(network: PathNetwork = emptyPathNetwork(), layer = 'ground') {
  const actor = createActor(pathToolMachine, { input: { network, layer, ids: counter() } });
  const edits: PathsEdit[] = [];
  let applied = network;
  actor.on('edit', ({ edit }) => {
    edits.push(edit);
    applied = applyPathsEdit(applied, edit).network;
  });
  actor.start();
  const send = (event: PathToolEvent) => actor.send(event);
  // scale 1: one map unit per screen pixel.
  const click = (x: number, y: number, keys: { shift?: boolean; alt?: boolean } = {}) => {
    send({ type: 'down', at: { x, y }, scale: 1, ...keys });
    send({ type: 'up', at: { x, y }, scale: 1, ...keys });
  };
  return { actor, edits, send, click, network: () => applied, state: () => actor.getSnapshot().value, context: () => actor.getSnapshot().context };
}

const valid = (network: PathNetwork) => checkPathNetwork(network, new Set(['ground', 'first']));

describe('path tool machine', () => {
  it('lays a node per click and links it to the previous one; Esc ends the path', () => {
    const t = tool();
    expect(t.state()).toBe('idle');
    t.click(0, 0);
    expect(t.state()).toBe('drawing');
    t.click(100, 0);
    t.click(100, 80);
    expect(t.edits).toHaveLength(3);
    expect(t.edits[0]).toMatchObject({ type: 'PathsEdited', put: { nodes: [{ id: 'node-1', layer: 'ground', x: 0, y: 0 }], edges: [] } });
    expect(t.edits[1]!.put).toMatchObject({ nodes: [{ id: 'node-2', x: 100, y: 0 }], edges: [{ from: 'node-1', to: 'node-2', stepFree: true, oneWay: false }] });
    expect(t.network().nodes).toHaveLength(3);
    expect(t.network().edges.map((e) => [e.from, e.to])).toEqual([['node-1', 'node-2'], ['node-2', 'node-3']]);
    expect(valid(t.network())).toBeNull();
    t.send({ type: 'key', key: 'Escape' });
    expect(t.state()).toBe('idle');
    expect(t.context().trail).toEqual([]);
    // After Esc a click on empty ground starts a new path, unlinked.
    t.click(300, 300);
    expect(t.edits.at(-1)!.put.edges).toEqual([]);
  });

  it('snaps onto an existing node within 10 screen pixels, at any zoom', () => {
    const t = tool();
    t.click(0, 0);
    t.click(100, 0);
    t.click(100, 100);
    // Near the first node: the loop closes on it, no new node.
    t.click(6, 104);
    t.click(4, 5);
    const last = t.edits.at(-1)!;
    expect(last.put.nodes).toEqual([]);
    expect(last.put.edges).toEqual([expect.objectContaining({ to: 'node-1' })]);
    // Zoomed out (4 map units per pixel), 30 units is 7.5 px: still on the node.
    const z = tool(t.network());
    z.send({ type: 'down', at: { x: 130, y: 0 }, scale: 4 });
    z.send({ type: 'up', at: { x: 130, y: 0 }, scale: 4 });
    expect(z.edits).toEqual([]);
    expect(z.context().selection).toEqual({ kind: 'node', id: 'node-2' });
  });

  it('snaps to right angles and 45° from the previous node, and not with Alt', () => {
    const t = tool();
    t.click(0, 0);
    t.click(200, 7); // 2° off the axis: straight
    expect(t.edits[1]!.put.nodes[0]).toMatchObject({ x: 200, y: 0 });
    t.click(300, 95); // about 43.5° from the last node: 45°
    const diagonal = t.edits[2]!.put.nodes[0]!;
    expect(diagonal.x - 200).toBeCloseTo(diagonal.y, 1);
    t.click(500, 200, { alt: true });
    expect(t.edits[3]!.put.nodes[0]).toMatchObject({ x: 500, y: 200 });
    // Relative to a corridor drawn at 30°: a right angle to it.
    const at = snapAngle({ x: 0, y: 0 }, { x: -52, y: 88 }, 30);
    expect(Math.atan2(at.y, at.x) * (180 / Math.PI)).toBeCloseTo(120, 1);
  });

  it('shift-click branches from an existing node, and from the middle of a link by cutting it', () => {
    const t = tool();
    t.click(0, 0);
    t.click(100, 0);
    t.click(200, 0);
    t.send({ type: 'key', key: 'Escape' });
    t.click(100, 3, { shift: true });
    expect(t.edits).toHaveLength(3);
    expect(t.context().trail).toEqual(['node-2']);
    t.click(100, 100);
    expect(t.edits.at(-1)!.put.edges).toEqual([expect.objectContaining({ from: 'node-2', to: 'node-4' })]);
    t.send({ type: 'key', key: 'Escape' });
    // The link node-1 → node-2 cut at x 50, and a branch from there.
    t.click(50, 2, { shift: true });
    const cut = t.edits.at(-1)!;
    expect(cut.removed.edges).toHaveLength(1);
    expect(cut.put.nodes).toEqual([expect.objectContaining({ x: 50, y: 0 })]);
    expect(cut.put.edges).toHaveLength(2);
    t.click(50, -80);
    expect(valid(t.network())).toBeNull();
    expect(t.network().nodes).toHaveLength(6);
    expect(t.network().edges).toHaveLength(5);
  });

  it('a click on a link while drawing cuts it and joins the path to it', () => {
    const t = tool();
    t.click(0, 0);
    t.click(200, 0);
    t.send({ type: 'key', key: 'Escape' });
    t.click(90, 150);
    t.click(96, 1);
    const join = t.edits.at(-1)!;
    expect(join.removed.edges).toEqual(['edge-1']);
    expect(join.put.edges).toHaveLength(3);
    expect(t.network().edges).toHaveLength(3);
    // Straight down from (90, 150): the join is where the vertical crosses the link.
    expect(join.put.nodes[0]).toMatchObject({ x: 90, y: 0 });
    expect(valid(t.network())).toBeNull();
  });

  it('selects a node or a link by clicking it when not drawing, and Delete removes it', () => {
    const t = tool();
    t.click(0, 0);
    t.click(100, 0);
    t.click(100, 100);
    t.send({ type: 'key', key: 'Escape' });
    t.click(50, 2);
    expect(t.context().selection).toEqual({ kind: 'edge', id: 'edge-1' });
    t.send({ type: 'key', key: 'Delete' });
    expect(t.edits.at(-1)!.removed.edges).toEqual(['edge-1']);
    t.click(100, 0);
    expect(t.context().selection).toEqual({ kind: 'node', id: 'node-2' });
    t.send({ type: 'key', key: 'Backspace' });
    expect(t.edits.at(-1)!.removed.nodes).toEqual(['node-2']);
    // The node took its remaining link with it.
    expect(t.network().edges).toEqual([]);
    expect(t.context().selection).toBeNull();
  });

  it('Backspace while drawing takes the last node back and goes on from the one before', () => {
    const t = tool();
    t.click(0, 0);
    t.click(100, 0);
    t.click(200, 0);
    t.send({ type: 'key', key: 'Backspace' });
    expect(t.context().trail).toEqual(['node-1', 'node-2']);
    expect(t.state()).toBe('drawing');
    t.click(100, 100);
    expect(t.edits.at(-1)!.put.edges).toEqual([expect.objectContaining({ from: 'node-2' })]);
  });

  it('drags a node: one edit when let go, lined up with its neighbour when near; a drag on empty ground lays nothing', () => {
    const t = tool();
    t.click(0, 0);
    t.click(100, 0);
    t.send({ type: 'key', key: 'Escape' });
    t.send({ type: 'down', at: { x: 100, y: 0 }, scale: 1 });
    t.send({ type: 'move', at: { x: 120, y: 40 }, scale: 1 });
    expect(t.state()).toBe('draggingNode');
    t.send({ type: 'move', at: { x: 4, y: 80 }, scale: 1 });
    expect(t.context().drag).toEqual({ node: 'node-2', to: { x: 0, y: 80 } });
    const before = t.edits.length;
    t.send({ type: 'up', at: { x: 4, y: 80 }, scale: 1 });
    expect(t.edits).toHaveLength(before + 1);
    expect(t.edits.at(-1)!.put.nodes).toEqual([{ id: 'node-2', layer: 'ground', x: 0, y: 80 }]);
    expect(t.state()).toBe('idle');
    // A pan: pressed on nothing and moved.
    t.send({ type: 'down', at: { x: 300, y: 300 }, scale: 1 });
    t.send({ type: 'move', at: { x: 350, y: 300 }, scale: 1 });
    t.send({ type: 'up', at: { x: 350, y: 300 }, scale: 1 });
    expect(t.edits).toHaveLength(before + 1);
  });

  it('follows the document it is given (undo, a collaborator, another floor)', () => {
    const t = tool();
    t.click(0, 0);
    t.click(100, 0);
    // Undo took both nodes back.
    t.send({ type: 'sync', network: emptyPathNetwork(), layer: 'ground' });
    expect(t.state()).toBe('idle');
    expect(t.context().selection).toBeNull();
    t.click(10, 10);
    t.send({ type: 'sync', network: t.network(), layer: 'first' });
    expect(t.context().trail).toEqual([]);
    t.click(10, 10);
    expect(t.edits.at(-1)!.put.nodes[0]).toMatchObject({ layer: 'first' });
  });

  it('a connector is one edit: a stop on each floor at the same point', () => {
    const edit = connectorEdit(counter(), { kind: 'lift', name: ' Lift A ', at: { x: 40, y: 60 }, layers: ['ground', 'first'] });
    expect(edit.put.nodes).toEqual([
      { id: 'node-1', layer: 'ground', x: 40, y: 60 },
      { id: 'node-2', layer: 'first', x: 40, y: 60 },
    ]);
    expect(edit.put.connectors).toEqual([{ id: 'conn-1', kind: 'lift', name: 'Lift A', nodes: ['node-1', 'node-2'] }]);
    expect(valid(applyPathsEdit(emptyPathNetwork(), edit).network)).toBeNull();
  });
});

describe('tools machine', () => {
  it('switches tools by button and key; Esc leaves placing; a connector is aimed, then named', () => {
    const actor = createActor(toolsMachine).start();
    const tool = () => toolOf(actor.getSnapshot().value);
    expect(tool()).toBe('select');
    actor.send({ type: 'key', key: 'a' });
    expect(tool()).toBe('placeLocation');
    actor.send({ type: 'key', key: 'Escape' });
    expect(tool()).toBe('select');
    actor.send({ type: 'tool', tool: 'drawPath' });
    expect(tool()).toBe('drawPath');
    // Esc is the path's (it ends it), not the tool's.
    actor.send({ type: 'key', key: 'Escape' });
    expect(tool()).toBe('drawPath');
    actor.send({ type: 'key', key: 'c' });
    expect(actor.getSnapshot().value).toEqual({ placeConnector: 'aiming' });
    actor.send({ type: 'click', at: { x: 5, y: 6 } });
    expect(actor.getSnapshot().value).toEqual({ placeConnector: 'naming' });
    expect(actor.getSnapshot().context.connectorAt).toEqual({ x: 5, y: 6 });
    actor.send({ type: 'done' });
    // Back to the path tool it came from.
    expect(tool()).toBe('drawPath');
    expect(actor.getSnapshot().context.connectorAt).toBeNull();
    actor.send({ type: 'key', key: 'v' });
    actor.send({ type: 'tool', tool: 'placeConnector' });
    actor.send({ type: 'key', key: 'Escape' });
    expect(tool()).toBe('select');
  });
});
