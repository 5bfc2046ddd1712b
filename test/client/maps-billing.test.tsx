/**
 * The maps page's billing parts: a state badge per map, the Basic, Pro and Test slots from
 * `billing:{uid}`, the maps the server unpublished when slots shrank (dismissible, remembered in
 * this browser), and the licence guide after the landing page's marketplace offer.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BillingSnapshot, UnpublishNotice } from '../../events/billing-api';
import type { MapListItem } from '../../events/read-models';
import { topics } from '../../events/topics';
import { DISMISSED_NOTICES_KEY } from '../../client/src/features/maps/components/unpublish-notices';
import { authRoutes, principal, renderApp, stubFetch } from './support/fakes';

beforeEach(() => localStorage.clear());
afterEach(() => vi.unstubAllGlobals());

const user = principal({ uid: 'u1' });
const mapsTopic = topics.maps('u1');
const billingTopic = topics.billing('u1');

function item(overrides: Partial<MapListItem> & Pick<MapListItem, 'id' | 'title'>): MapListItem {
  return {
    uid: 'u1',
    author: 'u1',
    created: '2026-03-02T10:00:00.000Z',
    edited: '2026-03-05T16:30:00.000Z',
    state: 0,
    subscribed: false,
    metrics: { layerCount: 1, locationCount: 3 },
    history: [],
    ...overrides,
  };
}

function billing(notices: UnpublishNotice[] = []): BillingSnapshot {
  return {
    subscriptions: [],
    licences: [],
    checkoutSessions: [],
    slots: { basic: { used: 2, total: 3 }, pro: { used: 1, total: 1 }, test: { used: 1, total: 2 } },
    notices,
  };
}

const cafe: UnpublishNotice = { mapId: 'cafe', title: 'Cafe map', reason: 'Your Basic subscription was canceled.', at: '2026-11-20T09:00:00.000Z' };
const mall: UnpublishNotice = { mapId: 'mall', title: 'Riverside Mall', reason: 'your Pro slots went down to 0.', at: '2026-11-21T09:00:00.000Z' };

async function openMaps(path = '/maps') {
  stubFetch({ ...authRoutes(user), 'GET /api/maps': () => new Promise<never>(() => {}) });
  const view = renderApp(path);
  await screen.findByRole('heading', { level: 1, name: 'Your maps' });
  await waitFor(() => expect(view.live.listeners.get(billingTopic)?.size).toBeGreaterThan(0));
  return view;
}

describe('the maps page with billing', () => {
  it('badges each map Test, Live or Pro, and says on hover what a live map runs on', async () => {
    const { live } = await openMaps();
    live.emit(
      mapsTopic,
      [
        item({ id: 'a', title: 'Cafe map', state: 0 }),
        item({ id: 'b', title: 'Head office', state: 1, subscribed: true }),
        item({ id: 'c', title: 'Harbour', state: 1, subscribed: false }),
        item({ id: 'd', title: 'Campus', state: 3, subscribed: true }),
      ],
      '6:0',
    );
    const cards = within(await screen.findByRole('list', { name: 'Your maps' })).getAllByRole('article');
    const badges = cards.map((card) => card.querySelector('.state-badge')!);
    expect(badges.map((badge) => badge.textContent)).toEqual(['Test', 'Live', 'Live', 'Pro']);
    expect(badges.map((badge) => badge.getAttribute('title'))).toEqual(['Test map: only you can see it', 'Live in a Basic slot', 'Live with licence', 'Live in a Pro slot']);
  });

  it('shows Basic, Pro and Test usage once the billing topic answers', async () => {
    const { live } = await openMaps();
    live.emit(mapsTopic, [item({ id: 'a', title: 'Cafe map' })], '6:0');
    // Before the slots arrive, the free test maps counted from the list.
    expect(await screen.findByText(/Free test maps/)).toHaveTextContent('1/2');

    live.emit(billingTopic, billing(), '6:0');
    expect(await screen.findByRole('meter', { name: 'Basic slots' })).toHaveAttribute('aria-valuetext', '2 of 3 basic slots used');
    expect(screen.getByRole('meter', { name: 'Pro slots' })).toHaveAttribute('aria-valuetext', '1 of 1 pro slots used');
    expect(screen.getByRole('meter', { name: 'Free test slots' })).toHaveAttribute('aria-valuetext', '1 of 2 free test slots used');
    expect(screen.getByRole('link', { name: 'Add slots' })).toHaveAttribute('href', '/subscribe');
  });

  it('lists the maps the server unpublished, and remembers a dismissal by map and time', async () => {
    const { live, unmount } = await openMaps();
    live.emit(mapsTopic, [], '6:0');
    live.emit(billingTopic, billing([cafe, mall]), '6:0');

    const notices = await screen.findByRole('list', { name: 'Maps taken out of their slots' });
    expect(within(notices).getAllByRole('alert').map((notice) => notice.textContent)).toEqual([
      '“Cafe map” left its slot: your Basic subscription was canceled.',
      '“Riverside Mall” left its slot: your Pro slots went down to 0.',
    ]);

    await userEvent.setup().click(screen.getByRole('button', { name: 'Dismiss the notice about “Cafe map”' }));
    expect(within(notices).getAllByRole('alert').map((notice) => notice.textContent)).toEqual(['“Riverside Mall” left its slot: your Pro slots went down to 0.']);
    expect(JSON.parse(localStorage.getItem(DISMISSED_NOTICES_KEY)!)).toEqual(['cafe@2026-11-20T09:00:00.000Z']);
    unmount();

    // Another visit: the dismissed notice stays away, a newer one about the same map shows.
    const again = await openMaps();
    again.live.emit(mapsTopic, [], '7:0');
    again.live.emit(billingTopic, billing([cafe, mall, { ...cafe, at: '2026-11-22T09:00:00.000Z' }]), '7:0');
    const list = await screen.findByRole('list', { name: 'Maps taken out of their slots' });
    expect(within(list).getAllByRole('alert')).toHaveLength(2);
    expect(within(list).getAllByRole('alert')[0]).toHaveTextContent('Riverside Mall');
  });

  it('guides a visitor from the marketplace offer to the purchase code form, offering a first map', async () => {
    const { live, router } = await openMaps('/maps?licence=1');
    const guide = screen.getByRole('region', { name: 'Register your purchase code' });
    expect(guide).toHaveTextContent('Open a map, then Publish → Register a purchase code.');
    live.emit(mapsTopic, [], '6:0');
    expect(await within(guide).findByRole('link', { name: 'Create a map' })).toHaveAttribute('href', '/maps/new');

    await userEvent.setup().click(within(guide).getByRole('button', { name: 'Close the guide' }));
    expect(screen.queryByRole('region', { name: 'Register your purchase code' })).not.toBeInTheDocument();
    expect(router.state.location.search).toBe('');
  });

  it('leaves out the create button for someone who has maps, and the guide without the flag', async () => {
    const { live } = await openMaps('/maps?licence=1');
    live.emit(mapsTopic, [item({ id: 'a', title: 'Cafe map' })], '6:0');
    await screen.findByRole('list', { name: 'Your maps' });
    expect(within(screen.getByRole('region', { name: 'Register your purchase code' })).queryByRole('link', { name: 'Create a map' })).not.toBeInTheDocument();
  });
});

describe('the marketplace offer', () => {
  it('takes a signed-out visitor to sign up with the licence flag, which sign-up carries to /maps', async () => {
    stubFetch(authRoutes(null));
    const { router } = renderApp('/');
    const offer = await screen.findByRole('link', { name: 'Get free access →' });
    expect(offer).toHaveAttribute('href', '/register?licence=1');
    expect(offer.closest('.promo-banner')).toHaveTextContent('Bought Mapfold on a marketplace? Register your purchase code for 6 months of Basic, free, for that map.');
    expect(router.state.location.pathname).toBe('/');
  });

  it('sends a signed-in visitor of /register?licence=1 on to /maps?licence=1', async () => {
    stubFetch({ ...authRoutes(user), 'GET /api/maps': () => new Promise<never>(() => {}) });
    const { router } = renderApp('/register?licence=1');
    await screen.findByRole('heading', { level: 1, name: 'Your maps' });
    expect(router.state.location.pathname).toBe('/maps');
    expect(router.state.location.search).toBe('?licence=1');
    expect(screen.getByRole('region', { name: 'Register your purchase code' })).toBeInTheDocument();
  });
});
