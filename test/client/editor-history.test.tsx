import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emptyMapDocument, Location, type MapDocument } from '../../events/map-document';
import type { HistoryEntry } from '../../events/read-models';
import { topics } from '../../events/topics';
import { historyEditsReducer, initialHistoryEdits, visibleEntries } from '../../client/src/features/editor/panels/history-edits';
import { authRoutes, principal, renderApp, stubFetch, type FakeAnswer, type FakeRequest } from './support/fakes';

afterEach(() => vi.unstubAllGlobals());

const owner = principal({ uid: 'u1' });
const cafe = Location.parse({ id: 'cafe', title: 'Cafe', layer: 'ground', position: { x: 100, y: 100 } });
const document: MapDocument = { ...emptyMapDocument(), locations: [cafe] };

const entry = (id: string, revision: string, name?: string, created = '2025-03-01T10:00:00.000Z'): HistoryEntry => ({
  id,
  mapId: 'm1',
  revision,
  created,
  author: 'u1',
  ...(name !== undefined ? { name } : {}),
});
const history: HistoryEntry[] = [
  entry('h1', '2', 'Opening day', '2025-03-01T10:00:00.000Z'),
  entry('h2', '5', 'Before restoring “Opening day”', '2025-03-02T10:00:00.000Z'),
  entry('h3', '7', 'Spring update', '2025-03-03T10:00:00.000Z'),
];
const record = (entries: HistoryEntry[], revision = '9', data: MapDocument = document) => ({ id: 'm1', title: 'Harbour Market', data, revision, history: entries });
const refused = { status: 503, body: { error: { status: 'UNAVAILABLE', message: 'The service is unavailable right now.' } } };

type Route = (request: FakeRequest) => FakeAnswer | Promise<FakeAnswer>;

/** A route whose answer the test gives when it likes. */
function held() {
  let release: (answer: FakeAnswer) => void = () => {};
  const route: Route = () => new Promise<FakeAnswer>((resolve) => (release = resolve));
  return { route, answer: (answer: FakeAnswer) => release(answer) };
}

async function openHistory(routes: Record<string, Route> = {}) {
  const fake = stubFetch({
    ...authRoutes(owner),
    'GET /api/maps/m1/data': () => ({ body: { result: record(history), position: '3:0' } }),
    'GET /api/public/maps/m1': () => ({ body: { result: { ...record(history), state: 0, test: true } } }),
    ...routes,
  });
  const view = renderApp('/maps/m1');
  await screen.findByRole('region', { name: /Map editor/ }, { timeout: 5_000 });
  const user = userEvent.setup();
  await user.click(screen.getByRole('tab', { name: 'History' }));
  return { ...view, user, requests: fake.requests };
}

const versions = () => within(screen.getByRole('list', { name: 'Versions' }));
const calls = (requests: FakeRequest[], name: string) => requests.filter((request) => request.path === `/api/fn/${name}`).map((request) => request.data);

