/**
 * The subscribe modal in the whole app (spec §2 Subscribe modal, §4 checkout and manage flows):
 * fetch stubbed at the boundary, the `billing:{uid}` topic driven by the fake live client, and
 * the browser's navigation to Stripe spied on.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BillingSnapshot, SubscriptionView } from '../../events/billing-api';
import { topics } from '../../events/topics';
import { browser } from '../../client/src/lib/browser';
import { config } from '../../client/src/lib/config';
import { authRoutes, principal, renderApp, stubFetch } from './support/fakes';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const user = principal({ uid: 'u1' });
const topic = topics.billing('u1');

function snapshot(overrides: Partial<BillingSnapshot> = {}): BillingSnapshot {
  return {
    subscriptions: [],
    licences: [],
    checkoutSessions: [],
    slots: { basic: { used: 0, total: 0 }, pro: { used: 0, total: 0 }, test: { used: 1, total: 2 } },
    notices: [],
    ...overrides,
  };
}

function subscription(overrides: Partial<SubscriptionView> & Pick<SubscriptionView, 'plan'>): SubscriptionView {
  return {
    id: `sub-${overrides.plan}`,
    status: 'active',
    quantity: 3,
    cancelAt: null,
    product: `prod-${overrides.plan}`,
    priceId: `price-${overrides.plan}`,
    interval: 'monthly',
    currentPeriodEnd: '2026-12-23T00:00:00.000Z',
    ...overrides,
  };
}

const card = (name: 'Basic' | 'Professional') => within(screen.getByRole('article', { name }));
/** The card's price per map ('$10'), not the total beside the stepper. */
const price = (name: 'Basic' | 'Professional') => screen.getByRole('article', { name }).querySelector('.plan-card__price')?.textContent;

async function openModal(path = '/pricing#subscribe', routes: Parameters<typeof stubFetch>[0] = {}) {
  const fake = stubFetch({ ...authRoutes(user), ...routes });
  const view = renderApp(path);
  const dialog = await screen.findByRole('dialog', { name: 'Pick your plan' });
  await waitFor(() => expect(view.live.listeners.get(topic)?.size).toBe(1));
  return { ...view, dialog, requests: fake.requests };
}

