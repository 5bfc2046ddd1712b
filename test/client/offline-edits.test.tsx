/**
 * Edits made offline survive a reload (issue 16, item 5): kept in IndexedDB (fake-indexeddb
 * here, see setup.ts) per user and map, restored when the map opens again, sent in order once
 * the network is back; never shown to another user of the browser, forgotten on signing out.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { openDB } from 'idb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emptyMapDocument, Location, type MapDocument } from '../../events/map-document';
import type { MapEdit } from '../../events/map-edits';
import { topics } from '../../events/topics';
import { forgetPendingEdits, pendingEditsStore } from '../../client/src/lib/pending-edits-store';
import { authRoutes, principal, renderApp, stubFetch, type FakeRequest } from './support/fakes';

afterEach(() => vi.unstubAllGlobals());

const cafe = Location.parse({ id: 'cafe', title: 'Cafe', layer: 'ground', position: { x: 100, y: 100 } });
const document: MapDocument = { ...emptyMapDocument(), locations: [cafe] };
const record = (data: MapDocument, revision: string) => ({ id: 'm1', title: 'Harbour Market', data, revision });
const onCanvas = () => within(screen.getByRole('list', { name: /^Locations on/ }));
const tools = () => within(screen.getByRole('toolbar', { name: 'Tools' }));
/** Keeps edits as an editor that has closed since would have. */
async function seed(uid: string, mapId: string, edits: MapEdit[]) {
  const tab = pendingEditsStore(uid, mapId);
  await tab.save(edits);
  tab.close();
}

/** Every edit kept for a user and map, whichever editor kept it (read without taking it over). */
async function kept(uid: string, mapId: string): Promise<MapEdit[]> {
  await forgetPendingEdits('nobody'); // opens (and makes) the database as the app does
  const db = await openDB('mapfold-offline', 2);
  const records = (await db.getAll('pending-edits')) as Array<{ uid: string; mapId: string; edits: MapEdit[] }>;
  db.close();
  return records.filter((record) => record.uid === uid && record.mapId === mapId).flatMap((record) => record.edits);
}

const editRequests = (requests: FakeRequest[]) => requests.filter((r) => r.path === '/api/fn/editMap').map((r) => r.data as { edits: MapEdit[] });

/** A server for map m1 whose network can be cut: editMap then fails as fetch does offline. */
function server(user = principal({ uid: 'u1' })) {
  const state = { online: true, revision: 1, data: document };
  const fake = stubFetch({
    ...authRoutes(user),
    'GET /api/maps/m1/data': () => ({ body: { result: record(state.data, String(state.revision)), position: '3:0' } }),
    'GET /api/public/maps/m1': () => ({ body: { result: { ...record(state.data, '1'), state: 0, test: true } } }),
    'POST /api/fn/editMap': (request) => {
      if (!state.online) throw new TypeError('Failed to fetch');
      state.revision += (request.data as { edits: unknown[] }).edits.length;
      return { body: { result: { revision: String(state.revision) }, position: `${state.revision + 3}:0` } };
    },
  });
  return { state, requests: fake.requests };
}

async function openEditor() {
  const view = renderApp('/maps/m1');
  await screen.findByRole('region', { name: /Map editor/ });
  return view;
}

async function addLocation(user: ReturnType<typeof userEvent.setup>) {
  await user.click(tools().getByRole('button', { name: /Add location/ }));
  screen.getByRole('region', { name: /Map editor/ }).querySelector<HTMLElement>('.mf-viewport')!.focus();
  await user.keyboard('{Enter}');
}

