/**
 * The consent banner: asked before anything non-essential is tracked, Accept and Decline
 * alike, reachable by keyboard, a named region with the privacy link; the choice kept in
 * localStorage under a version (a new version asks again); changed later from the footer.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONSENT_STORAGE_KEY, CONSENT_VERSION, consentStore } from '../../client/src/features/consent/consent-store';
import { posthogBridge } from '../../client/src/features/consent/posthog-bridge';
import { authRoutes, principal, renderApp, stubFetch } from './support/fakes';

beforeEach(() => {
  window.localStorage.clear();
  consentStore.reload();
});

afterEach(() => {
  posthogBridge.update(null);
  vi.unstubAllGlobals();
});

describe('the consent banner', () => {
  it('asks a first-time visitor, in a named region with real copy and the privacy link', async () => {
    stubFetch(authRoutes(null));
    renderApp('/');
    const banner = await screen.findByRole('region', { name: 'Cookie consent' });
    expect(banner).toHaveTextContent('We use cookies and similar tech for analytics');
    expect(within(banner).getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy');
  });

  it('gives Accept and Decline the same prominence', async () => {
    stubFetch(authRoutes(null));
    renderApp('/pricing');
    const banner = await screen.findByRole('region', { name: 'Cookie consent' });
    const accept = within(banner).getByRole('button', { name: 'Accept' });
    const decline = within(banner).getByRole('button', { name: 'Decline' });
    expect(accept.className).toBe(decline.className);
  });

  it('is reachable and usable by keyboard alone', async () => {
    stubFetch(authRoutes(null));
    renderApp('/contact');
    const banner = await screen.findByRole('region', { name: 'Cookie consent' });
    const user = userEvent.setup();
    const accept = within(banner).getByRole('button', { name: 'Accept' });
    for (let i = 0; i < 200 && document.activeElement !== accept; i++) await user.tab();
    expect(accept).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('region', { name: 'Cookie consent' })).not.toBeInTheDocument();
    expect(consentStore.getSnapshot().choice).toBe('accepted');
  });

  it('stores the choice with its version and time, and does not ask again', async () => {
    stubFetch(authRoutes(null));
    const first = renderApp('/');
    await userEvent.click(await screen.findByRole('button', { name: 'Decline' }));
    const stored = JSON.parse(window.localStorage.getItem(CONSENT_STORAGE_KEY) ?? 'null') as { version: number; choice: string; decidedAt: string };
    expect(stored).toMatchObject({ version: CONSENT_VERSION, choice: 'declined' });
    expect(Number.isNaN(Date.parse(stored.decidedAt))).toBe(false);
    first.unmount();

    consentStore.reload();
    renderApp('/pricing');
    await screen.findByRole('contentinfo');
    expect(screen.queryByRole('region', { name: 'Cookie consent' })).not.toBeInTheDocument();
  });

  it('asks again when the stored choice is from an older version, or unreadable', async () => {
    stubFetch(authRoutes(null));
    window.localStorage.setItem(CONSENT_STORAGE_KEY, JSON.stringify({ version: CONSENT_VERSION - 1, choice: 'accepted', decidedAt: '2025-01-01T00:00:00Z' }));
    consentStore.reload();
    expect(consentStore.getSnapshot().choice).toBeNull();
    window.localStorage.setItem(CONSENT_STORAGE_KEY, '{not json');
    consentStore.reload();
    renderApp('/');
    expect(await screen.findByRole('region', { name: 'Cookie consent' })).toBeInTheDocument();
  });

  it.each(['/', '/login'])('can be reopened from the footer on %s to change the choice', async (path) => {
    consentStore.choose('declined');
    stubFetch(authRoutes(null));
    renderApp(path);
    const footer = await screen.findByRole('contentinfo');
    await userEvent.click(within(footer).getByRole('button', { name: 'Cookie settings' }));
    const banner = await screen.findByRole('region', { name: 'Cookie consent' });
    await waitFor(() => expect(banner).toHaveFocus());
    expect(banner).toHaveTextContent('You have declined analytics.');
    await userEvent.click(within(banner).getByRole('button', { name: 'Accept' }));
    expect(consentStore.getSnapshot()).toEqual({ choice: 'accepted', settingsOpen: false });
    expect(screen.queryByRole('region', { name: 'Cookie consent' })).not.toBeInTheDocument();
  });

  it('shows on signed-in pages too (the choice is the visitor’s, not the account’s)', async () => {
    stubFetch(authRoutes(principal()));
    renderApp('/maps');
    expect(await screen.findByRole('region', { name: 'Cookie consent' })).toBeInTheDocument();
  });

  it('is not on the embeddable viewer', async () => {
    stubFetch({
      ...authRoutes(null),
      'GET /api/public/maps/demo': () => ({ status: 404, body: { error: { status: 'NOT_FOUND', message: 'Map not found.' } } }),
    });
    renderApp('/m/demo');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.queryByRole('region', { name: 'Cookie consent' })).not.toBeInTheDocument();
  });
});