describe('the subscribe modal', () => {
  it('opens on #subscribe over any page, fullscreen, with its title and subtitle', async () => {
    const { dialog, live } = await openModal();
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(dialog).toHaveAccessibleDescription('Start or manage subscription');
    expect(dialog).toHaveFocus();
    act(() => live.emit(topic, snapshot(), '4:0'));
    expect(await card('Basic').findByRole('button', { name: 'Subscribe' })).toBeEnabled();
    expect(card('Professional').getByRole('button', { name: 'Subscribe' })).toBeEnabled();
    // The questions and the footnote.
    for (const question of ['How do I cancel?', 'Why does each map need a licence?', 'Can I have both plans?', 'Are there discounts?', 'Can I get a refund?']) {
      expect(within(dialog).getByText(question)).toBeInTheDocument();
    }
    expect(within(dialog).getByText(/Each map requires a software licence bought through a marketplace\. Slots only work with registered maps\./)).toBeInTheDocument();
  });

  it('says what a slot needs before the card: a registered licence per map, and where it is sold', async () => {
    const { dialog } = await openModal();
    const notice = within(dialog).getByRole('region', { name: 'Before you subscribe: a licence for each map' });
    expect(notice).toHaveTextContent('Each map requires a software licence bought through a marketplace, and slots only work with registered maps.');
    expect(notice).toHaveTextContent('Register its purchase code in the map’s Publish panel: the map gets 6 months of Basic, no slot needed.');
    const buy = within(notice).getByRole('link', { name: /Buy a licence on the marketplace/ });
    expect(buy).toHaveAttribute('href', config.marketplaceUrl);
    expect(buy).toHaveAttribute('target', '_blank');
    // Before the plans, in reading order.
    const firstCard = within(dialog).getAllByRole('article')[0]!;
    expect(notice.compareDocumentPosition(firstCard) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    // The footnote links there too.
    expect(within(dialog).getByRole('link', { name: /^Buy a licence \(opens the marketplace/ })).toHaveAttribute('href', config.marketplaceUrl);
  });

  it('is not there without the fragment', async () => {
    stubFetch(authRoutes(user));
    renderApp('/pricing');
    await screen.findByRole('link', { name: /Account settings/ });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('sends a signed-out visitor to /login, carrying the page and fragment', async () => {
    stubFetch(authRoutes(null));
    const { router } = renderApp('/pricing#subscribe');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.state).toEqual({ from: { pathname: '/pricing', search: '', hash: '#subscribe' } });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('stays open on a click outside its content; Esc and Close close it and remove the fragment', async () => {
    const user = userEvent.setup();
    const { router } = await openModal('/account#subscribe');
    await user.click(screen.getByTestId('subscribe-overlay'));
    expect(screen.getByRole('dialog', { name: 'Pick your plan' })).toBeInTheDocument();

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(router.state.location).toMatchObject({ pathname: '/account', hash: '' });

    // The account page's subscription section opens it again.
    await user.click(screen.getByRole('link', { name: 'Manage subscription' }));
    expect(await screen.findByRole('dialog', { name: 'Pick your plan' })).toBeInTheDocument();
    expect(router.state.location.hash).toBe('#subscribe');
    await user.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(router.state.location).toMatchObject({ pathname: '/account', hash: '' });
  });

  it('switches each card between monthly and annual prices, and totals the quantity', async () => {
    const user = userEvent.setup();
    const { live } = await openModal();
    act(() => live.emit(topic, snapshot(), '4:0'));
    expect(price('Basic')).toBe('$10/mo per map');
    expect(card('Basic').getByText('/mo per map')).toBeInTheDocument();
    expect(price('Professional')).toBe('$28/mo per map');

    await user.click(card('Basic').getByRole('radio', { name: 'Annual' }));
    expect(price('Basic')).toBe('$8/mo per map');
    expect(price('Professional')).toBe('$28/mo per map');
    await user.click(card('Professional').getByRole('radio', { name: 'Annual' }));
    expect(price('Professional')).toBe('$24/mo per map');

    // Three Basic maps billed annually: $8 × 3 × 12.
    await user.click(card('Basic').getByRole('button', { name: 'Increase number of maps' }));
    await user.click(card('Basic').getByRole('button', { name: 'Increase number of maps' }));
    expect(card('Basic').getByRole('spinbutton', { name: 'Number of maps' })).toHaveValue('3');
    expect(card('Basic').getByText('$288')).toBeInTheDocument();
    expect(card('Basic').getByRole('button', { name: 'Decrease number of maps' })).toBeEnabled();
  });

  it("shows 'Starting...' while checkout starts, then goes to the session's url", async () => {
    const user = userEvent.setup();
    const assign = vi.spyOn(browser, 'assignLocation').mockImplementation(() => {});
    const { live, requests } = await openModal('/pricing#subscribe', {
      'POST /api/fn/startCheckout': () => ({ body: { result: { sessionId: 'cs-1' } } }),
    });
    act(() => live.emit(topic, snapshot(), '4:0'));
    await user.click(card('Professional').getByRole('radio', { name: 'Annual' }));
    await user.click(card('Professional').getByRole('button', { name: 'Subscribe' }));
    const starting = card('Professional').getByRole('button', { name: 'Starting...' });
    expect(starting).toBeDisabled();
    await waitFor(() => expect(requests.filter((request) => request.path === '/api/fn/startCheckout').map((request) => request.data)).toEqual([{ plan: 'professional', interval: 'yearly', quantity: 1 }]));

    const session = { id: 'cs-1', plan: 'professional', interval: 'yearly', quantity: 1, status: 'pending', url: null, error: null, createdAt: '2026-11-23T10:00:00.000Z' } as const;
    act(() => live.emit(topic, snapshot({ checkoutSessions: [session] }), '5:0'));
    expect(card('Professional').getByRole('button', { name: 'Starting...' })).toBeDisabled();
    act(() => live.emit(topic, snapshot({ checkoutSessions: [{ ...session, status: 'ready', url: 'https://checkout.stripe.com/c/pay/cs-1' }] }), '6:0'));
    await waitFor(() => expect(assign).toHaveBeenCalledExactlyOnceWith('https://checkout.stripe.com/c/pay/cs-1'));
    // Basic's card was never busy.
    expect(card('Basic').getByRole('button', { name: 'Subscribe' })).toBeEnabled();
  });

  it("stops loading when the session's error arrives, and says 'Error: something happened.' when the request fails", async () => {
    const user = userEvent.setup();
    let fail = false;
    const { live } = await openModal('/pricing#subscribe', {
      'POST /api/fn/startCheckout': () => (fail ? { status: 500, body: { error: { status: 'INTERNAL', message: 'Internal error.' } } } : { body: { result: { sessionId: 'cs-2' } } }),
    });
    act(() => live.emit(topic, snapshot(), '4:0'));
    await user.click(card('Basic').getByRole('button', { name: 'Subscribe' }));
    const failed = { id: 'cs-2', plan: 'basic', interval: 'monthly', quantity: 1, status: 'failed', url: null, error: 'Stripe is not configured.', createdAt: '2026-11-23T10:00:00.000Z' } as const;
    // Whether this snapshot comes before or after startCheckout answers, the card sees it.
    act(() => live.emit(topic, snapshot({ checkoutSessions: [failed] }), '5:0'));
    expect(await card('Basic').findByRole('alert')).toHaveTextContent('Stripe is not configured.');
    expect(card('Basic').getByRole('button', { name: 'Subscribe' })).toBeEnabled();

    fail = true;
    await user.click(card('Basic').getByRole('button', { name: 'Subscribe' }));
    await waitFor(() => expect(card('Basic').getByRole('alert')).toHaveTextContent('Error: something happened.'));
    expect(card('Basic').getByRole('button', { name: 'Subscribe' })).toBeEnabled();
  });

  it('shows a subscriber the Active or Canceled badge, the slots and Manage, which opens the billing portal', async () => {
    const user = userEvent.setup();
    const assign = vi.spyOn(browser, 'assignLocation').mockImplementation(() => {});
    const { live, requests } = await openModal('/pricing#subscribe', {
      'POST /api/fn/createPortalLink': () => ({ body: { result: { url: 'https://billing.stripe.com/p/session/u1' } } }),
    });
    act(() =>
      live.emit(
        topic,
        snapshot({
          subscriptions: [subscription({ plan: 'basic', interval: 'yearly' }), subscription({ plan: 'professional', quantity: 12, cancelAt: '2027-01-15T00:00:00.000Z' })],
          slots: { basic: { used: 1, total: 3 }, pro: { used: 10, total: 12 }, test: { used: 2, total: 2 } },
        }),
        '4:0',
      ),
    );
    expect(await card('Basic').findByText('Active')).toBeInTheDocument();
    expect(card('Basic').queryByText('Canceled')).not.toBeInTheDocument();
    expect(card('Basic').getByRole('meter', { name: 'Basic slots' })).toHaveAttribute('aria-valuenow', '1');
    expect(card('Basic').getByText('1/3')).toBeInTheDocument();
    // The toggle follows the interval the subscriber pays by.
    expect(price('Basic')).toBe('$8/mo per map');
    expect(card('Basic').getByText(/3 maps, billed annually/)).toBeInTheDocument();
    expect(card('Professional').getByText('Canceled')).toBeInTheDocument();
    expect(card('Professional').getByText(/^Ends /)).toBeInTheDocument();
    expect(card('Professional').getByRole('meter', { name: 'Pro slots' })).toHaveAttribute('aria-valuemax', '12');
    expect(card('Professional').queryByRole('button', { name: 'Subscribe' })).not.toBeInTheDocument();

    await user.click(card('Basic').getByRole('button', { name: 'Manage' }));
    await waitFor(() => expect(assign).toHaveBeenCalledExactlyOnceWith('https://billing.stripe.com/p/session/u1'));
    expect(requests.find((request) => request.path === '/api/fn/createPortalLink')?.data).toEqual({ returnUrl: `${window.location.origin}/maps#subscribe` });
  });

  it('shows why the billing portal could not open', async () => {
    const user = userEvent.setup();
    const { live } = await openModal('/pricing#subscribe', {
      'POST /api/fn/createPortalLink': () => ({ status: 503, body: { error: { status: 'UNAVAILABLE', message: 'Billing is not configured on this server.' } } }),
    });
    act(() => live.emit(topic, snapshot({ subscriptions: [subscription({ plan: 'basic' })], slots: { basic: { used: 0, total: 3 }, pro: { used: 0, total: 0 }, test: { used: 0, total: 2 } } }), '4:0'));
    await user.click(await card('Basic').findByRole('button', { name: 'Manage' }));
    expect(await card('Basic').findByRole('alert')).toHaveTextContent('Billing is not configured on this server.');
    expect(card('Basic').getByRole('button', { name: 'Manage' })).toBeEnabled();
  });
});
