import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { emptyMapDocument, Location, type MapDocument } from '../../events/map-document';
import { applyEdit, type MapEdit } from '../../events/map-edits';
import { EditorSession, type ServerCopy } from '../../client/src/features/editor/editor-session';
import { ApiError } from '../../client/src/lib/api';

const cafe = Location.parse({ id: 'cafe', title: 'Cafe', layer: 'ground', position: { x: 10, y: 20 } });

function documentWith(...locations: Location[]): MapDocument {
  return { ...emptyMapDocument(), locations };
}

/** A fake server: it keeps the document and revision, applies saved edits, and can fail. */
function fakeServer(initial: MapDocument) {
  const state = { document: initial, revision: 0n };
  const calls: MapEdit[][] = [];
  let failure: ApiError | null = null;
  const save = vi.fn(async (edits: MapEdit[]) => {
    calls.push(edits);
    if (failure) throw failure;
    for (const edit of edits) state.document = applyEdit(state.document, edit);
    state.revision += BigInt(edits.length);
    return { revision: String(state.revision) };
  });
  const copy = (): ServerCopy => ({ document: state.document, revision: state.revision });
  return {
    state,
    calls,
    save,
    copy,
    failWith(error: ApiError | null) {
      failure = error;
    },
    /** A collaborator's edit, recorded on the server. */
    collaborator(edit: MapEdit) {
      state.document = applyEdit(state.document, edit);
      state.revision += 1n;
    },
  };
}

