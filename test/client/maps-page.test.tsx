import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAP_TITLE_MAX, MapTitle } from '../../events/map-title';
import type { MapListItem } from '../../events/read-models';
import { topics } from '../../events/topics';
import { copyTitle } from '../../client/src/features/maps/api/maps-api';
import { authRoutes, principal, renderApp, stubFetch, type FakeRequest } from './support/fakes';
import { FakeXhr } from './support/fake-xhr';
import type { ImportPreview } from '../../events/map-import';

afterEach(() => vi.unstubAllGlobals());

const user = principal({ uid: 'u1' });
const topic = topics.maps('u1');

function item(overrides: Partial<MapListItem> & Pick<MapListItem, 'id' | 'title'>): MapListItem {
  return {
    uid: 'u1',
    author: 'u1',
    created: '2026-03-02T10:00:00.000Z',
    edited: '2026-03-05T16:30:00.000Z',
    state: 0,
    subscribed: false,
    metrics: { layerCount: 0, locationCount: 0 },
    history: [],
    ...overrides,
  };
}

async function openMaps(routes = {}) {
  // The session's own first load of the list never answers here: the page waits for the live topic.
  const fake = stubFetch({ ...authRoutes(user), 'GET /api/maps': () => new Promise<never>(() => {}), ...routes });
  const view = renderApp('/maps');
  await screen.findByRole('heading', { level: 1, name: 'Your maps' });
  // Two followers: the session's maps (kept fresh for the whole app) and the dashboard.
  await waitFor(() => expect(view.live.listeners.get(topic)?.size).toBe(2));
  return { ...view, requests: fake.requests };
}

