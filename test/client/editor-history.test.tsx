import { act, screen, waitFor, within } from '@testing-library/react';
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
