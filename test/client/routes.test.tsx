import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SCROLL_TO_TOP_DELAY_MS } from '../../client/src/app/layout/route-effects';
import { addAnalyticsSink, type AnalyticsEvent } from '../../client/src/lib/analytics';
import { browser } from '../../client/src/lib/browser';
import { config } from '../../client/src/lib/config';
import { paths } from '../../client/src/lib/paths';
import { emptyMapDocument } from '../../events/map-document';
import { authRoutes, principal, renderApp, stubFetch } from './support/fakes';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const mapRecord = (id: string) => ({
  body: { result: { id, title: `Map ${id}`, data: { version: 1, layers: [], locations: [] }, revision: '0' }, position: '1:0' },
});

describe('the route table (spec §2)', () => {
  const inLayout: [string, RegExp][] = [
    ['/', /Custom interactive maps/],
    ['/maps', /Your maps/],
    ['/maps/new', /New map/],
    ['/account', /Account/],
    ['/subscribe', /Pick your plan/],
    ['/case-study/real-estate', /site plan buyers can explore/],
    ['/case-study/retail', /store directory/i],
    ['/case-study/geographic', /Regions and places/],
    ['/wayfinding', /Get every visitor to the right door/],
    ['/pricing', /Simple pricing/],
    ['/estimate', /Estimate your cost/],
    ['/contact', /Contact us/],
    ['/agreement', /Service Agreement/],
    ['/privacy', /Privacy Policy/],
    ['/terms', /Terms & Conditions/],
  ];

  it.each(inLayout)('%s renders its page inside the main layout for a signed-in user', async (path, heading) => {
    stubFetch({ ...authRoutes(principal()), 'GET /api/maps/abc/data': () => mapRecord('abc') });
    renderApp(path);

    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Not Found' })).not.toBeInTheDocument();
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
  });

  it.each([
    ['/login', 'Welcome back'],
    ['/register', 'Create your account'],
    ['/reset', 'Reset your password'],
  ])('%s renders for a signed-out visitor', async (path, heading) => {
    stubFetch(authRoutes(null));
    renderApp(path);
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
  });

  it('/register has labelled display name, email and password fields', async () => {
    stubFetch(authRoutes(null));
    renderApp('/register');
    expect(await screen.findByLabelText('Display name')).toHaveAttribute('autocomplete', 'name');
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
  });

  it('/m/:id is outside the main layout', async () => {
    stubFetch({
      ...authRoutes(null),
      'GET /api/public/maps/xyz': () => ({ body: { result: { id: 'xyz', title: 'Map xyz', state: 1, data: emptyMapDocument(), revision: '0', test: false } } }),
    });
    renderApp('/m/xyz');
    expect(await screen.findByRole('heading', { level: 1, name: 'Map xyz' })).toBeInTheDocument();
    expect(screen.queryByRole('banner')).not.toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
  });

  it.each([
    ['/docs', config.docsUrl],
    ['/routes', config.routesUrl],
  ])('%s sends the browser to the configured external address', async (path, url) => {
    const replace = vi.spyOn(browser, 'replaceLocation').mockImplementation(() => {});
    stubFetch(authRoutes(null));
    renderApp(path);
    await waitFor(() => expect(replace).toHaveBeenCalledWith(url));
    expect(url).toMatch(/^https:\/\//);
    expect(screen.getByRole('link', { name: 'open it here' })).toHaveAttribute('href', url);
  });

  it('/maps/{id} opens the editor inside the main layout, filling the window without a footer', async () => {
    stubFetch({ ...authRoutes(principal()), 'GET /api/maps/abc/data': () => mapRecord('abc') });
    renderApp('/maps/abc');
    expect(await screen.findByRole('textbox', { name: 'Map title' })).toHaveValue('Map abc');
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.queryByRole('contentinfo')).not.toBeInTheDocument();
  });

  it('/demo redirects to the demo map under /maps/{id}, open for exploring', async () => {
    const demo = config.demoMapId;
    stubFetch({ ...authRoutes(null), [`GET /api/public/maps/${demo}`]: () => ({ body: { result: { ...mapRecord(demo).body.result, state: 2, test: false } } }) });
    const { router } = renderApp('/demo');
    await waitFor(() => expect(router.state.location.pathname).toBe(`/maps/${demo}`));
    expect(await screen.findByText(`You are exploring Map ${demo}.`)).toBeInTheDocument();
  });

  it('paths table holds every route of the spec', () => {
    const all = Object.values(paths).map((value) => (typeof value === 'string' ? value : value.pattern));
    expect(all.sort()).toEqual(
      [
        '/', '/login', '/reset', '/register', '/maps', '/maps/new', '/maps/:id', '/account', '/subscribe',
        // Admins only (spec §6): every map, queried by author.
        '/admin/maps',
        '/case-study/real-estate', '/case-study/retail', '/case-study/geographic', '/wayfinding', '/pricing',
        '/estimate', '/contact', '/agreement', '/privacy', '/terms', '/docs', '/routes', '/demo', '/m/:id',
        // Not in the spec's table: the e-mailed verification link, and Clerk's return from Google.
        '/verify-email', '/sso-callback',
        // Issue 16: the link in an invitation e-mail.
        '/invitations/:token',
      ].sort(),
    );
  });
});

describe('route changes', () => {
  it(`log a page_view with the path and scroll to the top ${SCROLL_TO_TOP_DELAY_MS} ms later`, async () => {
    const events: AnalyticsEvent[] = [];
    const stop = addAnalyticsSink((event) => events.push(event));
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    stubFetch(authRoutes(null));
    renderApp('/');
    await within(screen.getByRole('banner')).findByRole('link', { name: 'Login' });
    await waitFor(() => expect(scrollTo).toHaveBeenCalled(), { timeout: 10_000 });
    scrollTo.mockClear();

    const clicked = Date.now();
    await userEvent.click(screen.getAllByRole('link', { name: 'Pricing' })[0]!);
    await screen.findByRole('heading', { level: 1, name: /Simple pricing/ });
    // Only the lower bound is checked: the page is a lazy chunk, and on a loaded machine it may
    // arrive after the delay has run out, so "not yet scrolled" cannot be asserted here.
    await waitFor(() => expect(scrollTo).toHaveBeenCalledWith({ top: 0, left: 0 }), { timeout: 10_000 });
    expect(Date.now() - clicked).toBeGreaterThanOrEqual(SCROLL_TO_TOP_DELAY_MS - 10);

    expect(events.filter((e) => e.name === 'page_view').map((e) => e.params.path)).toEqual(['/', '/pricing']);
    stop();
  });
});
