/**
 * Analytics (spec §2): a page_view with the path on every route change, through the port; the
 * local recorder always, PostHog only when the server has a key AND the visitor accepted, and
 * then only the events logged after the Accept. posthog-js-lite is mocked at its module boundary
 * (the sink loads it with a dynamic import, which vi.mock covers).
 */
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClientConfigCache } from '../../client/src/features/consent/api/get-client-config';
import { consentStore } from '../../client/src/features/consent/consent-store';
import { posthogBridge } from '../../client/src/features/consent/posthog-bridge';
import { addAnalyticsSink, recentEvents } from '../../client/src/lib/analytics';
import { authRoutes, renderApp, stubFetch } from './support/fakes';

const posthog = vi.hoisted(() => {
  let optedOut = false;
  return {
    /** The client's construction (`new PostHog(key, options)`). */
    init: vi.fn(),
    capture: vi.fn(),
    reset: vi.fn(),
    optOut: vi.fn(async () => {
      optedOut = true;
    }),
    optIn: vi.fn(async () => {
      optedOut = false;
    }),
    get optedOut() {
      return optedOut;
    },
  };
});
vi.mock('posthog-js-lite', () => {
  class PostHog {
    constructor(key: string, options: unknown) {
      posthog.init(key, options);
    }
    capture = posthog.capture;
    reset = posthog.reset;
    optOut = posthog.optOut;
    optIn = posthog.optIn;
    get optedOut() {
      return posthog.optedOut;
    }
  }
  return { PostHog, default: PostHog };
});

const POSTHOG = { key: 'phc_live_key', host: 'https://eu.i.posthog.com' };

function serverWith(posthogSettings: typeof POSTHOG | null) {
  return stubFetch({
    ...authRoutes(null),
    'GET /api/client-config': () => ({ body: { result: { analytics: { posthog: posthogSettings } } } }),
  });
}

function pageViews(): string[] {
  return recentEvents()
    .filter((event) => event.name === 'page_view')
    .map((event) => String(event.params.path));
}

beforeEach(() => {
  window.localStorage.clear();
  consentStore.reload();
  resetClientConfigCache();
  vi.clearAllMocks();
});

afterEach(() => {
  // The bridge is the page's singleton: back to "not chosen" for the next test.
  posthogBridge.update(null);
  vi.unstubAllGlobals();
});

describe('page_view', () => {
  it('is logged with the path on the first page and on every route change', async () => {
    serverWith(null);
    // Counted as they are logged: the local recorder keeps only the last 50 of the page's events,
    // and other files' tests may have filled it (a worker's files share one page).
    const views: string[] = [];
    const stop = addAnalyticsSink((event) => {
      if (event.name === 'page_view') views.push(String(event.params.path));
    });
    try {
      const { router } = renderApp('/pricing');
      await screen.findByRole('heading', { level: 1 });
      await act(() => router.navigate('/contact'));
      // A route change completes once its page has loaded (a change made before that replaces it).
      await screen.findByRole('heading', { level: 1, name: /Contact us/ });
      await act(() => router.navigate('/case-study/retail'));
      await waitFor(() => expect(views).toEqual(['/pricing', '/contact', '/case-study/retail']));
      // The local recorder has them too, as the last three.
      expect(pageViews().slice(-3)).toEqual(['/pricing', '/contact', '/case-study/retail']);
    } finally {
      stop();
    }
  });
});

describe('PostHog', () => {
  it('with a key but no choice yet: not loaded, not even asked about', async () => {
    const { requests } = serverWith(POSTHOG);
    const { router } = renderApp('/');
    await screen.findByRole('region', { name: 'Cookie consent' });
    await act(() => router.navigate('/pricing'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(posthog.init).not.toHaveBeenCalled();
    expect(posthog.capture).not.toHaveBeenCalled();
    expect(requests.some((request) => request.path === '/api/client-config')).toBe(false);
    // The essential local recording goes on.
    expect(pageViews().at(-1)).toBe('/pricing');
  });

  it('after Accept: loaded with our settings, and sent only what happens from then on', async () => {
    serverWith(POSTHOG);
    const { router } = renderApp('/pricing');
    await userEvent.click(await screen.findByRole('button', { name: 'Accept' }));
    await waitFor(() => expect(posthog.init).toHaveBeenCalledTimes(1));
    expect(posthog.init).toHaveBeenCalledWith(
      POSTHOG.key,
      expect.objectContaining({
        host: POSTHOG.host,
        captureHistoryEvents: false,
        autocapture: false,
        preloadFeatureFlags: false,
        disableRemoteConfig: true,
        personProfiles: 'identified_only',
      }),
    );
    expect(screen.queryByRole('region', { name: 'Cookie consent' })).not.toBeInTheDocument();

    await act(() => router.navigate('/contact'));
    await waitFor(() => expect(posthog.capture).toHaveBeenCalledWith('$pageview', expect.objectContaining({ path: '/contact', $pathname: '/contact' })));
    // The /pricing view happened before consent: never sent.
    expect(posthog.capture.mock.calls.map(([, properties]) => (properties as { path: string }).path)).toEqual(['/contact']);
  });

  it('after Accept on a server without a key: nothing is loaded', async () => {
    serverWith(null);
    const { router } = renderApp('/');
    await userEvent.click(await screen.findByRole('button', { name: 'Accept' }));
    await act(() => router.navigate('/pricing'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(posthog.init).not.toHaveBeenCalled();
  });

  it('a visitor who accepted earlier has the first page view of the visit sent', async () => {
    consentStore.choose('accepted');
    serverWith(POSTHOG);
    renderApp('/wayfinding');
    await waitFor(() => expect(posthog.capture).toHaveBeenCalledWith('$pageview', expect.objectContaining({ path: '/wayfinding' })));
    expect(screen.queryByRole('region', { name: 'Cookie consent' })).not.toBeInTheDocument();
  });

  it('Decline is remembered: no PostHog, no banner on the next visit', async () => {
    serverWith(POSTHOG);
    const first = renderApp('/');
    await userEvent.click(await screen.findByRole('button', { name: 'Decline' }));
    expect(screen.queryByRole('region', { name: 'Cookie consent' })).not.toBeInTheDocument();
    first.unmount();

    consentStore.reload(); // a new page load reads the stored choice
    expect(consentStore.getSnapshot().choice).toBe('declined');
    const { router } = renderApp('/pricing');
    await screen.findByRole('heading', { level: 1 });
    await act(() => router.navigate('/contact'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('region', { name: 'Cookie consent' })).not.toBeInTheDocument();
    expect(posthog.init).not.toHaveBeenCalled();
  });

  it('withdrawing consent from Cookie settings stops PostHog', async () => {
    consentStore.choose('accepted');
    serverWith(POSTHOG);
    const { router } = renderApp('/pricing');
    await waitFor(() => expect(posthog.init).toHaveBeenCalled());
    await userEvent.click(screen.getByRole('button', { name: 'Cookie settings' }));
    const banner = await screen.findByRole('region', { name: 'Cookie consent' });
    expect(banner).toHaveTextContent('You have accepted analytics.');
    await userEvent.click(screen.getByRole('button', { name: 'Decline' }));
    expect(posthog.optOut).toHaveBeenCalledTimes(1);
    posthog.capture.mockClear();
    await act(() => router.navigate('/contact'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(posthog.capture).not.toHaveBeenCalled();
    expect(consentStore.getSnapshot().choice).toBe('declined');
  });
});
