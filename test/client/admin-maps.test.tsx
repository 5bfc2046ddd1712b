/**
 * The admin's maps page (/admin/maps, spec §6): the filters become the query string of
 * GET /api/admin/maps, "Load more" appends the next page, and only admins get the page.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MapListItem } from '../../events/read-models';
import { authRoutes, principal, renderApp, stubFetch, type FakeAnswer, type FakeRequest } from './support/fakes';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const admin = principal({ uid: 'admin-1', email: 'admin@example.com', displayName: 'Ada Admin', admin: true });

function item(id: string, overrides: Partial<MapListItem> = {}): MapListItem {
  return {
    id,
    title: `Map ${id}`,
    uid: 'uid-ana',
    author: 'uid-ana',
    created: '2025-01-10T12:00:00.000Z',
    edited: '2025-01-11T12:00:00.000Z',
    state: 0,
    subscribed: false,
    metrics: { layerCount: 2, locationCount: 7 },
    history: [],
    ...overrides,
  };
}

const page = (items: MapListItem[], next: string | null, total: number): FakeAnswer => ({ body: { result: { items, next, total }, position: '5:0' } });

/**
 * Auth routes for `user`, plus every `GET /api/admin/maps?…` answered by `answer`, whatever
 * its query string (the fake fetch otherwise matches paths exactly).
 */
function stubAdminApi(user: typeof admin | null, answer: (query: URLSearchParams, request: FakeRequest) => FakeAnswer | Promise<FakeAnswer>) {
  const base = authRoutes(user);
  const routes = new Proxy(base, {
    get(target, key) {
      if (typeof key === 'string' && (key === 'GET /api/admin/maps' || key.startsWith('GET /api/admin/maps?'))) {
        return (request: FakeRequest) => answer(new URL(request.path, 'http://x').searchParams, request);
      }
      return target[key as keyof typeof target];
    },
  });
  return stubFetch(routes);
}

const adminRequests = (requests: FakeRequest[]) => requests.filter((request) => request.path.startsWith('/api/admin/maps')).map((request) => request.path);

