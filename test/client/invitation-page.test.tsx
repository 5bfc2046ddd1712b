/**
 * The invitation link's page and "Shared with me" on /maps (issue 16), with the client's fetch
 * answering per the contract (events/sharing-api.ts).
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emptyMapDocument } from '../../events/map-document';
import { SharedMapItem } from '../../events/sharing-api';
import { pendingInvitation } from '../../client/src/lib/pending-invitation';
import { authRoutes, principal, renderApp, stubFetch, type FakeRequest } from './support/fakes';

afterEach(() => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

const token = 'tok_abcdefghijklmnopqrstuvwxyz0123456789ABCDE';
const ben = principal({ uid: 'ben', displayName: 'Ben Kim', email: 'ben@example.com' });
const accepts = (requests: FakeRequest[]) => requests.filter((request) => request.path === '/api/fn/acceptMapInvitation').map((request) => request.data);
/** What the editor needs to open m1 once the invitation lands there. */
const mapRoutes = {
  'GET /api/maps/m1/data': () => ({ body: { result: { id: 'm1', title: 'Harbour Market', data: emptyMapDocument(), revision: '1', history: [] }, position: '3:0' } }),
};

describe('the invitation page', () => {
  it('accepts at once for a signed-in person and opens the map in the editor', async () => {
    const { requests } = stubFetch({ ...authRoutes(ben), ...mapRoutes, 'POST /api/fn/acceptMapInvitation': () => ({ body: { result: { mapId: 'm1' }, position: '9:0' } }) });
    const { router } = renderApp(`/invitations/${token}`);
    await waitFor(() => expect(router.state.location.pathname).toBe('/maps/m1'));
    expect(accepts(requests)).toEqual([{ token }]);
    expect(await screen.findByRole('region', { name: /Map editor/ })).toBeInTheDocument();
  });

  it('explains the invitation to a visitor, and after logging in comes back and accepts it', async () => {
    const user = userEvent.setup();
    let signedIn: typeof ben | null = null;
    const { requests } = stubFetch({
      ...authRoutes(null),
      'GET /api/auth/me': () => ({ body: { result: signedIn } }),
      'GET /api/maps': () => ({ body: { result: [], position: '-1:-1' } }),
      'POST /api/auth/login': () => {
        signedIn = ben;
        return { body: { result: ben } };
      },
      ...mapRoutes,
      'POST /api/fn/acceptMapInvitation': () => ({ body: { result: { mapId: 'm1' }, position: '9:0' } }),
    });
    const { router } = renderApp(`/invitations/${token}`);
    expect(await screen.findByRole('heading', { name: 'You are invited to a map' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', '/register');
    expect(accepts(requests)).toHaveLength(0);
    expect(pendingInvitation()).toBe(token);

    await user.click(screen.getByRole('link', { name: 'Log in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    await user.type(screen.getByLabelText('Email'), 'ben@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/maps/m1'));
    expect(accepts(requests)).toEqual([{ token }]);
    expect(pendingInvitation()).toBeNull();
  });

  it("says why a link no longer works, in the server's words, with a way back to the maps", async () => {
    stubFetch({
      ...authRoutes(ben),
      'POST /api/fn/acceptMapInvitation': () => ({ status: 409, body: { error: { status: 'ABORTED', message: 'This invitation has expired: ask for a new one.' } } }),
    });
    renderApp(`/invitations/${token}`);
    expect(await screen.findByRole('heading', { name: 'This invitation cannot be used' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('This invitation has expired: ask for a new one.');
    expect(screen.getByRole('link', { name: 'Go to your maps' })).toHaveAttribute('href', '/maps');
  });

  it('asks an account with an unverified address to verify first, and remembers the link for afterwards', async () => {
    const unverified = { ...ben, emailVerified: false };
    const { requests } = stubFetch({ ...authRoutes(unverified) });
    renderApp(`/invitations/${token}`);
    expect(await screen.findByRole('heading', { name: 'Verify your email to join' })).toBeInTheDocument();
    expect(screen.getByText(/We sent a link to/)).toHaveTextContent('ben@example.com');
    expect(accepts(requests)).toHaveLength(0);
    expect(pendingInvitation()).toBe(token);
  });
});

describe('"Shared with me" on /maps', () => {
  const item = (overrides: Partial<SharedMapItem>) =>
    SharedMapItem.parse({ id: 's1', title: 'Ada’s Atlas', owner: { uid: 'ada', displayName: 'Ada Lovelace' }, role: 'viewer', state: 0, edited: new Date().toISOString(), metrics: { layerCount: 2, locationCount: 14 }, ...overrides });

  it('lists the maps shared with the person, with owner and role, opening in the editor', async () => {
    stubFetch({
      ...authRoutes(ben),
      'GET /api/maps/shared': () => ({ body: { result: [item({}), item({ id: 's2', title: 'Dock Plan', role: 'editor', owner: { uid: 'cy', displayName: 'Cy Young' } })], position: '5:0' } }),
    });
    renderApp('/maps');
    const list = await screen.findByRole('list', { name: 'Maps shared with you' });
    const cards = within(list).getAllByRole('article');
    expect(cards).toHaveLength(2);
    expect(cards[0]).toHaveTextContent('Ada’s Atlas');
    expect(cards[0]).toHaveTextContent('Viewer');
    expect(cards[0]).toHaveTextContent('Owner Ada Lovelace');
    expect(cards[0]).toHaveTextContent('2 floors · 14 locations');
    expect(within(cards[1]!).getByRole('link', { name: 'Dock Plan' })).toHaveAttribute('href', '/maps/s2');
    expect(cards[1]).toHaveTextContent('Editor');
    // Apart from one's own maps: the shared ones are not in "All maps" nor counted as test maps.
    expect(screen.queryByRole('list', { name: 'Your maps' })).not.toBeInTheDocument();
  });

  it('says so when nothing is shared', async () => {
    stubFetch({ ...authRoutes(ben) });
    renderApp('/maps');
    expect(await screen.findByText('Nothing shared with you yet')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: /Shared with me 0/ })).toBeInTheDocument();
  });
});