describe('EditorSession', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows an edit at once, saves it, and is saved once the snapshot of its revision arrives', async () => {
    const server = fakeServer(documentWith(cafe));
    const session = new EditorSession({ initial: server.copy(), save: server.save });
    session.apply([{ type: 'LocationMoved', id: 'cafe', position: { x: 50, y: 60 } }]);
    expect(session.document.locations[0]!.position).toEqual({ x: 50, y: 60 });
    expect(session.getSnapshot().status).toBe('saving');
    await vi.advanceTimersByTimeAsync(200);
    expect(server.calls).toEqual([[{ type: 'LocationMoved', id: 'cafe', position: { x: 50, y: 60 } }]]);
    // Answered, but the snapshot is not here yet: still shown, still waiting.
    expect(session.getSnapshot().status).toBe('saving');
    session.receive(server.copy());
    expect(session.getSnapshot()).toMatchObject({ status: 'saved', unsaved: 0 });
    expect(session.document.locations[0]!.position).toEqual({ x: 50, y: 60 });
  });

  it("keeps one's pending edits on top of a collaborator's snapshot", async () => {
    const server = fakeServer(documentWith(cafe));
    const session = new EditorSession({ initial: server.copy(), save: server.save });
    server.failWith(new ApiError('internal', 'Could not reach Mapfold.', 0));
    session.apply([{ type: 'LocationUpdated', id: 'cafe', changes: { about: 'Coffee' } }]);
    server.collaborator({ type: 'LocationUpdated', id: 'cafe', changes: { title: 'Café Luna' } });
    session.receive(server.copy());
    expect(session.document.locations[0]).toMatchObject({ title: 'Café Luna', about: 'Coffee' });
  });

  it('keeps edits made offline and sends them when the network is back', async () => {
    const server = fakeServer(documentWith(cafe));
    const session = new EditorSession({ initial: server.copy(), save: server.save });
    server.failWith(new ApiError('internal', 'Could not reach Mapfold.', 0));
    session.apply([{ type: 'LocationUpdated', id: 'cafe', changes: { phone: '555' } }]);
    await vi.advanceTimersByTimeAsync(200);
    expect(session.getSnapshot().status).toBe('offline');
    session.apply([{ type: 'LocationUpdated', id: 'cafe', changes: { hours: '9-5' } }]);
    expect(session.document.locations[0]).toMatchObject({ phone: '555', hours: '9-5' });
    server.failWith(null);
    session.retryNow();
    await vi.advanceTimersByTimeAsync(500);
    session.receive(server.copy());
    expect(session.getSnapshot().status).toBe('saved');
    expect(server.state.document.locations[0]).toMatchObject({ phone: '555', hours: '9-5' });
  });

  it('takes back edits the server refuses and says why', async () => {
    const server = fakeServer(documentWith(cafe));
    const session = new EditorSession({ initial: server.copy(), save: server.save });
    server.failWith(new ApiError('permission-denied', 'You do not have permission to change this map.', 403));
    session.apply([{ type: 'LocationRemoved', id: 'cafe' }]);
    expect(session.document.locations).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(200);
    expect(session.document.locations).toHaveLength(1);
    expect(session.getSnapshot()).toMatchObject({ status: 'saved', error: 'You do not have permission to change this map.' });
  });

  it('undoes and redoes its own edits, and coalesces typing in one field into one step', async () => {
    const server = fakeServer(documentWith(cafe));
    const session = new EditorSession({ initial: server.copy(), save: server.save });
    for (const title of ['C', 'Ca', 'Caf', 'Café']) {
      session.apply([{ type: 'LocationUpdated', id: 'cafe', changes: { title } }], { coalesce: 'location:cafe:title' });
      await vi.advanceTimersByTimeAsync(100);
    }
    session.apply([{ type: 'LocationMoved', id: 'cafe', position: { x: 1, y: 1 } }]);
    expect(session.document.locations[0]).toMatchObject({ title: 'Café', position: { x: 1, y: 1 } });
    session.undo();
    expect(session.document.locations[0]).toMatchObject({ title: 'Café', position: { x: 10, y: 20 } });
    session.undo();
    expect(session.document.locations[0]!.title).toBe('Cafe');
    expect(session.getSnapshot().canUndo).toBe(false);
    session.redo();
    expect(session.document.locations[0]!.title).toBe('Café');
    await vi.advanceTimersByTimeAsync(1000);
    session.receive(server.copy());
    expect(server.state.document.locations[0]).toMatchObject({ title: 'Café', position: { x: 10, y: 20 } });
    expect(session.getSnapshot().status).toBe('saved');
  });

  it("undo skips what a collaborator has removed since, and never undoes the collaborator's edits", async () => {
    const server = fakeServer(documentWith(cafe));
    const session = new EditorSession({ initial: server.copy(), save: server.save });
    session.apply([{ type: 'GroupAdded', group: { id: 'food', name: 'Food', color: '#f97316', legend: true } }]);
    session.apply([{ type: 'LocationUpdated', id: 'cafe', changes: { about: 'Coffee' } }]);
    await vi.advanceTimersByTimeAsync(500);
    session.receive(server.copy());
    server.collaborator({ type: 'LocationRemoved', id: 'cafe' });
    server.collaborator({ type: 'LayerRenamed', id: 'ground', name: 'Lobby' });
    session.receive(server.copy());
    // The about edit cannot be taken back (the location is gone): undo takes back the group.
    session.undo();
    expect(session.document.groups).toEqual([]);
    expect(session.document.layers[0]!.name).toBe('Lobby');
  });

  it('a large import is sent in calls of at most 500 edits, in order', async () => {
    const server = fakeServer(emptyMapDocument());
    const session = new EditorSession({ initial: server.copy(), save: server.save });
    const edits: MapEdit[] = Array.from({ length: 1_200 }, (_, i) => ({ type: 'LocationAdded', location: Location.parse({ id: `l${i}`, title: `L${i}`, layer: 'ground' }) }));
    session.apply(edits);
    await vi.advanceTimersByTimeAsync(1000);
    expect(server.calls.map((call) => call.length)).toEqual([500, 500, 200]);
    session.receive(server.copy());
    expect(session.getSnapshot()).toMatchObject({ status: 'saved', unsaved: 0 });
    expect(session.document.locations).toHaveLength(1_200);
  });

  it('reads the server copy again when the pushed snapshot does not come', async () => {
    const server = fakeServer(documentWith(cafe));
    const reload = vi.fn(async () => server.copy());
    const session = new EditorSession({ initial: server.copy(), save: server.save, reload });
    session.apply([{ type: 'LocationRemoved', id: 'cafe' }]);
    await vi.advanceTimersByTimeAsync(200);
    expect(session.getSnapshot().status).toBe('saving');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(reload).toHaveBeenCalled();
    expect(session.getSnapshot().status).toBe('saved');
  });

  it('exploring a map one cannot save keeps every edit local', async () => {
    const session = new EditorSession({ initial: { document: documentWith(cafe), revision: 3n }, save: null });
    session.apply([{ type: 'LocationRemoved', id: 'cafe' }]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(session.getSnapshot()).toMatchObject({ status: 'local', canUndo: true });
    expect(session.document.locations).toHaveLength(0);
    session.undo();
    expect(session.document.locations).toHaveLength(1);
  });
});