describe('/admin/maps', () => {
  it('lists the maps in a table: title linking to the editor, author, state, counts, dates; with the count', async () => {
    stubAdminApi(admin, () =>
      page([item('m1', { title: 'Harbour Mall', state: 1 }), item('m2', { title: 'Campus', author: 'uid-ben', uid: 'uid-ben', state: 9, metrics: { layerCount: 1, locationCount: 0 } })], 'c1', 3),
    );
    renderApp('/admin/maps');

    expect(await screen.findByRole('heading', { level: 1, name: 'All maps' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: /Maps matching the filters/ });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(within(rows[0]!).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['Title', 'Author', 'State', 'Layers', 'Locations', 'Created', 'Edited']);
    expect(within(rows[1]!).getByRole('link', { name: 'Harbour Mall' })).toHaveAttribute('href', '/maps/m1');
    expect(within(rows[1]!).getByText('uid-ana')).toBeInTheDocument();
    expect(within(rows[1]!).getByRole('combobox', { name: 'State of Harbour Mall' })).toHaveDisplayValue('Live');
    expect(within(rows[1]!).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(expect.arrayContaining(['2', '7']));
    expect(within(rows[1]!).getAllByRole('cell')[4]!.querySelector('time')).toHaveAttribute('datetime', '2025-01-10T12:00:00.000Z');
    expect(within(rows[2]!).getByRole('combobox', { name: 'State of Campus' })).toHaveDisplayValue('Admin');
    expect(within(rows[2]!).getByText('uid-ben')).toBeInTheDocument();
    expect(screen.getByText('Showing 2 of 3 maps')).toBeInTheDocument();
    // The table scrolls sideways on narrow screens: keyboard users can reach it.
    expect(screen.getByRole('region', { name: /Maps table/ })).toHaveAttribute('tabindex', '0');
  });

  it("changes a map's state in place (adminUpdateMap), and puts it back with the reason when refused", async () => {
    const user = userEvent.setup();
    let refuse = false;
    const fake = stubAdminApi(admin, () => page([item('m1', { title: 'Harbour Mall', state: 0 })], null, 1));
    const base = fake.fetch.getMockImplementation()!;
    fake.fetch.mockImplementation(async (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (url.endsWith('/api/fn/adminUpdateMap')) {
        fake.requests.push({ method: 'POST', path: '/api/fn/adminUpdateMap', data: JSON.parse(String(init?.body)).data, headers: {} });
        return refuse
          ? new Response(JSON.stringify({ error: { status: 'PERMISSION_DENIED', message: 'Only an admin may do this.' } }), { status: 403, headers: { 'content-type': 'application/json' } })
          : new Response(JSON.stringify({ result: null, position: '9:0' }), { headers: { 'content-type': 'application/json' } });
      }
      return base(input, init);
    });
    renderApp('/admin/maps');
    const select = await screen.findByRole('combobox', { name: 'State of Harbour Mall' });
    await user.selectOptions(select, 'Live');
    await waitFor(() => expect(fake.requests.find((request) => request.path === '/api/fn/adminUpdateMap')?.data).toEqual({ id: 'm1', state: 1 }));
    await waitFor(() => expect(select).toBeEnabled());
    expect(select).toHaveDisplayValue('Live');

    refuse = true;
    await user.selectOptions(select, 'Pro');
    expect(await screen.findByRole('alert')).toHaveTextContent('Only an admin may do this.');
    expect(select).toHaveDisplayValue('Live');
  });

  it('turns the filters into the query string, keeps them in the address, and clears them', async () => {
    const { requests } = stubAdminApi(admin, () => page([item('m1')], null, 1));
    const { router } = renderApp('/admin/maps');
    await screen.findByRole('table');
    expect(adminRequests(requests)).toEqual(['/api/admin/maps']);

    const filters = screen.getByRole('search', { name: 'Filter maps' });
    await userEvent.type(within(filters).getByLabelText('Author uid'), 'uid-ana');
    await userEvent.type(within(filters).getByLabelText('Title contains'), 'Harbour 50%');
    await userEvent.click(within(filters).getByRole('checkbox', { name: /Pro/ }));
    await userEvent.click(within(filters).getByRole('checkbox', { name: /Live/ }));
    await userEvent.type(within(filters).getByLabelText('Created from'), '2025-01-01');
    await userEvent.type(within(filters).getByLabelText('Created to'), '2025-01-31');
    await userEvent.click(within(filters).getByRole('button', { name: 'Search' }));

    const expected = '/api/admin/maps?author=uid-ana&q=Harbour+50%25&state=1%2C3&from=2025-01-01&to=2025-01-31';
    await waitFor(() => expect(adminRequests(requests)).toEqual(['/api/admin/maps', expected]));
    expect(router.state.location.search).toBe(`?${expected.split('?')[1]}`);
    const query = new URL(expected, 'http://x').searchParams;
    expect([...query.entries()]).toEqual([['author', 'uid-ana'], ['q', 'Harbour 50%'], ['state', '1,3'], ['from', '2025-01-01'], ['to', '2025-01-31']]);
    // The fields still show what is applied.
    expect(screen.getByLabelText('Author uid')).toHaveValue('uid-ana');
    expect(screen.getByRole('checkbox', { name: /Live/ })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: /Test/ })).not.toBeChecked();

    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(adminRequests(requests)).toEqual(['/api/admin/maps', expected, '/api/admin/maps']));
    expect(router.state.location.search).toBe('');
    expect(screen.getByLabelText('Author uid')).toHaveValue('');
    expect(screen.getByRole('checkbox', { name: /Live/ })).not.toBeChecked();
  });

  it('offers the five states with their labels', async () => {
    stubAdminApi(admin, () => page([], null, 0));
    renderApp('/admin/maps');
    const group = await screen.findByRole('group', { name: 'State' });
    expect(within(group).getAllByRole('checkbox').map((box) => box.closest('label')!.textContent)).toEqual([
      'Test (0)',
      'Live (1)',
      'Demo (2)',
      'Pro (3)',
      'Admin (9)',
    ]);
  });

  it('starts from filters in the address', async () => {
    const { requests } = stubAdminApi(admin, () => page([], null, 0));
    renderApp('/admin/maps?author=uid-ben&state=0,9');
    await screen.findByText('No maps found');
    expect(adminRequests(requests)).toEqual(['/api/admin/maps?author=uid-ben&state=0%2C9']);
    expect(screen.getByLabelText('Author uid')).toHaveValue('uid-ben');
    expect(screen.getByRole('checkbox', { name: /Admin/ })).toBeChecked();
    expect(screen.getByText(/No map matches these filters/)).toBeInTheDocument();
  });

  it('refuses an end date before the start date without asking the server', async () => {
    const { requests } = stubAdminApi(admin, () => page([], null, 0));
    renderApp('/admin/maps');
    await screen.findByText('No maps found');
    await userEvent.type(screen.getByLabelText('Created from'), '2025-02-01');
    await userEvent.type(screen.getByLabelText('Created to'), '2025-01-01');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(screen.getByLabelText('Created to')).toHaveAccessibleDescription(/must not be before the start date/);
    expect(adminRequests(requests)).toEqual(['/api/admin/maps']);
  });

  it('"Load more" asks with the cursor, with the same filters, and appends the next page', async () => {
    const { requests } = stubAdminApi(admin, (query) => {
      if (query.get('cursor') === 'c1') return page([item('m3'), item('m4')], 'c2', 5);
      if (query.get('cursor') === 'c2') return page([item('m5')], null, 5);
      return page([item('m1'), item('m2')], 'c1', 5);
    });
    renderApp('/admin/maps?q=map');
    await screen.findByText('Showing 2 of 5 maps');

    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Showing 4 of 5 maps')).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: /^Map m/ }).map((link) => link.textContent)).toEqual(['Map m1', 'Map m2', 'Map m3', 'Map m4']);

    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('5 maps')).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: /^Map m/ })).toHaveLength(5);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(adminRequests(requests)).toEqual(['/api/admin/maps?q=map', '/api/admin/maps?q=map&cursor=c1', '/api/admin/maps?q=map&cursor=c2']);
  });

  it('shows a spinner while loading, then the empty state', async () => {
    let answer: (value: FakeAnswer) => void = () => {};
    stubAdminApi(admin, () => new Promise((resolve) => (answer = resolve)));
    renderApp('/admin/maps');
    expect(await screen.findByRole('status', { name: 'Loading maps' })).toBeInTheDocument();
    answer(page([], null, 0));
    expect(await screen.findByRole('heading', { name: 'No maps found' })).toBeInTheDocument();
    expect(screen.getByText('No maps')).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Loading maps' })).not.toBeInTheDocument();
  });

  it("shows the server's error in an alert, and tries again", async () => {
    let fail = true;
    stubAdminApi(admin, () =>
      fail ? { status: 400, body: { error: { status: 'INVALID_ARGUMENT', message: 'from: must be an ISO date' } } } : page([item('m1')], null, 1),
    );
    renderApp('/admin/maps');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not load the maps');
    expect(alert).toHaveTextContent('from: must be an ISO date');
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: 'Map m1' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('a signed-in user who is not an admin sees the Not Found page, and no request is made', async () => {
    const { requests } = stubAdminApi(principal(), () => page([item('m1')], null, 1));
    renderApp('/admin/maps');
    expect(await screen.findByRole('heading', { level: 1, name: 'Not Found' })).toBeInTheDocument();
    expect(adminRequests(requests)).toEqual([]);
    expect(screen.queryByRole('link', { name: 'Admin' })).not.toBeInTheDocument();
  });

  it('a signed-out visitor goes to /login, carrying the page and its filters', async () => {
    stubAdminApi(null, () => page([], null, 0));
    const { router } = renderApp('/admin/maps?state=1');
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.state).toEqual({ from: { pathname: '/admin/maps', search: '?state=1', hash: '' } });
  });
});

describe('the header for an admin', () => {
  it('has an Admin link to /admin/maps, which a normal user does not', async () => {
    stubAdminApi(admin, () => page([], null, 0));
    const { unmount } = renderApp('/pricing');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    await userEvent.click(await within(nav).findByRole('link', { name: 'Admin' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'All maps' })).toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Admin' })).toHaveAttribute('aria-current', 'page');
    unmount();

    stubAdminApi(principal(), () => page([], null, 0));
    renderApp('/pricing');
    const userNav = screen.getByRole('navigation', { name: 'Main' });
    expect(await within(userNav).findByRole('link', { name: 'Maps' })).toBeInTheDocument();
    expect(within(userNav).queryByRole('link', { name: 'Admin' })).not.toBeInTheDocument();
  });
});
