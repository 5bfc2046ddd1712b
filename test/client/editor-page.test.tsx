import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { preloadViewerParts } from '../../client/src/features/viewer/viewer';
import { emptyMapDocument, Location, type MapDocument } from '../../events/map-document';
import { topics } from '../../events/topics';
import { authRoutes, principal, renderApp, stubFetch, type FakeRequest } from './support/fakes';

afterEach(() => vi.unstubAllGlobals());

const owner = principal({ uid: 'u1' });
const cafe = Location.parse({ id: 'cafe', title: 'Cafe', layer: 'ground', position: { x: 100, y: 100 } });
const document: MapDocument = { ...emptyMapDocument(), locations: [cafe] };
const record = (data: MapDocument, revision: string, title = 'Harbour Market') => ({ id: 'm1', title, data, revision });
const forbidden = { status: 403, body: { error: { status: 'PERMISSION_DENIED', message: 'You do not have access to this map.' } } };

/** The canvas's own button for a location (the panel's list has one too). */
const onCanvas = () => within(screen.getByRole('list', { name: /^Locations on/ }));
const tools = () => within(screen.getByRole('toolbar', { name: 'Tools' }));

function editRequests(requests: FakeRequest[]) {
  return requests.filter((request) => request.path === '/api/fn/editMap').map((request) => request.data as { id: string; edits: Array<{ type: string }> });
}

async function openEditor(routes: Parameters<typeof stubFetch>[0] = {}, signedIn = owner) {
  let revision = 1;
  const fake = stubFetch({
    ...authRoutes(signedIn),
    'GET /api/maps/m1/data': () => ({ body: { result: record(document, '1'), position: '3:0' } }),
    'GET /api/public/maps/m1': () => ({ body: { result: { ...record(document, '1'), state: 0, test: true } } }),
    'POST /api/fn/editMap': (request) => {
      revision += (request.data as { edits: unknown[] }).edits.length;
      return { body: { result: { revision: String(revision) }, position: `${revision + 3}:0` } };
    },
    ...routes,
  });
  const view = renderApp('/maps/m1');
  await screen.findByRole('region', { name: /Map editor/ }, { timeout: 5_000 });
  return { ...view, requests: fake.requests };
}


// The preview's directory loads after the viewer's code (lib/lazy-part.ts): loaded up front here.
beforeAll(() => preloadViewerParts());

