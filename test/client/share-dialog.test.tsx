/**
 * Sharing in the editor (issue 16), with the client's fetch answering per the contract
 * (events/sharing-api.ts): the Share dialog for the owner and for a member, and the editor of
 * a viewer and of a member removed while the map is open.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emptyMapDocument, Location, type MapDocument } from '../../events/map-document';
import { MapMembers, sharingFunctionPayloads } from '../../events/sharing-api';
import { topics } from '../../events/topics';
import { LIVE_PROTOCOL_VERSION } from '../../events/live-messages';
import { authRoutes, principal, renderApp, stubFetch, type FakeAnswer, type FakeRequest } from './support/fakes';

afterEach(() => vi.unstubAllGlobals());

const ada = principal({ uid: 'ada', displayName: 'Ada Lovelace', email: 'ada@example.com' });
const ben = principal({ uid: 'ben', displayName: 'Ben Kim', email: 'ben@example.com' });
const cafe = Location.parse({ id: 'cafe', title: 'Cafe', layer: 'ground', position: { x: 100, y: 100 } });
const document: MapDocument = { ...emptyMapDocument(), locations: [cafe] };
const record = { id: 'm1', title: 'Harbour Market', data: document, revision: '1', history: [] };

function membersOf(yourRole: MapMembers['yourRole'], overrides: Partial<MapMembers> = {}): MapMembers {
  return MapMembers.parse({
    mapId: 'm1',
    owner: { uid: 'ada', displayName: 'Ada Lovelace', email: 'ada@example.com' },
    members: [{ uid: 'ben', displayName: 'Ben Kim', email: 'ben@example.com', role: 'editor', since: '2026-11-20T10:00:00.000Z' }],
    invitations: [],
    viewLink: null,
    yourRole,
    ...overrides,
  });
}

const ok = (result: unknown, position = '9:0'): FakeAnswer => ({ body: { result, position } });
const calls = (requests: FakeRequest[], name: string) => requests.filter((request) => request.path === `/api/fn/${name}`).map((request) => request.data);

async function openEditor(user: typeof ada, members: () => MapMembers, routes: Parameters<typeof stubFetch>[0] = {}) {
  const fake = stubFetch({
    ...authRoutes(user),
    'GET /api/maps/m1/data': () => ok(record, '3:0'),
    'GET /api/public/maps/m1': () => ({ status: 404, body: { error: { status: 'NOT_FOUND', message: 'Map not found.' } } }),
    'GET /api/maps/m1/members': () => ok(members(), '9:0'),
    ...routes,
  });
  const view = renderApp('/maps/m1');
  await screen.findByRole('region', { name: /Map editor/ }, { timeout: 5_000 });
  return { ...view, requests: fake.requests };
}

describe('the Share dialog, for the owner', () => {
  it('opens from the editor bar, labelled, with focus in the e-mail field; Escape closes it and gives focus back', async () => {
    const user = userEvent.setup();
    await openEditor(ada, () => membersOf('owner'));
    const share = screen.getByRole('button', { name: 'Share' });
    await user.click(share);
    const dialog = await screen.findByRole('dialog', { name: 'Share “Harbour Market”' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    // The invite field comes with the members' list (the owner may invite), and takes focus then.
    const email = await within(dialog).findByLabelText('Invite by email');
    await waitFor(() => expect(email).toHaveFocus());
    // The owner, and the member with a role select and a remove button.
    expect(await within(dialog).findByText('Ada Lovelace')).toBeInTheDocument();
    expect(within(dialog).getByText('Owner')).toBeInTheDocument();
    expect(within(dialog).getByRole('combobox', { name: 'Role of Ben Kim' })).toHaveValue('editor');
    expect(within(dialog).getByRole('button', { name: 'Remove Ben Kim' })).toBeInTheDocument();
    expect(within(dialog).getByRole('switch', { name: 'Anyone with the link can view' })).toHaveAttribute('aria-checked', 'false');

    // Tab from the last control wraps to the first: focus stays inside.
    within(dialog).getByRole('button', { name: 'Done' }).focus();
    await user.tab();
    expect(dialog.contains(window.document.activeElement)).toBe(true);

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() => expect(share).toHaveFocus());
  });

  it('invites by e-mail with a role: busy while it goes, a toast, and the pending invitation with its expiry', async () => {
    const user = userEvent.setup();
    let answer!: (value: FakeAnswer) => void;
    let members = membersOf('owner');
    const { requests } = await openEditor(ada, () => members, {
      'POST /api/fn/inviteToMap': () => new Promise<FakeAnswer>((resolve) => (answer = resolve)),
    });
    await user.click(screen.getByRole('button', { name: 'Share' }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText('Ben Kim');

    await user.type(within(dialog).getByLabelText('Invite by email'), '  Cara@Example.com ');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Role' }), 'viewer');
    await user.click(within(dialog).getByRole('button', { name: 'Invite' }));
    // In flight: the button says so and nothing can be sent twice.
    const busy = within(dialog).getByRole('button', { name: /Inviting/ });
    expect(busy).toBeDisabled();
    expect(within(dialog).getByLabelText('Invite by email')).toBeDisabled();
    expect(calls(requests, 'inviteToMap')).toEqual([{ mapId: 'm1', email: 'cara@example.com', role: 'viewer' }]);
    expect(sharingFunctionPayloads.inviteToMap.safeParse(calls(requests, 'inviteToMap')[0]).success).toBe(true);

    members = membersOf('owner', {
      invitations: [{ invitationId: 'inv1', email: 'cara@example.com', role: 'viewer', invitedBy: 'ada', invited: new Date().toISOString(), expires: new Date(Date.now() + 14 * 86_400_000).toISOString() }],
    });
    act(() => answer(ok({ invitationId: 'inv1' })));
    expect(await within(dialog).findByText('Invitation sent to cara@example.com.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Invite by email')).toHaveValue('');
    const pending = within(dialog).getByText('cara@example.com').closest('li')!;
    expect(pending).toHaveTextContent(/Viewer · expires in 2 weeks/);
    expect(within(pending).getByRole('button', { name: 'Revoke the invitation to cara@example.com' })).toBeEnabled();
  });

  it("says what is wrong with the address in place, and shows the server's refusal there too", async () => {
    const user = userEvent.setup();
    const { requests } = await openEditor(ada, () => membersOf('owner'), {
      'POST /api/fn/inviteToMap': () => ({ status: 409, body: { error: { status: 'ABORTED', message: 'ben@example.com is already a member of this map.' } } }),
    });
    await user.click(screen.getByRole('button', { name: 'Share' }));
    const dialog = await screen.findByRole('dialog');
    const email = within(dialog).getByLabelText('Invite by email');
    await user.type(email, 'not an address{Enter}');
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Enter a valid email address.');
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(calls(requests, 'inviteToMap')).toHaveLength(0);

    await user.clear(email);
    await user.type(email, 'ben@example.com{Enter}');
    expect(await within(dialog).findByText('ben@example.com is already a member of this map.')).toBeInTheDocument();
    expect(email).toHaveValue('ben@example.com');
  });

  it("changes a member's role, removes a member after asking, and revokes an invitation", async () => {
    const user = userEvent.setup();
    const invitation = { invitationId: 'inv1', email: 'cara@example.com', role: 'viewer' as const, invitedBy: 'ada', invited: '2026-11-20T10:00:00.000Z', expires: '2099-12-04T10:00:00.000Z' };
    let members = membersOf('owner', { invitations: [invitation] });
    const { requests } = await openEditor(ada, () => members, {
      'POST /api/fn/setMapMemberRole': () => {
        members = { ...members, members: members.members.map((member) => ({ ...member, role: 'viewer' as const })) };
        return ok(null);
      },
      'POST /api/fn/removeMapMember': () => {
        members = { ...members, members: [] };
        return ok(null);
      },
      'POST /api/fn/revokeMapInvitation': () => {
        members = { ...members, invitations: [] };
        return ok(null);
      },
    });
    await user.click(screen.getByRole('button', { name: 'Share' }));
    const dialog = await screen.findByRole('dialog');
    await user.selectOptions(await within(dialog).findByRole('combobox', { name: 'Role of Ben Kim' }), 'viewer');
    expect(await within(dialog).findByText('Ben Kim is now a viewer.')).toBeInTheDocument();
    expect(calls(requests, 'setMapMemberRole')).toEqual([{ mapId: 'm1', uid: 'ben', role: 'viewer' }]);

    await user.click(within(dialog).getByRole('button', { name: 'Revoke the invitation to cara@example.com' }));
    await waitFor(() => expect(within(dialog).queryByText('cara@example.com')).not.toBeInTheDocument());
    expect(calls(requests, 'revokeMapInvitation')).toEqual([{ mapId: 'm1', invitationId: 'inv1' }]);

    await user.click(within(dialog).getByRole('button', { name: 'Remove Ben Kim' }));
    const confirm = screen.getByRole('dialog', { name: 'Remove Ben Kim?' });
    expect(calls(requests, 'removeMapMember')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Remove Ben Kim?' })).not.toBeInTheDocument());
    expect(calls(requests, 'removeMapMember')).toEqual([{ mapId: 'm1', uid: 'ben' }]);
    expect(within(dialog).queryByText('Ben Kim')).not.toBeInTheDocument();
    expect(within(dialog).getByText(/Nobody else yet/)).toBeInTheDocument();
  });

  it('turns the view link on, shows it with a copy button, and off again', async () => {
    const user = userEvent.setup();
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    let members = membersOf('owner');
    await openEditor(ada, () => members, {
      'POST /api/fn/setMapViewLink': (request) => {
        const url = (request.data as { enabled: boolean }).enabled ? 'http://localhost/m/m1?key=abc123' : null;
        members = { ...members, viewLink: url };
        return ok({ url });
      },
    });
    await user.click(screen.getByRole('button', { name: 'Share' }));
    const dialog = await screen.findByRole('dialog');
    const toggle = await within(dialog).findByRole('switch', { name: 'Anyone with the link can view' });
    await user.click(toggle);
    await waitFor(() => expect(toggle).toHaveAttribute('aria-checked', 'true'));
    expect(within(dialog).getByRole('textbox', { name: 'View link' })).toHaveValue('http://localhost/m/m1?key=abc123');
    await user.click(within(dialog).getByRole('button', { name: 'Copy link' }));
    expect(writeText).toHaveBeenCalledWith('http://localhost/m/m1?key=abc123');
    expect(await within(dialog).findByText('Link copied.')).toBeInTheDocument();
    await user.click(toggle);
    await waitFor(() => expect(toggle).toHaveAttribute('aria-checked', 'false'));
    expect(within(dialog).queryByRole('textbox', { name: 'View link' })).not.toBeInTheDocument();
  });
});

describe('the Share dialog, for a member', () => {
  it('lists the people read-only and leaves the map after asking', async () => {
    const user = userEvent.setup();
    const { requests, router } = await openEditor(ben, () => membersOf('editor'), { 'POST /api/fn/leaveMap': () => ok(null) });
    await user.click(screen.getByRole('button', { name: 'Share' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('Ada Lovelace')).toBeInTheDocument();
    expect(within(dialog).getByText('(you)')).toBeInTheDocument();
    expect(within(dialog).queryByLabelText('Invite by email')).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('combobox')).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('switch')).not.toBeInTheDocument();
    expect(within(dialog).getByText('Editor')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Leave map' }));
    const confirm = screen.getByRole('dialog', { name: 'Leave “Harbour Market”?' });
    await user.click(within(confirm).getByRole('button', { name: 'Leave map' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/maps'));
    expect(calls(requests, 'leaveMap')).toEqual([{ mapId: 'm1' }]);
  });
});

describe('the editor by role', () => {
  it('an editor edits, but sees neither Publish nor Embed', async () => {
    await openEditor(ben, () => membersOf('editor'));
    expect(screen.getByRole('textbox', { name: 'Map title' })).toBeEnabled();
    expect(screen.getByRole('toolbar', { name: 'Tools' })).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'Publish' })).not.toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'Embed' })).not.toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Locations' })).toBeInTheDocument();
  });

  it('a viewer sees the map read-only and is told why', async () => {
    const user = userEvent.setup();
    const { requests } = await openEditor(ben, () => membersOf('viewer', { members: [{ uid: 'ben', displayName: 'Ben Kim', email: 'ben@example.com', role: 'viewer', since: '2026-11-20T10:00:00.000Z' }] }));
    expect(screen.getByRole('note')).toHaveTextContent('You can view this map. Ask Ada Lovelace to make you an editor to change it.');
    expect(screen.queryByRole('textbox', { name: 'Map title' })).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Harbour Market', level: 1 })).toBeInTheDocument();
    expect(screen.queryByRole('toolbar', { name: 'Tools' })).not.toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'Publish' })).not.toBeInTheDocument();
    // The panels' controls are all disabled.
    await user.click(screen.getByRole('tab', { name: 'Locations' }));
    const body = screen.getByRole('tabpanel').querySelector('fieldset')!;
    expect(body).toBeDisabled();
    expect(within(body).getAllByRole('button').length).toBeGreaterThan(0);
    for (const control of within(body).queryAllByRole('button')) expect(control).toBeDisabled();
    // The history is theirs to read: the timeline opens, versions are not theirs to change.
    await user.click(screen.getByRole('tab', { name: 'History' }));
    const history = screen.getByRole('tabpanel');
    expect(within(history).getByRole('button', { name: 'Open the timeline' })).toBeEnabled();
    expect(within(history).getByRole('button', { name: /Save version/ })).toBeDisabled();
    // Keyboard shortcuts change nothing either.
    screen.getByRole('region', { name: /Map editor/ }).querySelector<HTMLElement>('.mf-viewport')!.focus();
    await user.keyboard('a{Enter}');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(calls(requests, 'editMap')).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Undo' })).toBeDisabled();
  });

  it('switches at once when the role changes, and turns read-only with a way out when the member is removed', async () => {
    const { live } = await openEditor(ben, () => membersOf('editor'));
    await waitFor(() => expect(live.listeners.get(topics.map('m1'))?.size).toBe(1));
    const access = (role: 'editor' | 'viewer') => live.deliver({ v: LIVE_PROTOCOL_VERSION, type: 'access', topic: topics.map('m1'), role });
    expect(screen.getByRole('toolbar', { name: 'Tools' })).toBeInTheDocument();

    act(() => access('viewer'));
    expect(await screen.findByText(/Ask Ada Lovelace to make you an editor/)).toBeInTheDocument();
    expect(screen.queryByRole('toolbar', { name: 'Tools' })).not.toBeInTheDocument();

    act(() => access('editor'));
    expect(await screen.findByRole('toolbar', { name: 'Tools' })).toBeInTheDocument();
    expect(screen.queryByText(/Ask Ada Lovelace/)).not.toBeInTheDocument();

    act(() => live.fail(topics.map('m1'), 'permission-denied', 'You do not have access to this map.'));
    const notice = await screen.findByRole('alert');
    expect(notice).toHaveTextContent('You no longer have access to this map.');
    expect(within(notice).getByRole('link', { name: 'Back to your maps' })).toHaveAttribute('href', '/maps');
    expect(screen.queryByRole('toolbar', { name: 'Tools' })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Map title' })).not.toBeInTheDocument();
  });
});