describe('the maps page', () => {
  it('follows maps:{uid} over the live client and waits for the first snapshot', async () => {
    const { live } = await openMaps();
    expect(live.connects).toBeGreaterThan(0);
    expect(screen.getByRole('status', { name: 'Loading your maps' })).toBeInTheDocument();

    live.emit(topic, [], '5:1');

    expect(await screen.findByRole('heading', { name: 'No maps yet' })).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Loading your maps' })).not.toBeInTheDocument();
  });

  it('shows a card per map with title, state label, counts and dates', async () => {
    const { live } = await openMaps();
    live.emit(
      topic,
      [
        item({ id: 'a', title: 'Riverside Mall', state: 0, metrics: { layerCount: 1, locationCount: 14 } }),
        item({ id: 'b', title: 'Head office', state: 1, metrics: { layerCount: 3, locationCount: 1 } }),
        item({ id: 'c', title: 'Showroom', state: 2 }),
        item({ id: 'd', title: 'Campus', state: 3 }),
        item({ id: 'e', title: 'Internal', state: 9 }),
      ],
      '9:0',
    );

    const list = await screen.findByRole('list', { name: 'Your maps' });
    const cards = within(list).getAllByRole('article');
    expect(cards.map((card) => within(card).getByRole('heading').textContent)).toEqual(['Riverside Mall', 'Head office', 'Showroom', 'Campus', 'Internal']);
    expect(cards.map((card) => card.querySelector('.state-badge')?.textContent)).toEqual(['Test', 'Live', 'Demo', 'Pro', 'Admin']);
    const first = cards[0]!;
    expect(first).toHaveTextContent('1 layer · 14 locations');
    expect(cards[1]).toHaveTextContent('3 layers · 1 location');
    expect(within(first).getByText('Created')).toBeInTheDocument();
    expect(within(first).getByText('Edited')).toBeInTheDocument();
    expect(first.querySelector('time[datetime="2026-03-02T10:00:00.000Z"]')).not.toBeNull();
    expect(first.querySelector('time[datetime="2026-03-05T16:30:00.000Z"]')).not.toBeNull();
    expect(within(first).getByRole('link', { name: 'Riverside Mall' })).toHaveAttribute('href', '/maps/a');
    expect(screen.getByText(/Free test maps/)).toHaveTextContent('1/2');
  });

  it('creates a map, keeps the form busy until the live list reaches the returned position, then clears it', async () => {
    const { live, requests } = await openMaps({
      'POST /api/fn/createMap': () => ({ body: { result: 'new-map', position: '12:4' } }),
    });
    live.emit(topic, [], '10:0');
    await screen.findByRole('heading', { name: 'No maps yet' });

    const input = screen.getByLabelText('New map');
    await userEvent.type(input, '  Riverside Mall  ');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));

    await waitFor(() => expect(requests.some((r) => r.path === '/api/fn/createMap')).toBe(true));
    expect(requests.find((r) => r.path === '/api/fn/createMap')!.data).toEqual({ title: 'Riverside Mall' });
    // Answered, but the list has not caught up: still busy, title kept.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByRole('button', { name: 'Create' })).toBeDisabled();
    expect(input).toHaveValue('  Riverside Mall  ');

    live.emit(topic, [], '11:0');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.getByRole('button', { name: 'Create' })).toBeDisabled();

    live.emit(topic, [item({ id: 'new-map', title: 'Riverside Mall' })], '12:4');

    await waitFor(() => expect(input).toHaveValue(''));
    expect(screen.getByRole('button', { name: 'Create' })).toBeEnabled();
    expect(screen.getByRole('link', { name: 'Riverside Mall' })).toBeInTheDocument();
  });

  it("shows the server's error, e.g. no free test slot", async () => {
    const message = 'No free test slot: you already have 2 test maps. Subscribe or delete a test map first.';
    const { live } = await openMaps({
      'POST /api/fn/createMap': () => ({ status: 429, body: { error: { status: 'RESOURCE_EXHAUSTED', message } } }),
    });
    live.emit(topic, [item({ id: 'a', title: 'One' }), item({ id: 'b', title: 'Two' })], '3:0');

    expect(await screen.findByText(/Both free test maps are in use/)).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('New map'), 'Third');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByLabelText('New map')).toHaveValue('Third');
    expect(screen.getByRole('button', { name: 'Create' })).toBeEnabled();
  });

  it('checks the title before calling the server', async () => {
    const { live, requests } = await openMaps();
    live.emit(topic, [], '1:0');
    await userEvent.click(await screen.findByRole('button', { name: 'Create' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Title is required.');
    expect(requests.some((r) => r.path === '/api/fn/createMap')).toBe(false);
  });

  it('deletes a map after confirming in an accessible dialog', async () => {
    const { live, requests } = await openMaps({
      'POST /api/fn/deleteMap': () => ({ body: { result: null, position: '20:0' } }),
    });
    live.emit(topic, [item({ id: 'a', title: 'Riverside Mall' }), item({ id: 'b', title: 'Head office' })], '19:0');

    const trigger = await screen.findByRole('button', { name: 'Delete Riverside Mall' });
    await userEvent.click(trigger);

    const dialog = screen.getByRole('dialog', { name: 'Delete “Riverside Mall”?' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    // Focus stays inside.
    await userEvent.tab();
    expect(within(dialog).getByRole('button', { name: 'Delete map' })).toHaveFocus();
    await userEvent.tab();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete map' }));
    await waitFor(() => expect(requests.find((r) => r.path === '/api/fn/deleteMap')?.data).toEqual({ id: 'a' }));
    expect(screen.getByRole('dialog')).toBeInTheDocument();

    live.emit(topic, [item({ id: 'b', title: 'Head office' })], '20:0');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByRole('link', { name: 'Riverside Mall' })).not.toBeInTheDocument();
  });

  it("copies a map under the title prefixed '[D] ' and shows it once the list has it", async () => {
    const mapData = { version: 1, layers: [{ id: 'ground', name: 'Ground' }], locations: [{ id: 'cafe', title: 'Cafe', layer: 'ground' }] };
    const { live, requests } = await openMaps({
      'GET /api/maps/a/data': () => ({ body: { result: { id: 'a', title: 'Riverside Mall', data: mapData, revision: '3' }, position: '19:0' } }),
      'POST /api/fn/createMap': () => ({ body: { result: 'copy-1', position: '21:0' } }),
    });
    live.emit(topic, [item({ id: 'a', title: 'Riverside Mall' })], '19:0');

    const copy = await screen.findByRole('button', { name: 'Copy Riverside Mall' });
    await userEvent.click(copy);
    await waitFor(() => expect(requests.find((r) => r.path === '/api/fn/createMap')).toBeDefined());
    const created = requests.find((r) => r.path === '/api/fn/createMap')!.data as { title: string; mapData: { locations: Array<{ title: string }> } };
    expect(created.title).toBe('[D] Riverside Mall');
    expect(created.mapData.locations.map((location) => location.title)).toEqual(['Cafe']);
    // Busy until the live list holds the copy.
    expect(copy).toHaveAttribute('aria-busy', 'true');
    live.emit(topic, [item({ id: 'copy-1', title: '[D] Riverside Mall' }), item({ id: 'a', title: 'Riverside Mall' })], '21:0');
    expect(await screen.findByRole('link', { name: '[D] Riverside Mall' })).toHaveAttribute('href', '/maps/copy-1');
    await waitFor(() => expect(copy).not.toHaveAttribute('aria-busy', 'true'));
  });

  it('says why a copy could not be made', async () => {
    const { live } = await openMaps({
      'GET /api/maps/a/data': () => ({ body: { result: { id: 'a', title: 'Riverside Mall', data: { version: 1, layers: [], locations: [] }, revision: '0' }, position: '1:0' } }),
      'POST /api/fn/createMap': () => ({ status: 429, body: { error: { status: 'RESOURCE_EXHAUSTED', message: 'No free test slot: you already have 2 test maps.' } } }),
    });
    live.emit(topic, [item({ id: 'a', title: 'Riverside Mall' })], '2:0');
    await userEvent.click(await screen.findByRole('button', { name: 'Copy Riverside Mall' }));
    expect(await screen.findByText('“Riverside Mall” could not be copied: No free test slot: you already have 2 test maps.')).toBeInTheDocument();
  });

  it('keeps the title of a copy within the title limit, without cutting a character in half', async () => {
    // A valid title (119 UTF-16 units: the map emoji takes two) whose copy is too long.
    const long = `${'a'.repeat(MAP_TITLE_MAX - 5)}🗺xy`;
    expect(MapTitle.parse(long)).toBe(long);
    const { live, requests } = await openMaps({
      'GET /api/maps/a/data': () => ({ body: { result: { id: 'a', title: long, data: { version: 1, layers: [], locations: [] }, revision: '0' }, position: '1:0' } }),
      'POST /api/fn/createMap': () => ({ body: { result: 'copy-1', position: '3:0' } }),
    });
    live.emit(topic, [item({ id: 'a', title: long })], '2:0');
    await userEvent.click(await screen.findByRole('button', { name: `Copy ${long}` }));
    await waitFor(() => expect(requests.find((r) => r.path === '/api/fn/createMap')).toBeDefined());
    const { title } = requests.find((r) => r.path === '/api/fn/createMap')!.data as { title: string };
    // '[D] ' + 115 letters is 119 units; the emoji's two would make 121, so it is left out.
    expect(title).toBe(`[D] ${'a'.repeat(MAP_TITLE_MAX - 5)}`);
    expect(MapTitle.parse(title)).toBe(title);
    expect(copyTitle('  Riverside Mall ')).toBe('[D] Riverside Mall');
    expect(copyTitle(`${'b'.repeat(MAP_TITLE_MAX)}`)).toHaveLength(MAP_TITLE_MAX);
  });

  it('copies two maps at once, each card busy until its own copy is done', async () => {
    const answers = new Map<string, (value: { body: unknown }) => void>();
    const { live, requests } = await openMaps({
      'GET /api/maps/a/data': () => ({ body: { result: { id: 'a', title: 'One', data: { version: 1, layers: [], locations: [] }, revision: '0' }, position: '1:0' } }),
      'GET /api/maps/b/data': () => ({ body: { result: { id: 'b', title: 'Two', data: { version: 1, layers: [], locations: [] }, revision: '0' }, position: '1:0' } }),
      'POST /api/fn/createMap': (request: FakeRequest) => new Promise((resolve) => answers.set((request.data as { title: string }).title, resolve)),
    });
    live.emit(topic, [item({ id: 'a', title: 'One' }), item({ id: 'b', title: 'Two' })], '2:0');
    const one = await screen.findByRole('button', { name: 'Copy One' });
    const two = screen.getByRole('button', { name: 'Copy Two' });
    await userEvent.click(one);
    await userEvent.click(two);
    await waitFor(() => expect(answers.size).toBe(2));
    expect(requests.filter((r) => r.path === '/api/fn/createMap').map((r) => (r.data as { title: string }).title)).toEqual(['[D] One', '[D] Two']);
    expect(one).toHaveAttribute('aria-busy', 'true');
    expect(two).toHaveAttribute('aria-busy', 'true');

    answers.get('[D] One')!({ body: { result: 'copy-1', position: '3:0' } });
    live.emit(topic, [item({ id: 'copy-1', title: '[D] One' }), item({ id: 'a', title: 'One' }), item({ id: 'b', title: 'Two' })], '3:0');
    await waitFor(() => expect(one).not.toHaveAttribute('aria-busy'));
    expect(two).toHaveAttribute('aria-busy', 'true');
    answers.get('[D] Two')!({ body: { result: 'copy-2', position: '4:0' } });
    live.emit(topic, [item({ id: 'copy-2', title: '[D] Two' }), item({ id: 'copy-1', title: '[D] One' }), item({ id: 'a', title: 'One' }), item({ id: 'b', title: 'Two' })], '4:0');
    await waitFor(() => expect(two).not.toHaveAttribute('aria-busy'));
  });

  it('links each map to its published viewer, in a new tab', async () => {
    const { live } = await openMaps();
    live.emit(topic, [item({ id: 'a', title: 'Riverside Mall' })], '2:0');
    const view = await screen.findByRole('link', { name: 'View Riverside Mall (opens in a new tab)' });
    expect(view).toHaveAttribute('href', '/m/a');
    expect(view).toHaveAttribute('target', '_blank');
    expect(screen.getByRole('link', { name: 'Open Riverside Mall' })).toHaveAttribute('href', '/maps/a');
  });

  it('cancels the dialog with Escape and returns focus to the button that opened it', async () => {
    const { live, requests } = await openMaps();
    live.emit(topic, [item({ id: 'a', title: 'Riverside Mall' })], '2:0');

    const trigger = await screen.findByRole('button', { name: 'Delete Riverside Mall' });
    await userEvent.click(trigger);
    expect(screen.getByRole('dialog')).toBeInTheDocument();

    await userEvent.keyboard('{Escape}');

    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(trigger).toHaveFocus();
    expect(requests.some((r) => r.path === '/api/fn/deleteMap')).toBe(false);
  });

  it('shows a delete failure inside the dialog', async () => {
    const { live } = await openMaps({
      'POST /api/fn/deleteMap': () => ({ status: 403, body: { error: { status: 'PERMISSION_DENIED', message: 'You do not have permission to change this map.' } } }),
    });
    live.emit(topic, [item({ id: 'a', title: 'Riverside Mall' })], '2:0');
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Riverside Mall' }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete map' }));

    expect(await within(screen.getByRole('dialog')).findByRole('alert')).toHaveTextContent('You do not have permission to change this map.');
  });

  it("shows 'Reconnecting…' while the socket is down", async () => {
    const { live } = await openMaps();
    live.emit(topic, [], '1:0');
    await screen.findByRole('heading', { name: 'No maps yet' });
    expect(screen.queryByText('Reconnecting…')).not.toBeInTheDocument();

    live.setState('connecting');
    expect(await screen.findByText('Reconnecting…')).toBeInTheDocument();

    live.setState('open');
    await waitFor(() => expect(screen.queryByText('Reconnecting…')).not.toBeInTheDocument());
  });
});