describe('the history panel', () => {
  it('lists the versions newest first, marks the automatic ones, and links the audit log', async () => {
    await openHistory();
    const names = versions()
      .getAllByRole('listitem')
      .map((item) => item.querySelector('.ep-hist-name > span')!.textContent);
    expect(names).toEqual(['Spring update', 'Before restoring “Opening day”', 'Opening day']);
    const automatic = versions().getAllByRole('listitem')[1]!;
    expect(within(automatic).getByText('Automatic')).toBeInTheDocument();
    expect(within(versions().getAllByRole('listitem')[0]!).queryByText('Automatic')).not.toBeInTheDocument();
    const time = versions().getAllByRole('listitem')[0]!.querySelector('time')!;
    expect(time).toHaveAttribute('dateTime', '2025-03-03T10:00:00.000Z');
    expect(time.getAttribute('title')).toMatch(/2025/);
    expect(screen.getByRole('link', { name: 'CSV' })).toHaveAttribute('href', '/api/maps/m1/audit.csv');
    expect(screen.getByRole('link', { name: 'JSON' })).toHaveAttribute('href', '/api/maps/m1/audit.json');
    expect(screen.getByRole('button', { name: 'Open the timeline' })).toBeInTheDocument();
  });

  it('saves a version with its name, busy until the server answers; the new entry arrives live', async () => {
    const save = held();
    const { user, requests, live } = await openHistory({ 'POST /api/fn/saveMapHistory': save.route });
    await user.type(screen.getByLabelText('Name (optional)'), '  Summer  ');
    await user.click(screen.getByRole('button', { name: 'Save version' }));
    await waitFor(() => expect(calls(requests, 'saveMapHistory')).toEqual([{ mapId: 'm1', name: 'Summer' }]));
    const busy = screen.getByRole('button', { name: 'Saving…' });
    expect(busy).toBeDisabled();
    expect(busy).toHaveAttribute('aria-busy', 'true');

    act(() => save.answer({ body: { result: { historyId: 'h4' }, position: '10:0' } }));
    expect(await screen.findByText('Saved “Summer”.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save version' })).toBeEnabled();
    expect(screen.getByLabelText('Name (optional)')).toHaveValue('');

    act(() => live.emit(topics.map('m1'), record([...history, entry('h4', '9', 'Summer', '2025-03-04T10:00:00.000Z')], '10'), '10:0'));
    expect(await versions().findByText('Summer')).toBeInTheDocument();
    expect(versions().getAllByRole('listitem')[0]).toHaveTextContent('Summer');
  });

  it('saves an unnamed version without a name', async () => {
    const { user, requests } = await openHistory({ 'POST /api/fn/saveMapHistory': () => ({ body: { result: { historyId: 'h4' } } }) });
    await user.click(screen.getByRole('button', { name: 'Save version' }));
    await waitFor(() => expect(calls(requests, 'saveMapHistory')).toEqual([{ mapId: 'm1' }]));
    expect(await screen.findByText('Version saved.')).toBeInTheDocument();
  });

  it('renames a version at once and takes the name back, saying why, when the call fails (spec §4)', async () => {
    const rename = held();
    const { user, requests } = await openHistory({ 'POST /api/fn/setMapHistoryName': rename.route });
    const row = versions().getAllByRole('listitem')[0]!;
    await user.click(within(row).getByRole('button', { name: 'Rename' }));
    const input = within(row).getByRole('textbox', { name: 'New name for “Spring update”' });
    await user.clear(input);
    await user.type(input, 'Spring 2025{Enter}');

    // Optimistic: the new name shows before the server answers.
    expect(versions().getByText('Spring 2025')).toBeInTheDocument();
    expect(versions().queryByText('Spring update')).not.toBeInTheDocument();
    await waitFor(() => expect(calls(requests, 'setMapHistoryName')).toEqual([{ mapId: 'm1', historyMapId: 'h3', name: 'Spring 2025' }]));

    act(() => rename.answer(refused));
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not rename “Spring update” to “Spring 2025”: The service is unavailable right now.');
    expect(versions().getByText('Spring update')).toBeInTheDocument();
    expect(versions().queryByText('Spring 2025')).not.toBeInTheDocument();
  });

  it('keeps a rename the server accepted until the live list shows it', async () => {
    const { user, live } = await openHistory({ 'POST /api/fn/setMapHistoryName': () => ({ body: { result: null, position: '10:0' } }) });
    const row = versions().getAllByRole('listitem')[2]!;
    await user.click(within(row).getByRole('button', { name: 'Rename' }));
    await user.clear(within(row).getByRole('textbox'));
    await user.type(within(row).getByRole('textbox'), 'Launch{Enter}');
    expect(versions().getByText('Launch')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(versions().getByText('Launch')).toBeInTheDocument();
    act(() => live.emit(topics.map('m1'), record([{ ...history[0]!, name: 'Launch' }, history[1]!, history[2]!], '10'), '10:0'));
    expect(versions().getByText('Launch')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('deletes a version after asking, at once, and puts it back when the call fails (spec §4)', async () => {
    const remove = held();
    const { user, requests } = await openHistory({ 'POST /api/fn/deleteMapHistory': remove.route });
    const row = versions().getAllByRole('listitem')[2]!;
    await user.click(within(row).getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete this version?' });
    expect(dialog).toHaveTextContent('“Opening day” leaves the history');
    await user.click(within(dialog).getByRole('button', { name: 'Delete version' }));

    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(versions().queryByText('Opening day')).not.toBeInTheDocument();
    expect(versions().getAllByRole('listitem')).toHaveLength(2);
    await waitFor(() => expect(calls(requests, 'deleteMapHistory')).toEqual([{ mapId: 'm1', historyMapId: 'h1' }]));

    act(() => remove.answer(refused));
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not delete “Opening day”: The service is unavailable right now.');
    expect(versions().getByText('Opening day')).toBeInTheDocument();
    expect(versions().getAllByRole('listitem')).toHaveLength(3);
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('cancelling the delete dialog deletes nothing', async () => {
    const { user, requests } = await openHistory();
    await user.click(within(versions().getAllByRole('listitem')[0]!).getByRole('button', { name: 'Delete' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(versions().getAllByRole('listitem')).toHaveLength(3);
    expect(calls(requests, 'deleteMapHistory')).toEqual([]);
  });

  it('restores a version after saying the current map is kept first', async () => {
    const restore = held();
    const { user, requests } = await openHistory({ 'POST /api/fn/restoreMapHistory': restore.route });
    await user.click(within(versions().getAllByRole('listitem')[2]!).getByRole('button', { name: 'Restore' }));
    const dialog = screen.getByRole('dialog', { name: 'Restore this version?' });
    expect(dialog).toHaveTextContent('The current map is kept as a version first');
    expect(calls(requests, 'restoreMapHistory')).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(calls(requests, 'restoreMapHistory')).toEqual([{ mapId: 'm1', historyMapId: 'h1' }]));
    expect(within(dialog).getByRole('button', { name: /Restore/ })).toBeDisabled();
    act(() => restore.answer({ body: { result: null, position: '11:0' } }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText(/Restored “Opening day”/)).toBeInTheDocument();
  });

  it('keeps the restore dialog open with the reason when the restore fails', async () => {
    const { user } = await openHistory({ 'POST /api/fn/restoreMapHistory': () => refused });
    await user.click(within(versions().getAllByRole('listitem')[0]!).getByRole('button', { name: 'Restore' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Restore' }));
    expect(await within(screen.getByRole('dialog')).findByText('The service is unavailable right now.')).toBeInTheDocument();
  });

  it("shows a note instead of the history when exploring someone else's map", async () => {
    const forbidden = { status: 403, body: { error: { status: 'PERMISSION_DENIED', message: 'You do not have access to this map.' } } };
    await openHistory({ 'GET /api/maps/m1/data': () => forbidden });
    expect(screen.getByText(/Versions and the timeline belong to the map's owner/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save version' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Open the timeline' })).not.toBeInTheDocument();
  });
});

describe('historyEditsReducer', () => {
  const start = initialHistoryEdits(history);

  it('lays a rename and a delete over the server list, and takes a failed one back with its reason', () => {
    let state = historyEditsReducer(start, { type: 'rename', op: 1, id: 'h1', name: 'Launch' });
    state = historyEditsReducer(state, { type: 'delete', op: 2, id: 'h2' });
    expect(visibleEntries(state).map((e) => e.name)).toEqual(['Launch', 'Spring update']);
    state = historyEditsReducer(state, { type: 'failed', op: 1, message: 'No.' });
    expect(visibleEntries(state).map((e) => e.name)).toEqual(['Opening day', 'Spring update']);
    expect(state.error).toBe('No.');
    state = historyEditsReducer(state, { type: 'dismiss' });
    expect(state.error).toBeNull();
  });

  it('holds a finished change until the server list shows it, or gives way after two lists without it', () => {
    let state = historyEditsReducer(start, { type: 'delete', op: 1, id: 'h1' });
    state = historyEditsReducer(state, { type: 'succeeded', op: 1 });
    expect(state.pending).toHaveLength(1);
    state = historyEditsReducer(state, { type: 'server', entries: history.slice(1) });
    expect(state.pending).toHaveLength(0);

    state = historyEditsReducer(state, { type: 'rename', op: 2, id: 'h3', name: 'Mine' });
    state = historyEditsReducer(state, { type: 'succeeded', op: 2 });
    state = historyEditsReducer(state, { type: 'server', entries: history.slice(1) });
    expect(visibleEntries(state).at(-1)!.name).toBe('Mine');
    state = historyEditsReducer(state, { type: 'server', entries: history.slice(1).map((e) => (e.id === 'h3' ? { ...e, name: 'Theirs' } : e)) });
    expect(visibleEntries(state).at(-1)!.name).toBe('Theirs');
  });

  it('drops a finished change at once when the server list already shows it', () => {
    let state = historyEditsReducer(start, { type: 'rename', op: 1, id: 'h1', name: 'Launch' });
    state = historyEditsReducer(state, { type: 'server', entries: [{ ...history[0]!, name: 'Launch' }, ...history.slice(1)] });
    state = historyEditsReducer(state, { type: 'succeeded', op: 1 });
    expect(state.pending).toHaveLength(0);
  });

  it('ignores a change of an entry that is gone', () => {
    const state = historyEditsReducer(start, { type: 'rename', op: 1, id: 'nope', name: 'X' });
    expect(state).toBe(start);
  });
});

describe('the timeline', () => {
  const bakery = Location.parse({ id: 'bakery', title: 'Bakery', layer: 'ground', position: { x: 300, y: 200 } });
  const kiosk = Location.parse({ id: 'kiosk', title: 'Kiosk', layer: 'ground', position: { x: 20, y: 40 } });
  const now: MapDocument = { ...document, locations: [cafe, bakery] };
  const then: MapDocument = { ...document, locations: [{ ...cafe, position: { x: 50, y: 50 } }, kiosk] };
  const item = (revision: number) => ({
    revision: String(revision),
    type: 'LocationMoved',
    at: `2025-03-0${1 + (revision % 8)}T10:00:00.000Z`,
    actor: { uid: revision % 2 ? 'u1' : 'u2', name: revision % 2 ? 'Avery Quinn' : 'Ana Ruiz' },
    summary: `Event ${revision}: ${revision % 2 ? 'Avery Quinn' : 'Ana Ruiz'} moved “Cafe”`,
    locationIds: ['cafe'],
  });
  const page = (from: number, to: number, next: string | null) => ({ items: Array.from({ length: from - to + 1 }, (_, index) => item(from - index)), total: 10, next });

  async function openTimeline() {
    const view = await openHistory({
      'GET /api/maps/m1/data': () => ({ body: { result: record(history, '9', now), position: '3:0' } }),
      'GET /api/maps/m1/timeline?limit=50': () => ({ body: { result: page(9, 5, '5') } }),
      'GET /api/maps/m1/timeline?before=5&limit=50': () => ({ body: { result: page(4, 0, null) } }),
      ...Object.fromEntries(
        Array.from({ length: 10 }, (_, revision) => [
          `GET /api/maps/m1/revisions/${revision}`,
          () => ({ body: { result: { revision: String(revision), title: 'Harbour Market', document: revision >= 8 ? now : then } } }),
        ]),
      ),
    });
    await view.user.click(screen.getByRole('button', { name: 'Open the timeline' }));
    await screen.findByRole('region', { name: 'Timeline' });
    return view;
  }
  const revisionRequests = (requests: FakeRequest[]) => requests.filter((request) => request.path.includes('/revisions/')).map((request) => request.path);
  const timeline = () => within(screen.getByRole('region', { name: 'Timeline' }));

  it('lists the events in words with who and when, and pages back with "Older events"', async () => {
    const { user, requests } = await openTimeline();
    expect(await timeline().findByRole('button', { name: 'Event 9: Avery Quinn moved “Cafe”' })).toBeInTheDocument();
    expect(timeline().getAllByRole('listitem').filter((li) => li.classList.contains('ed-tl__item'))).toHaveLength(5);
    const meta = timeline().getAllByText(/Ana Ruiz ·/)[0]!;
    expect(meta).toHaveTextContent('revision 8');
    expect(meta.querySelector('time')).toHaveAttribute('dateTime', '2025-03-01T10:00:00.000Z');
    expect(meta.querySelector('time')!.getAttribute('title')).toMatch(/2025/);
    // The canvas is gone: the timeline stands in its place.
    expect(screen.queryByRole('toolbar', { name: 'Tools' })).not.toBeInTheDocument();

    await user.click(timeline().getByRole('button', { name: 'Older events' }));
    expect(await timeline().findByRole('button', { name: 'Event 0: Ana Ruiz moved “Cafe”' })).toBeInTheDocument();
    expect(requests.some((request) => request.path === '/api/maps/m1/timeline?before=5&limit=50')).toBe(true);
    expect(timeline().queryByRole('button', { name: 'Older events' })).not.toBeInTheDocument();
  });

  it('steps back three revisions, shows the map then, and the locations that differ from now', async () => {
    const { user, requests } = await openTimeline();
    const slider = await timeline().findByRole('slider', { name: 'Revision' });
    expect(slider).toHaveValue('9');
    await waitFor(() => expect(revisionRequests(requests)).toContain('/api/maps/m1/revisions/9'));
    expect(await timeline().findByText('The locations are the same as in the current map.')).toBeInTheDocument();
    expect(timeline().getByRole('button', { name: 'Next revision' })).toBeDisabled();

    const previous = timeline().getByRole('button', { name: 'Previous revision' });
    await user.click(previous);
    await user.click(previous);
    await user.click(previous);
    expect(slider).toHaveValue('6');
    expect(slider).toHaveAttribute('aria-valuetext', 'Revision 6 of 9: Event 6: Ana Ruiz moved “Cafe”');
    await waitFor(() => expect(revisionRequests(requests).at(-1)).toBe('/api/maps/m1/revisions/6'));
    expect(
      await timeline().findByText('3 locations differ from the current map: Cafe (moved since), Kiosk (removed since), Bakery (added since).'),
    ).toBeInTheDocument();
    const differing = within(timeline().getByRole('list', { name: 'Locations that differ' }));
    expect(differing.getByRole('button', { name: 'Cafe' })).toHaveAttribute('aria-pressed', 'true');
    expect(differing.getByRole('button', { name: 'Kiosk' })).toHaveAttribute('aria-pressed', 'false');
    // Bakery is not on the map then: listed, not a button.
    expect(differing.queryByRole('button', { name: 'Bakery' })).not.toBeInTheDocument();
    await user.click(differing.getByRole('button', { name: 'Kiosk' }));
    expect(differing.getByRole('button', { name: 'Kiosk' })).toHaveAttribute('aria-pressed', 'true');
    // The map then, read-only: Kiosk is on it.
    expect(within(screen.getByRole('list', { name: /^Locations on/ })).getByRole('button', { name: 'Kiosk' })).toBeInTheDocument();
  });

  it('chooses a revision from the list, and with the slider', async () => {
    const { user, requests } = await openTimeline();
    await user.click(await timeline().findByRole('button', { name: 'Event 7: Avery Quinn moved “Cafe”' }));
    const slider = timeline().getByRole('slider', { name: 'Revision' });
    expect(slider).toHaveValue('7');
    expect(timeline().getByRole('button', { name: 'Event 7: Avery Quinn moved “Cafe”' })).toHaveAttribute('aria-current', 'step');
    await waitFor(() => expect(revisionRequests(requests).at(-1)).toBe('/api/maps/m1/revisions/7'));
    // jsdom does not move a range input with the arrow keys: the change the browser makes stands in.
    fireEvent.change(slider, { target: { value: '2' } });
    expect(slider).toHaveValue('2');
    await waitFor(() => expect(revisionRequests(requests).at(-1)).toBe('/api/maps/m1/revisions/2'));
  });

  it('goes back to editing with Esc or the button', async () => {
    const { user } = await openTimeline();
    await timeline().findByRole('slider', { name: 'Revision' });
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('region', { name: 'Timeline' })).not.toBeInTheDocument();
    expect(screen.getByRole('toolbar', { name: 'Tools' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Open the timeline' }));
    await user.click(await timeline().findByRole('button', { name: 'Back to editing' }));
    expect(screen.queryByRole('region', { name: 'Timeline' })).not.toBeInTheDocument();
  });
});