describe('the map editor', () => {
  it("opens the owner's map with its title and locations, saved", async () => {
    await openEditor();
    expect(screen.getByRole('textbox', { name: 'Map title' })).toHaveValue('Harbour Market');
    expect(onCanvas().getByRole('button', { name: 'Cafe' })).toBeInTheDocument();
    expect(screen.getByText('All changes saved')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Locations' })).toHaveAttribute('aria-selected', 'true');
  });

  it("shows a collaborator's edit as it arrives, without reloading", async () => {
    const { live } = await openEditor();
    await waitFor(() => expect(live.listeners.get(topics.map('m1'))?.size).toBe(1));
    const bakery = Location.parse({ id: 'bakery', title: 'Bakery', layer: 'ground', position: { x: 300, y: 200 } });
    act(() => live.emit(topics.map('m1'), record({ ...document, locations: [cafe, bakery] }, '2', 'Harbour Market East'), '5:0'));
    expect(await onCanvas().findByRole('button', { name: 'Bakery' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Map title' })).toHaveValue('Harbour Market East');
  });

  it('places a location with the keyboard, saves it as it is made, and undoes it', async () => {
    const user = userEvent.setup();
    const { requests, live } = await openEditor();
    await user.click(tools().getByRole('button', { name: /Add location/ }));
    expect(screen.getByText(/Click the map to place the location/)).toBeInTheDocument();
    screen.getByRole('region', { name: /Map editor/ }).querySelector<HTMLElement>('.mf-viewport')!.focus();
    await user.keyboard('{Enter}');
    expect(await onCanvas().findByRole('button', { name: 'New location' })).toBeInTheDocument();
    await waitFor(() => expect(editRequests(requests)).toHaveLength(1));
    const [added] = editRequests(requests);
    expect(added).toMatchObject({ id: 'm1', edits: [{ type: 'LocationAdded', location: { title: 'New location', layer: 'ground' } }] });

    // Saved once the snapshot of the answered revision arrives.
    const location = (added!.edits[0] as unknown as { location: Location }).location;
    act(() => live.emit(topics.map('m1'), record({ ...document, locations: [cafe, location] }, '2'), '5:0'));
    expect(await screen.findByText('All changes saved')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(onCanvas().queryByRole('button', { name: 'New location' })).not.toBeInTheDocument();
    await waitFor(() => expect(editRequests(requests)).toHaveLength(2));
    expect(editRequests(requests)[1]).toEqual({ id: 'm1', edits: [{ type: 'LocationRemoved', id: location.id }] });
    expect(screen.getByRole('button', { name: 'Redo' })).toBeEnabled();
  });

  it('moves a location with Shift and the arrow keys, as one undo step', async () => {
    const user = userEvent.setup();
    const { requests } = await openEditor();
    onCanvas().getByRole('button', { name: 'Cafe' }).focus();
    await user.keyboard('{Shift>}{ArrowRight}{ArrowRight}{ArrowDown}{/Shift}');
    await waitFor(() => expect(editRequests(requests)).toHaveLength(1));
    const moves = editRequests(requests)[0]!.edits as unknown as Array<{ type: string; position: { x: number; y: number } }>;
    expect(moves.map((edit) => edit.type)).toEqual(['LocationMoved', 'LocationMoved', 'LocationMoved']);
    const last = moves.at(-1)!.position;
    expect(last.x).toBeGreaterThan(100);
    expect(last.y).toBeGreaterThan(100);
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(editRequests(requests)).toHaveLength(2));
    // Back where it was: the undo's last move is to the first position.
    expect(editRequests(requests)[1]!.edits.at(-1)).toEqual({ type: 'LocationMoved', id: 'cafe', position: { x: 100, y: 100 }, layer: 'ground' });
  });

  it('takes back an edit the server refuses and says why', async () => {
    const user = userEvent.setup();
    await openEditor({ 'POST /api/fn/editMap': () => forbidden });
    screen.getByRole('region', { name: /Map editor/ }).querySelector<HTMLElement>('.mf-viewport')!.focus();
    await user.keyboard('a{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('Not saved: You do not have access to this map.');
    expect(onCanvas().queryByRole('button', { name: 'New location' })).not.toBeInTheDocument();
  });

  it("opens someone else's map for exploring: edits stay in the tab, and signing up is offered", async () => {
    const user = userEvent.setup();
    const { requests } = await openEditor({ 'GET /api/maps/m1/data': () => forbidden }, null as never);
    expect(screen.getByText(/You are exploring Harbour Market/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign up to save your own maps' })).toHaveAttribute('href', '/register');
    expect(screen.getByText('Changes stay in this tab')).toBeInTheDocument();
    screen.getByRole('region', { name: /Map editor/ }).querySelector<HTMLElement>('.mf-viewport')!.focus();
    await user.keyboard('a{Enter}');
    expect(await onCanvas().findByRole('button', { name: 'New location' })).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(editRequests(requests)).toHaveLength(0);
  });

  it('previews the map as visitors see it, with the changes not saved yet', async () => {
    const user = userEvent.setup();
    await openEditor({ 'POST /api/fn/editMap': () => new Promise(() => {}) });
    screen.getByRole('region', { name: /Map editor/ }).querySelector<HTMLElement>('.mf-viewport')!.focus();
    await user.keyboard('a{Enter}');
    expect(await onCanvas().findByRole('button', { name: 'New location' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Preview' }));
    // The public viewer itself (the app hands it to the editor, loaded when first asked for),
    // showing the tab's document.
    expect(await screen.findByText(/this is how visitors see the map/, undefined, { timeout: 5_000 })).toBeInTheDocument();
    const viewer = within(screen.getByRole('region', { name: /^Map: Harbour Market/ }).closest<HTMLElement>('.mfv')!);
    expect(viewer.getByRole('heading', { level: 1, name: 'Harbour Market' })).toBeInTheDocument();
    expect(within(viewer.getByRole('list', { name: 'Locations' })).getByRole('button', { name: /New location/ })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: /Map editor/ })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Back to editing' }));
    expect(await screen.findByRole('region', { name: /Map editor/ })).toBeInTheDocument();
  });

  it('previews the viewer in the map’s language when it sets one, right to left in Arabic', async () => {
    const user = userEvent.setup();
    const arabic: MapDocument = { ...document, settings: { ...document.settings, language: 'ar' } };
    await openEditor({ 'GET /api/maps/m1/data': () => ({ body: { result: record(arabic, '1'), position: '3:0' } }) });
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    // The viewer's own words in Arabic (its zoom button), the map's title as written.
    const zoomIn = await screen.findByRole('button', { name: 'تكبير' }, { timeout: 5_000 });
    const language = zoomIn.closest<HTMLElement>('.ed-preview__language')!;
    expect(language).toHaveAttribute('lang', 'ar');
    expect(language).toHaveAttribute('dir', 'rtl');
    expect(within(language).getByRole('heading', { level: 1, name: 'Harbour Market' })).toBeInTheDocument();
    // The editor around it stays English.
    expect(screen.getByRole('button', { name: 'Back to editing' })).toBeInTheDocument();
  });

  it('previews an automatic map in English, left to right', async () => {
    const user = userEvent.setup();
    await openEditor();
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    const zoomIn = await screen.findByRole('button', { name: 'Zoom in' }, { timeout: 5_000 });
    const language = zoomIn.closest<HTMLElement>('.ed-preview__language')!;
    expect(language).toHaveAttribute('lang', 'en');
    expect(language).toHaveAttribute('dir', 'ltr');
  });

  it('renames the map in place', async () => {
    const user = userEvent.setup();
    const { requests } = await openEditor({ 'POST /api/fn/saveMap': () => ({ body: { result: null, position: '9:0' } }) });
    const title = screen.getByRole('textbox', { name: 'Map title' });
    await user.clear(title);
    await user.type(title, 'Harbour Market West{Enter}');
    await waitFor(() => expect(requests.find((request) => request.path === '/api/fn/saveMap')?.data).toEqual({ id: 'm1', title: 'Harbour Market West' }));
  });
});