describe('/maps/new', () => {
  it('creates the map and opens it', async () => {
    stubFetch({
      ...authRoutes(user),
      'POST /api/fn/createMap': () => ({ body: { result: 'fresh', position: '3:0' } }),
      'GET /api/maps/fresh/data': () => ({ body: { result: { id: 'fresh', title: 'Campus', data: { version: 1, layers: [], locations: [] }, revision: '0' }, position: '3:0' } }),
    });
    const { router } = renderApp('/maps/new');

    await userEvent.type(await screen.findByLabelText('Title'), 'Campus');
    await userEvent.click(screen.getByRole('button', { name: 'Create map' }));

    // The new map opens in the editor.
    expect(await screen.findByRole('textbox', { name: 'Map title' })).toHaveValue('Campus');
    expect(router.state.location.pathname).toBe('/maps/fresh');
    expect(screen.getByText('All changes saved')).toBeInTheDocument();
  });

  it('offers a street map: one floor on the basemap, made when Create is pressed', async () => {
    const { requests } = stubFetch({
      ...authRoutes(user),
      'POST /api/fn/createMap': () => ({ body: { result: 'fresh', position: '3:0' } }),
      'GET /api/maps/fresh/data': () => ({ body: { result: { id: 'fresh', title: 'Our stores', data: { version: 1, layers: [], locations: [] }, revision: '0' }, position: '3:0' } }),
    });
    const { router } = renderApp('/maps/new');
    const street = await screen.findByRole('radio', { name: /Street map/ });
    expect(street).toHaveAccessibleDescription('Your places on a map of real streets and towns.');
    await userEvent.click(street);
    expect(screen.getByText(/One floor on a map of streets and towns, opening on/)).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Title'), 'Our stores');
    await userEvent.click(screen.getByRole('button', { name: 'Create map' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/maps/fresh'));
    const create = requests.find((request) => request.path === '/api/fn/createMap')!;
    const { title, mapData } = create.data as { title: string; mapData: { layers: Array<Record<string, unknown>> } };
    expect(title).toBe('Our stores');
    expect(mapData.layers).toEqual([{ id: 'map', name: 'Map', file: null, basemap: true, geo: expect.objectContaining({ kind: 'bounds', projection: 'mercator' }) }]);
  });

  it('imports a file: a blank map first, then the same preview against it, then the editor', async () => {
    FakeXhr.sent = [];
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const { requests } = stubFetch({
      ...authRoutes(user),
      'POST /api/fn/createMap': () => ({ body: { result: 'fresh', position: '3:0' } }),
      'GET /api/maps/fresh/data': () => ({ body: { result: { id: 'fresh', title: 'Harbour stores', data: { version: 1, layers: [], locations: [] }, revision: '2' }, position: '3:0' } }),
    });
    const { router } = renderApp('/maps/new');
    await userEvent.click(await screen.findByRole('radio', { name: /Import a file/ }));
    const csv = new File(['Name,Latitude,Longitude\r\nHarbour Books,51.5,-0.12'], 'harbour-stores.csv', { type: 'text/csv' });
    await userEvent.upload(screen.getByLabelText('Choose files'), csv);
    // The title takes the file's name, as an upload's does.
    expect(screen.getByLabelText('Title')).toHaveValue('Harbour stores');
    expect(screen.getByRole('list', { name: 'Files to import' })).toHaveTextContent('harbour-stores.csv');
    await userEvent.click(screen.getByRole('button', { name: 'Create map' }));

    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    const create = requests.find((request) => request.path === '/api/fn/createMap')!;
    expect(create.data).toEqual({ title: 'Harbour stores' });
    // The import's progress token (geocoding) is new each time.
    expect(FakeXhr.sent[0]!.url.replace(/&progress=[\w-]+$/, '')).toBe('/api/maps/fresh/import?filename=harbour-stores.csv');
    const preview: ImportPreview = {
      format: 'csv',
      counts: { layers: 1, locations: 1, groups: 0, regionsLinked: 0, updated: 0, skipped: 0 },
      columns: { used: ['Name', 'Latitude', 'Longitude'], ignored: [] },
      mapping: { title: 'Name', lat: 'Latitude', lng: 'Longitude' },
      availableColumns: ['Name', 'Latitude', 'Longitude'],
      problems: [],
      problemCount: 0,
      sample: [],
      floors: [{ id: 'map', name: 'Map', new: true, locations: 1, updated: 0 }],
      removedFloor: 'Ground floor',
      regions: [],
      replaces: false,
      revision: null,
    };
    FakeXhr.sent[0]!.respond(200, { result: preview });
    const shown = await screen.findByRole('region', { name: 'harbour-stores.csv' });
    expect(screen.getByRole('heading', { name: 'Import into “Harbour stores”' })).toBeInTheDocument();
    await userEvent.click(within(shown).getByRole('button', { name: 'Import 1 location' }));
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(2));
    expect(FakeXhr.sent[1]!.url).toContain('apply=1');
    FakeXhr.sent[1]!.respond(200, { result: { ...preview, revision: '2' } });

    expect(await screen.findByRole('textbox', { name: 'Map title' })).toHaveValue('Harbour stores');
    expect(router.state.location.pathname).toBe('/maps/fresh');
  });
});

describe('/maps/:id', () => {
  it('says when the map does not exist', async () => {
    stubFetch({
      ...authRoutes(user),
      'GET /api/maps/gone/data': () => ({ status: 404, body: { error: { status: 'NOT_FOUND', message: 'Map not found.' } } }),
    });
    renderApp('/maps/gone');
    expect(await screen.findByRole('heading', { level: 1, name: 'Map not found' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('This map does not exist, or it is not shared with you.');
  });
});