describe('edits made offline', () => {
  it('show "Offline, 2 changes waiting", survive a reload, and go out in order when back online', async () => {
    const user = userEvent.setup();
    const net = server();
    net.state.online = false;
    const first = await openEditor();
    await addLocation(user);
    await addLocation(user);
    expect(await screen.findByText('Offline, 2 changes waiting')).toBeInTheDocument();
    expect(onCanvas().getAllByRole('button', { name: 'New location' })).toHaveLength(2);
    await waitFor(async () => expect(await kept('u1', 'm1')).toHaveLength(2));
    const waiting = await kept('u1', 'm1');

    // The page is reloaded (the tab closed and opened again), the network back.
    first.unmount();
    net.state.online = true;
    const sent = editRequests(net.requests).length;
    const { live } = await openEditor();
    expect(onCanvas().getAllByRole('button', { name: 'New location' })).toHaveLength(2);
    await waitFor(() => expect(editRequests(net.requests)).toHaveLength(sent + 1));
    expect(editRequests(net.requests).at(-1)!.edits).toEqual(waiting);
    expect(waiting.map((edit) => edit.type)).toEqual(['LocationAdded', 'LocationAdded']);

    const added = waiting.map((edit) => (edit as Extract<MapEdit, { type: 'LocationAdded' }>).location);
    act(() => live.emit(topics.map('m1'), record({ ...document, locations: [cafe, ...added] }, String(net.state.revision)), '9:0'));
    expect(await screen.findByText('All changes saved')).toBeInTheDocument();
    expect(await kept('u1', 'm1')).toEqual([]);
  });

  it('an edit kept on the device that the server refuses is taken back with the reason, and forgotten', async () => {
    const refused = { status: 403, body: { error: { status: 'PERMISSION_DENIED', message: 'You can view this map but not change it.' } } };
    stubFetch({
      ...authRoutes(principal({ uid: 'u1' })),
      'GET /api/maps/m1/data': () => ({ body: { result: record(document, '1'), position: '3:0' } }),
      'GET /api/public/maps/m1': () => ({ body: { result: { ...record(document, '1'), state: 0, test: true } } }),
      'POST /api/fn/editMap': () => refused,
    });
    await seed('u1', 'm1', [{ type: 'LocationRemoved', id: 'cafe' }]);
    await openEditor();
    expect(await screen.findByRole('alert')).toHaveTextContent('Not saved: You can view this map but not change it.');
    expect(onCanvas().getByRole('button', { name: 'Cafe' })).toBeInTheDocument();
    await waitFor(async () => expect(await kept('u1', 'm1')).toEqual([]));
  });

  it('are forgotten when the map is no longer the user’s to change', async () => {
    await seed('u1', 'm1', [{ type: 'LocationRemoved', id: 'cafe' }]);
    await seed('u1', 'm2', [{ type: 'LocationRemoved', id: 'cafe' }]);
    const forbidden = { status: 403, body: { error: { status: 'PERMISSION_DENIED', message: 'You do not have access to this map.' } } };
    const missing = { status: 404, body: { error: { status: 'NOT_FOUND', message: 'No such map.' } } };
    const fake = stubFetch({ ...authRoutes(principal({ uid: 'u1' })), 'GET /api/maps/m1/data': () => forbidden, 'GET /api/public/maps/m1': () => missing });
    renderApp('/maps/m1');
    await screen.findByRole('heading', { name: 'Map not found' });
    await waitFor(async () => expect(await kept('u1', 'm1')).toEqual([]));
    expect(await kept('u1', 'm2')).toHaveLength(1);
    expect(editRequests(fake.requests)).toEqual([]);
  });

  it('another user of the browser never sees them', async () => {
    await seed('u1', 'm1', [{ type: 'LocationRemoved', id: 'cafe' }]);
    const net = server(principal({ uid: 'u2', email: 'ben@example.com', displayName: 'Ben' }));
    await openEditor();
    expect(onCanvas().getByRole('button', { name: 'Cafe' })).toBeInTheDocument();
    expect(screen.getByText('All changes saved')).toBeInTheDocument();
    expect(editRequests(net.requests)).toEqual([]);
    expect(await kept('u1', 'm1')).toHaveLength(1);
  });

  it('signing out forgets the signed-out user’s kept edits, and only theirs', async () => {
    const user = userEvent.setup();
    await seed('u1', 'm1', [{ type: 'LocationRemoved', id: 'cafe' }]);
    await seed('u1', 'm2', [{ type: 'LocationRemoved', id: 'bar' }]);
    await seed('u2', 'm1', [{ type: 'LocationRemoved', id: 'cafe' }]);
    stubFetch(authRoutes(principal({ uid: 'u1' })));
    renderApp('/maps');
    await user.click(await screen.findByRole('button', { name: 'Log out' }));
    await waitFor(async () => expect(await kept('u1', 'm1')).toEqual([]));
    expect(await kept('u1', 'm2')).toEqual([]);
    expect(await kept('u2', 'm1')).toHaveLength(1);
  });
});

describe('the pending edits store', () => {
  const moved: MapEdit = { type: 'LocationMoved', id: 'cafe', position: { x: 1, y: 2 } };
  const removed: MapEdit = { type: 'LocationRemoved', id: 'bar' };

  it('keeps edits per user and map, and saving none forgets them', async () => {
    const tab = pendingEditsStore('u1', 'm1');
    await tab.save([moved]);
    tab.close();
    expect(await pendingEditsStore('u2', 'm1').load()).toEqual([]);
    expect(await pendingEditsStore('u1', 'm2').load()).toEqual([]);
    const next = pendingEditsStore('u1', 'm1');
    expect(await next.load()).toEqual([moved]);
    await next.save([]);
    next.close();
    expect(await pendingEditsStore('u1', 'm1').load()).toEqual([]);
  });

  it('two editors of one map keep their own edits; the next editor takes over only those of closed ones', async () => {
    const first = pendingEditsStore('u1', 'm1');
    const second = pendingEditsStore('u1', 'm1');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_000);
    await first.save([moved]);
    vi.setSystemTime(2_000);
    await second.save([removed]);
    vi.useRealTimers();
    // Both still open: nothing to take over, and neither overwrote the other.
    expect(await pendingEditsStore('u1', 'm1').load()).toEqual([]);
    first.close();
    const third = pendingEditsStore('u1', 'm1');
    expect(await third.load()).toEqual([moved]);
    // Taken over once: a fourth editor opened now gets nothing more of it.
    expect(await pendingEditsStore('u1', 'm1').load()).toEqual([]);
    second.close();
    third.close();
    expect(await pendingEditsStore('u1', 'm1').load()).toEqual([moved, removed]);
  });

  it('forgets one map of a user, or all of them', async () => {
    for (const [uid, mapId] of [['u1', 'm1'], ['u1', 'm2'], ['u2', 'm1']] as const) {
      const tab = pendingEditsStore(uid, mapId);
      await tab.save([moved]);
      tab.close();
    }
    await forgetPendingEdits('u1', 'm1');
    expect(await pendingEditsStore('u1', 'm1').load()).toEqual([]);
    await forgetPendingEdits('u1');
    expect(await pendingEditsStore('u1', 'm2').load()).toEqual([]);
    expect(await pendingEditsStore('u2', 'm1').load()).toEqual([moved]);
  });

  it('drops a kept record that is not edits this app understands', async () => {
    await pendingEditsStore('u1', 'm1').load();
    const db = await openDB('mapfold-offline', 2);
    await db.put('pending-edits', { uid: 'u1', mapId: 'm1', tab: 'gone', edits: [{ type: 'MapDeletedEverything' }], since: 0 });
    db.close();
    expect(await pendingEditsStore('u1', 'm1').load()).toEqual([]);
  });
});
