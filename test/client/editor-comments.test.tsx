/**
 * The editor's Comments panel and pins, as a person uses them: threads from the live topic,
 * numbered pins on the map that open their thread, "Add comment" on a clicked point with an
 * @ mention chosen from the map's members, replies, resolve, and delete after a confirmation.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MapComments, MapCommentThread } from '../../events/comments-api';
import { emptyMapDocument, Location, type MapDocument } from '../../events/map-document';
import type { MapMembers } from '../../events/sharing-api';
import { topics } from '../../events/topics';
import { authRoutes, principal, renderApp, stubFetch } from './support/fakes';

afterEach(() => vi.unstubAllGlobals());

const owner = principal({ uid: 'u1', displayName: 'Olivia Grant' });
const gate = Location.parse({ id: 'gate', title: 'North gate', layer: 'ground', position: { x: 100, y: 100 } });
const document: MapDocument = { ...emptyMapDocument(), locations: [gate] };
const at = '2026-11-24T18:00:00.000Z';
const person = (uid: string, displayName: string) => ({ uid, displayName });

const thread = (threadId: string, overrides: Partial<MapCommentThread> = {}): MapCommentThread => ({
  threadId,
  anchor: { kind: 'point', x: 40, y: 50, layer: 'ground' },
  resolved: false,
  resolvedBy: null,
  lastActivity: at,
  comments: [{ commentId: threadId, author: person('u2', 'Ben Ortiz'), body: `First words of ${threadId}`, mentions: [], created: at, edited: null, deleted: false }],
  ...overrides,
});

const members: MapMembers = {
  mapId: 'm1',
  owner: { ...person('u1', 'Olivia Grant'), email: 'o@example.com' },
  members: [
    { ...person('u2', 'Ben Ortiz'), email: 'b@example.com', role: 'editor', since: at },
    { ...person('u3', 'Vera Lind'), email: 'v@example.com', role: 'viewer', since: at },
  ],
  invitations: [],
  viewLink: null,
  yourRole: 'owner',
};

async function openComments() {
  const fake = stubFetch({
    ...authRoutes(owner),
    'GET /api/maps/m1/data': () => ({ body: { result: { id: 'm1', title: 'Harbour Market', data: document, revision: '1' }, position: '3:0' } }),
    'GET /api/maps/m1/members': () => ({ body: { result: members, position: '3:0' } }),
    'POST /api/fn/addMapComment': () => ({ body: { result: { commentId: 'new-1' }, position: '9:0' } }),
    'POST /api/fn/replyToMapComment': () => ({ body: { result: { commentId: 'r-1' }, position: '9:0' } }),
    'POST /api/fn/resolveMapCommentThread': () => ({ body: { result: null, position: '9:0' } }),
    'POST /api/fn/deleteMapComment': () => ({ body: { result: null, position: '9:0' } }),
  });
  const view = renderApp('/maps/m1');
  await screen.findByRole('region', { name: /Map editor/ }, { timeout: 5_000 });
  const topic = topics.comments('m1');
  await waitFor(() => expect(view.live.listeners.get(topic)?.size).toBe(1));
  const emit = (threads: MapCommentThread[], position = '5:0') => act(() => view.live.emit(topic, { mapId: 'm1', threads } satisfies MapComments, position));
  return { ...view, requests: fake.requests, emit };
}

describe('comments in the editor', () => {
  it('lists the open threads, numbered by age like their pins; a pin opens its thread in the panel', async () => {
    const user = userEvent.setup();
    const { emit } = await openComments();
    const older = thread('t1', { anchor: { kind: 'location', locationId: 'gate' } });
    const newer = thread('t2', { comments: [{ ...thread('t2').comments[0]!, created: '2026-11-24T18:05:00.000Z' }], lastActivity: '2026-11-24T18:05:00.000Z' });
    const done = thread('t3', { resolved: true, resolvedBy: person('u1', 'Olivia Grant'), comments: [{ ...thread('t3').comments[0]!, created: '2026-11-24T18:09:00.000Z' }] });
    emit([newer, older, done]);
    await user.click(screen.getByRole('tab', { name: 'Comments' }));
    const list = await screen.findByRole('list', { name: 'Open threads' }, { timeout: 5_000 });
    const names = within(list).getAllByRole('button').map((button) => button.textContent);
    expect(names).toHaveLength(2);
    expect(names[0]).toMatch(/^Thread 2Ben Ortiz.*First words of t2/);
    expect(names[1]).toMatch(/^Thread 1Ben Ortiz.*on North gate.*First words of t1/);
    expect(screen.getByRole('button', { name: /Resolved 1/ })).toBeInTheDocument();
    // Pins for the open threads only: one on the point, one on the location.
    const pins = await screen.findAllByRole('button', { name: /^Comment thread \d/ }, { timeout: 5_000 });
    expect(pins.map((pin) => pin.textContent)).toEqual(['2', '1']);
    await user.click(screen.getByRole('button', { name: /^Comment thread 1 by Ben Ortiz/ }));
    expect(await screen.findByRole('heading', { name: 'Thread 1 on North gate' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Comment thread 1/ })).toHaveAttribute('aria-pressed', 'true');
  });

  it('"Add comment" pins a thread where the map is clicked; @ offers the members, and the choice is sent as a mention', async () => {
    const user = userEvent.setup();
    const { emit, requests } = await openComments();
    emit([]);
    await user.click(screen.getByRole('tab', { name: 'Comments' }));
    await user.click(await screen.findByRole('button', { name: 'Add comment' }, { timeout: 5_000 }));
    const target = await screen.findByRole('button', { name: /^Pin the comment here/ });
    fireEvent.click(target, { clientX: 320, clientY: 240 });
    expect(await screen.findByRole('heading', { name: 'New comment on a point on Ground floor' })).toBeInTheDocument();
    const box = screen.getByRole('textbox', { name: 'Your comment' });
    await user.type(box, 'Can you check this @Be');
    const options = await screen.findByRole('listbox', { name: 'People to mention' });
    expect(within(options).getAllByRole('option').map((option) => option.textContent)).toEqual(['Ben Ortiz']);
    await user.keyboard('{Enter}');
    expect(box).toHaveValue('Can you check this @Ben Ortiz ');
    await user.type(box, 'please');
    await user.click(screen.getByRole('button', { name: 'Post' }));
    await waitFor(() => expect(requests.some((request) => request.path === '/api/fn/addMapComment')).toBe(true));
    const sent = requests.find((request) => request.path === '/api/fn/addMapComment')!.data;
    // Where the click was on the floor (in the plan's coordinates, through the camera).
    expect(sent).toEqual({ mapId: 'm1', anchor: { kind: 'point', x: expect.any(Number), y: expect.any(Number), layer: 'ground' }, body: 'Can you check this @Ben Ortiz please', mentions: ['u2'] });
  });

  it('replies, resolves, and deletes a comment after a confirmation', async () => {
    const user = userEvent.setup();
    const { emit, requests } = await openComments();
    emit([thread('t1')]);
    await user.click(screen.getByRole('tab', { name: 'Comments' }));
    await user.click(await screen.findByRole('button', { name: /^Thread 1 Ben Ortiz/ }, { timeout: 5_000 }));
    await user.type(screen.getByRole('textbox', { name: 'Reply in thread 1' }), 'On it.');
    await user.click(screen.getByRole('button', { name: 'Reply' }));
    await waitFor(() => expect(requests.find((request) => request.path === '/api/fn/replyToMapComment')?.data).toEqual({ mapId: 'm1', threadId: 't1', body: 'On it.', mentions: [] }));
    await user.click(screen.getByRole('button', { name: 'Resolve' }));
    await waitFor(() => expect(requests.find((request) => request.path === '/api/fn/resolveMapCommentThread')?.data).toEqual({ mapId: 'm1', threadId: 't1' }));
    // The owner may delete Ben's comment, after saying yes.
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this comment?' });
    expect(dialog).toHaveTextContent('Ben Ortiz’s comment will be removed for everyone.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(requests.find((request) => request.path === '/api/fn/deleteMapComment')?.data).toEqual({ mapId: 'm1', commentId: 't1' }));
    // What the server says next is what shows.
    emit([thread('t1', { resolved: true, resolvedBy: person('u1', 'Olivia Grant') })], '9:0');
    expect(await screen.findByText('Resolved by Olivia Grant')).toBeInTheDocument();
  });
});
