import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { emptyMapDocument, Location, type MapDocument } from '../../events/map-document';
import { applyEdit, type MapEdit } from '../../events/map-edits';
import { EditorSession, type ServerCopy } from '../../client/src/features/editor/editor-session';
import type { PendingEditsStore } from '../../client/src/lib/pending-edits-store';
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

/** A store kept in memory, as IndexedDB would keep it; `hold` keeps the next writes waiting. */
function memoryStore(initial: MapEdit[] = []) {
  let kept: MapEdit[] = initial;
  let failing = false;
  const writes: MapEdit[][] = [];
  const store: PendingEditsStore & { kept(): MapEdit[]; writes: MapEdit[][]; fail(value: boolean): void } = {
    load: async () => kept,
    save: async (edits) => {
      await Promise.resolve();
      if (failing) throw new Error('QuotaExceededError');
      writes.push([...edits]);
      kept = [...edits];
    },
    close: () => undefined,
    kept: () => kept,
    writes,
    fail(value) {
      failing = value;
    },
  };
  return store;
}

const offline = () => new ApiError('internal', 'Could not reach Mapfold.', 0);

describe('EditorSession keeping pending edits on the device', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('keeps the edits the server has not acknowledged, in order, and forgets them once acknowledged', async () => {
    const server = fakeServer(documentWith(cafe));
    const store = memoryStore();
    const session = new EditorSession({ initial: server.copy(), save: server.save, store });
    server.failWith(offline());
    session.apply([{ type: 'LocationUpdated', id: 'cafe', changes: { phone: '555' } }]);
    await vi.advanceTimersByTimeAsync(200);
    session.apply([{ type: 'LocationMoved', id: 'cafe', position: { x: 1, y: 2 } }]);
    await vi.advanceTimersByTimeAsync(0);
    expect(store.kept()).toEqual([
      { type: 'LocationUpdated', id: 'cafe', changes: { phone: '555' } },
      { type: 'LocationMoved', id: 'cafe', position: { x: 1, y: 2 } },
    ]);
    expect(session.getSnapshot()).toMatchObject({ status: 'offline', unsaved: 2 });
    expect(session.keptOnDevice).toBe(true);

    server.failWith(null);
    session.retryNow();
    await vi.advanceTimersByTimeAsync(500);
    // Acknowledged (the server answered a revision): nothing is left to keep.
    expect(store.kept()).toEqual([]);
    session.receive(server.copy());
    expect(session.getSnapshot()).toMatchObject({ status: 'saved', unsaved: 0 });
  });

  it('starts with the kept edits replayed on the server copy in order, skips those that no longer apply, and sends the rest', async () => {
    const bakery = Location.parse({ id: 'bakery', title: 'Bakery', layer: 'ground', position: { x: 1, y: 1 } });
    const server = fakeServer(documentWith(cafe, bakery));
    const kept: MapEdit[] = [
      { type: 'LocationUpdated', id: 'cafe', changes: { title: 'Café' } },
      { type: 'LocationUpdated', id: 'bakery', changes: { about: 'Bread' } },
      { type: 'LocationUpdated', id: 'cafe', changes: { title: 'Café Luna' } },
    ];
    const store = memoryStore(kept);
    // While this user was away, a collaborator removed the bakery.
    server.collaborator({ type: 'LocationRemoved', id: 'bakery' });
    const session = new EditorSession({ initial: server.copy(), save: server.save, store, restored: await store.load() });
    expect(session.document.locations).toEqual([expect.objectContaining({ id: 'cafe', title: 'Café Luna' })]);
    expect(session.getSnapshot()).toMatchObject({ unsaved: 2, canUndo: false });
    await vi.advanceTimersByTimeAsync(200);
    // The skipped edit left the device first; then the rest went out in one call, in order.
    expect(store.writes[0]).toEqual([kept[0], kept[2]]);
    expect(server.calls).toEqual([[kept[0], kept[2]]]);
    expect(server.state.document.locations[0]!.title).toBe('Café Luna');
    session.receive(server.copy());
    expect(session.getSnapshot()).toMatchObject({ status: 'saved', unsaved: 0 });
    expect(store.kept()).toEqual([]);
  });

  it('a kept edit the server refuses is taken back with the reason, and removed from the device', async () => {
    const server = fakeServer(documentWith(cafe));
    const store = memoryStore([{ type: 'LocationRemoved', id: 'cafe' }]);
    server.failWith(new ApiError('permission-denied', 'You can view this map but not change it.', 403));
    const session = new EditorSession({ initial: server.copy(), save: server.save, store, restored: await store.load() });
    expect(session.document.locations).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(200);
    expect(session.document.locations).toHaveLength(1);
    expect(session.getSnapshot()).toMatchObject({ status: 'saved', error: 'You can view this map but not change it.' });
    expect(store.kept()).toEqual([]);
  });

  it('kept edits that all no longer apply are forgotten without sending anything', async () => {
    const server = fakeServer(emptyMapDocument());
    const store = memoryStore([{ type: 'LocationMoved', id: 'cafe', position: { x: 3, y: 3 } }]);
    const session = new EditorSession({ initial: server.copy(), save: server.save, store, restored: await store.load() });
    await vi.advanceTimersByTimeAsync(500);
    expect(server.calls).toEqual([]);
    expect(store.kept()).toEqual([]);
    expect(session.getSnapshot()).toMatchObject({ status: 'saved', unsaved: 0 });
  });

  it("a collaborator's change never enters this tab's undo stack", async () => {
    const server = fakeServer(documentWith(cafe));
    const session = new EditorSession({ initial: server.copy(), save: server.save, store: memoryStore() });
    server.collaborator({ type: 'LocationUpdated', id: 'cafe', changes: { title: 'Ben’s café' } });
    session.receive(server.copy());
    expect(session.getSnapshot().canUndo).toBe(false);
    session.apply([{ type: 'LocationUpdated', id: 'cafe', changes: { about: 'Coffee' } }]);
    await vi.advanceTimersByTimeAsync(200);
    server.collaborator({ type: 'LocationMoved', id: 'cafe', position: { x: 70, y: 70 } });
    session.receive(server.copy());
    session.undo();
    // Only this tab's edit is taken back: the collaborator's title and move stay.
    expect(session.document.locations[0]).toMatchObject({ title: 'Ben’s café', position: { x: 70, y: 70 } });
    expect(session.document.locations[0]!.about ?? '').toBe('');
    expect(session.getSnapshot().canUndo).toBe(false);
  });

  it('is not kept on the device while a write is on its way or when the browser refuses to store', async () => {
    const server = fakeServer(documentWith(cafe));
    const store = memoryStore();
    server.failWith(offline());
    const session = new EditorSession({ initial: server.copy(), save: server.save, store });
    expect(session.keptOnDevice).toBe(true);
    session.apply([{ type: 'LocationUpdated', id: 'cafe', changes: { phone: '1' } }]);
    expect(session.keptOnDevice).toBe(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(session.keptOnDevice).toBe(true);
    store.fail(true);
    session.apply([{ type: 'LocationUpdated', id: 'cafe', changes: { phone: '2' } }]);
    await vi.advanceTimersByTimeAsync(0);
    expect(session.keptOnDevice).toBe(false);
    // Without a store nothing is kept: leaving would lose the edits.
    expect(new EditorSession({ initial: server.copy(), save: server.save }).keptOnDevice).toBe(false);
  });

  it('typing makes one write per change at most, the latest last', async () => {
    const server = fakeServer(documentWith(cafe));
    const store = memoryStore();
    server.failWith(offline());
    const session = new EditorSession({ initial: server.copy(), save: server.save, store });
    for (const title of ['C', 'Ca', 'Caf', 'Café']) session.apply([{ type: 'LocationUpdated', id: 'cafe', changes: { title } }], { coalesce: 'title' });
    await vi.advanceTimersByTimeAsync(0);
    expect(store.writes.length).toBeLessThanOrEqual(2);
    expect(store.kept().at(-1)).toEqual({ type: 'LocationUpdated', id: 'cafe', changes: { title: 'Café' } });
    expect(store.kept()).toHaveLength(4);
  });
});
