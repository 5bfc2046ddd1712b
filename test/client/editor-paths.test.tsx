/**
 * The path tool in the editor page (jsdom): the tool bar's path tools open the Paths panel,
 * the panel lists what is drawn and changes a link's flags by keyboard, connectors are made
 * from the dialog in one edit, and a map that is not Professional says directions need it.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emptyMapDocument, Location, type MapDocument } from '../../events/map-document';
import { authRoutes, principal, renderApp, stubFetch, type FakeRequest } from './support/fakes';

afterEach(() => vi.unstubAllGlobals());

const owner = principal({ uid: 'u1' });
const cafe = Location.parse({ id: 'cafe', title: 'Cafe', layer: 'ground', position: { x: 100, y: 100 } });
const gym = Location.parse({ id: 'gym', title: 'Gym', layer: 'first', position: { x: 100, y: 100 } });
const mapDocument: MapDocument = {
  ...emptyMapDocument(),
  layers: [
    { id: 'ground', name: 'Ground floor', file: null },
    { id: 'first', name: 'First floor', file: null },
  ],
  locations: [cafe, gym],
  paths: {
    nodes: [
      { id: 'n1', layer: 'ground', x: 10, y: 10 },
      { id: 'n2', layer: 'ground', x: 110, y: 10 },
    ],
    edges: [{ id: 'e1', from: 'n1', to: 'n2', stepFree: true, oneWay: false }],
    connectors: [],
  },
};
const record = (data: MapDocument, revision: string) => ({ id: 'm1', title: 'Harbour Market', data, revision });

function editRequests(requests: FakeRequest[]) {
  return requests.filter((request) => request.path === '/api/fn/editMap').flatMap((request) => (request.data as { edits: Array<Record<string, unknown>> }).edits);
}

async function openEditor() {
  let revision = 1;
  const fake = stubFetch({
    ...authRoutes(owner),
    'GET /api/maps/m1/data': () => ({ body: { result: record(mapDocument, '1'), position: '3:0' } }),
    'POST /api/fn/editMap': (request) => {
      revision += (request.data as { edits: unknown[] }).edits.length;
      return { body: { result: { revision: String(revision) }, position: `${revision + 3}:0` } };
    },
  });
  renderApp('/maps/m1');
  await screen.findByRole('region', { name: /Map editor/ }, { timeout: 5_000 });
  return fake.requests;
}

describe('the path tool in the editor', () => {
  it('opens the Paths panel from the tool bar, lists points and links, and toggles a link by keyboard', async () => {
    const user = userEvent.setup();
    const requests = await openEditor();
    const tools = within(screen.getByRole('toolbar', { name: 'Tools' }));
    await user.click(tools.getByRole('button', { name: 'Draw paths' }));
    expect(tools.getByRole('button', { name: 'Draw paths' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('tab', { name: 'Paths' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('note')).toHaveTextContent('Directions for visitors need the Professional plan.');
    await user.click(screen.getByText('Points and links'));
    const links = within(screen.getByRole('list', { name: 'Path links on Ground floor' }));
    await user.click(links.getByRole('button', { name: 'Link from point 1 to point 2' }));
    await user.click(screen.getByRole('checkbox', { name: /One-way/ }));
    await waitFor(() => expect(editRequests(requests)).toEqual([expect.objectContaining({ type: 'PathsEdited', put: expect.objectContaining({ edges: [expect.objectContaining({ id: 'e1', oneWay: true })] }) })]));
    expect(within(screen.getByRole('list', { name: 'Path links on Ground floor' })).getByRole('button', { name: 'Link from point 1 to point 2, one-way' })).toBeInTheDocument();
    // Delete from the list.
    await user.click(within(screen.getByRole('list', { name: 'Path points on Ground floor' })).getByRole('button', { name: 'Delete Point 2 (110, 10)' }));
    await waitFor(() => expect(editRequests(requests).at(-1)).toMatchObject({ type: 'PathsEdited', removed: { nodes: ['n2'] } }));
    expect(screen.getByRole('heading', { name: /On Ground floor: 1 point, 0 links/ })).toBeInTheDocument();
  });

  it('checks the network: an unreachable location and the dead ends, each a button', async () => {
    const user = userEvent.setup();
    await openEditor();
    await user.click(screen.getByRole('tab', { name: 'Paths' }));
    await user.click(screen.getByRole('button', { name: 'Check network' }));
    const unreachable = within(screen.getByRole('list', { name: /Unreachable locations/ }));
    expect(unreachable.getByRole('button', { name: 'Gym (First floor): no path point on its floor and no entrance' })).toBeInTheDocument();
    // Point 2 is the cafe's way in (the nearest); point 1 is where the line stopped short.
    const deadEnds = within(screen.getByRole('list', { name: /Dead ends/ }));
    await user.click(deadEnds.getByRole('button', { name: 'Point 1 (10, 10) on Ground floor' }));
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Selected point' })).toBeInTheDocument());
    // Choosing the unreachable location shows its floor.
    await user.click(unreachable.getByRole('button', { name: /^Gym/ }));
    await waitFor(() => expect(screen.getByRole('group', { name: 'Floors' }).querySelector('[aria-pressed="true"]')).toHaveTextContent('First floor'));
  });

  it('adds a connector from the dialog in one edit, a stop on each ticked floor', async () => {
    const user = userEvent.setup();
    const requests = await openEditor();
    await user.click(within(screen.getByRole('toolbar', { name: 'Tools' })).getByRole('button', { name: 'Add connector' }));
    // jsdom has no layout: the click's point is wherever the camera says, which is enough here.
    await user.click(document.querySelector('.mf-viewport')!);
    const dialog = within(await screen.findByRole('dialog', { name: 'New connector' }));
    await user.click(dialog.getByRole('radio', { name: 'Stairs' }));
    await user.type(dialog.getByRole('textbox', { name: 'Name (optional)' }), 'North stairs');
    await user.click(dialog.getByRole('button', { name: 'Add connector' }));
    await waitFor(() => expect(editRequests(requests)).toHaveLength(1));
    const edit = editRequests(requests)[0] as { type: string; put: { nodes: Array<{ layer: string }>; connectors: Array<{ kind: string; name: string; nodes: string[] }> } };
    expect(edit.type).toBe('PathsEdited');
    expect(edit.put.nodes.map((node) => node.layer)).toEqual(['ground', 'first']);
    expect(edit.put.connectors).toEqual([expect.objectContaining({ kind: 'stairs', name: 'North stairs' })]);
    expect(screen.queryByRole('dialog', { name: 'New connector' })).toBeNull();
  });
});
