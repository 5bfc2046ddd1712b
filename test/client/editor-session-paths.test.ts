/**
 * Path edits are ordinary edits in the editor's session: the path tool's edits are applied at
 * once, saved in order, undone and redone (a removed point comes back with its links and the
 * entrance that named it), and a second tab sees them when the server's snapshot arrives.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { emptyMapDocument, Location, type MapDocument } from '../../events/map-document';
import { applyEdit, type MapEdit } from '../../events/map-edits';
import { EditorSession, type ServerCopy } from '../../client/src/features/editor/editor-session';
import { pathToolMachine } from '../../client/src/features/editor/tools/path-machine';

function fakeServer(initial: MapDocument) {
  const state = { document: initial, revision: 0n };
  const calls: MapEdit[][] = [];
  const save = vi.fn(async (edits: MapEdit[]) => {
    calls.push(edits);
    for (const edit of edits) state.document = applyEdit(state.document, edit);
    state.revision += BigInt(edits.length);
    return { revision: String(state.revision) };
  });
  return { state, calls, save, copy: (): ServerCopy => ({ document: state.document, revision: state.revision }) };
}

describe('EditorSession with path edits', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('applies, saves, undoes and redoes the path tool edits, and another tab receives them', async () => {
    const cafe = Location.parse({ id: 'cafe', title: 'Cafe', layer: 'ground', position: { x: 0, y: 10 } });
    const server = fakeServer({ ...emptyMapDocument(), locations: [cafe] });
    const session = new EditorSession({ initial: server.copy(), save: server.save });
    const other = new EditorSession({ initial: server.copy(), save: server.save });
    let n = 0;
    const tool = createActor(pathToolMachine, { input: { network: session.document.paths, layer: 'ground', ids: (kind) => `${kind}-${++n}` } });
    tool.on('edit', ({ edit }) => session.apply([edit]));
    tool.start();
    const click = (x: number, y: number) => {
      tool.send({ type: 'down', at: { x, y }, scale: 1 });
      tool.send({ type: 'up', at: { x, y }, scale: 1 });
    };
    click(0, 0);
    click(100, 0);
    click(100, 100);
    expect(session.document.paths.nodes).toHaveLength(3);
    expect(session.document.paths.edges).toHaveLength(2);
    session.apply([{ type: 'LocationUpdated', id: 'cafe', changes: { entrances: ['node-1'] } }]);

    await vi.advanceTimersByTimeAsync(1000);
    expect(server.calls.flat().map((edit) => edit.type)).toEqual(['PathsEdited', 'PathsEdited', 'PathsEdited', 'LocationUpdated']);
    session.receive(server.copy());
    other.receive(server.copy());
    expect(other.document.paths).toEqual(session.document.paths);
    expect(session.getSnapshot().status).toBe('saved');

    // Delete the first point: its link and the cafe's entrance go; undo brings all back.
    tool.send({ type: 'sync', network: session.document.paths, layer: 'ground' });
    tool.send({ type: 'key', key: 'Escape' });
    click(0, 0);
    tool.send({ type: 'key', key: 'Delete' });
    expect(session.document.paths.nodes.map((node) => node.id)).toEqual(['node-2', 'node-4']);
    expect(session.document.paths.edges).toHaveLength(1);
    expect(session.document.locations[0]!.entrances).toEqual([]);
    session.undo();
    expect(session.document.paths.nodes.map((node) => node.id).sort()).toEqual(['node-1', 'node-2', 'node-4']);
    expect(session.document.paths.edges).toHaveLength(2);
    expect(session.document.locations[0]!.entrances).toEqual(['node-1']);
    session.redo();
    expect(session.document.paths.nodes).toHaveLength(2);
    session.undo();

    await vi.advanceTimersByTimeAsync(1000);
    session.receive(server.copy());
    other.receive(server.copy());
    expect(server.state.document.paths.nodes).toHaveLength(3);
    expect(other.document.locations[0]!.entrances).toEqual(['node-1']);
    expect(session.getSnapshot()).toMatchObject({ status: 'saved', unsaved: 0 });
  });
});
