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
    await waitFor(async () => expect(await pendingEditsStore('u1', 'm1').load()).toHaveLength(2));
    const kept = await pendingEditsStore('u1', 'm1').load();

    // The page is reloaded (the tab closed and opened again), the network back.
    first.unmount();
    net.state.online = true;
    const sent = editRequests(net.requests).length;
    const { live } = await openEditor();
    expect(onCanvas().getAllByRole('button', { name: 'New location' })).toHaveLength(2);
    await waitFor(() => expect(editRequests(net.requests)).toHaveLength(sent + 1));
    expect(editRequests(net.requests).at(-1)!.edits).toEqual(kept);
    expect(kept.map((edit) => edit.type)).toEqual(['LocationAdded', 'LocationAdded']);

    const added = kept.map((edit) => (edit as Extract<MapEdit, { type: 'LocationAdded' }>).location);
    act(() => live.emit(topics.map('m1'), record({ ...document, locations: [cafe, ...added] }, String(net.state.revision)), '9:0'));
    expect(await screen.findByText('All changes saved')).toBeInTheDocument();
    expect(await pendingEditsStore('u1', 'm1').load()).toEqual([]);
  });

  it('an edit kept on the device that the server refuses is taken back with the reason, and forgotten', async () => {
    const refused = { status: 403, body: { error: { status: 'PERMISSION_DENIED', message: 'You can view this map but not change it.' } } };
    stubFetch({
      ...authRoutes(principal({ uid: 'u1' })),
      'GET /api/maps/m1/data': () => ({ body: { result: record(document, '1'), position: '3:0' } }),
      'GET /api/public/maps/m1': () => ({ body: { result: { ...record(document, '1'), state: 0, test: true } } }),
      'POST /api/fn/editMap': () => refused,
    });
    await pendingEditsStore('u1', 'm1').save([{ type: 'LocationRemoved', id: 'cafe' }]);
    await openEditor();
    expect(await screen.findByRole('alert')).toHaveTextContent('Not saved: You can view this map but not change it.');
    expect(onCanvas().getByRole('button', { name: 'Cafe' })).toBeInTheDocument();
    await waitFor(async () => expect(await pendingEditsStore('u1', 'm1').load()).toEqual([]));
  });

  it('are forgotten when the map is no longer the user’s to change', async () => {
    await pendingEditsStore('u1', 'm1').save([{ type: 'LocationRemoved', id: 'cafe' }]);
    await pendingEditsStore('u1', 'm2').save([{ type: 'LocationRemoved', id: 'cafe' }]);
    const forbidden = { status: 403, body: { error: { status: 'PERMISSION_DENIED', message: 'You do not have access to this map.' } } };
    const missing = { status: 404, body: { error: { status: 'NOT_FOUND', message: 'No such map.' } } };
    const fake = stubFetch({ ...authRoutes(principal({ uid: 'u1' })), 'GET /api/maps/m1/data': () => forbidden, 'GET /api/public/maps/m1': () => missing });
    renderApp('/maps/m1');
    await screen.findByRole('heading', { name: 'Map not found' });
    await waitFor(async () => expect(await pendingEditsStore('u1', 'm1').load()).toEqual([]));
    expect(await pendingEditsStore('u1', 'm2').load()).toHaveLength(1);
    expect(editRequests(fake.requests)).toEqual([]);
  });

  it('another user of the browser never sees them', async () => {
    await pendingEditsStore('u1', 'm1').save([{ type: 'LocationRemoved', id: 'cafe' }]);
    const net = server(principal({ uid: 'u2', email: 'ben@example.com', displayName: 'Ben' }));
    await openEditor();
    expect(onCanvas().getByRole('button', { name: 'Cafe' })).toBeInTheDocument();
    expect(screen.getByText('All changes saved')).toBeInTheDocument();
    expect(editRequests(net.requests)).toEqual([]);
    expect(await pendingEditsStore('u1', 'm1').load()).toHaveLength(1);
  });

  it('signing out forgets the signed-out user’s kept edits, and only theirs', async () => {
    const user = userEvent.setup();
    await pendingEditsStore('u1', 'm1').save([{ type: 'LocationRemoved', id: 'cafe' }]);
    await pendingEditsStore('u1', 'm2').save([{ type: 'LocationRemoved', id: 'bar' }]);
    await pendingEditsStore('u2', 'm1').save([{ type: 'LocationRemoved', id: 'cafe' }]);
    stubFetch(authRoutes(principal({ uid: 'u1' })));
    renderApp('/maps');
    await user.click(await screen.findByRole('button', { name: 'Log out' }));
    await waitFor(async () => expect(await pendingEditsStore('u1', 'm1').load()).toEqual([]));
    expect(await pendingEditsStore('u1', 'm2').load()).toEqual([]);
    expect(await pendingEditsStore('u2', 'm1').load()).toHaveLength(1);
  });
});

describe('the pending edits store', () => {
  it('keeps edits per user and map, and saving none forgets them', async () => {
    const edits: MapEdit[] = [{ type: 'LocationMoved', id: 'cafe', position: { x: 1, y: 2 } }];
    await pendingEditsStore('u1', 'm1').save(edits);
    expect(await pendingEditsStore('u1', 'm1').load()).toEqual(edits);
    expect(await pendingEditsStore('u2', 'm1').load()).toEqual([]);
    expect(await pendingEditsStore('u1', 'm2').load()).toEqual([]);
    await pendingEditsStore('u1', 'm1').save([]);
    expect(await pendingEditsStore('u1', 'm1').load()).toEqual([]);
    await forgetPendingEdits('nobody');
  });

  it('drops a kept record that is not edits this app understands', async () => {
    await pendingEditsStore('u1', 'm1').save([]);
    const db = await openDB('mapfold-offline', 1);
    await db.put('pending-edits', { uid: 'u1', mapId: 'm1', edits: [{ type: 'MapDeletedEverything' }], savedAt: 0 });
    db.close();
    expect(await pendingEditsStore('u1', 'm1').load()).toEqual([]);
  });
});
