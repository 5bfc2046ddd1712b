/**
 * The main layout (spec §2): which footer shows where, the extended footer's links, and the
 * page_view events through the analytics port's default local recorder.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ANALYTICS_STORAGE_KEY, recentEvents } from '../../client/src/lib/analytics';
import { authRoutes, principal, renderApp, stubFetch } from './support/fakes';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const marketing = [
  '/',
  '/pricing',
  '/estimate',
  '/case-study/real-estate',
  '/case-study/retail',
  '/case-study/geographic',
  '/wayfinding',
  '/contact',
  '/terms',
  '/privacy',
  '/agreement',
];

describe('the footer', () => {
  it.each(marketing)('%s (a marketing page) has the extended footer', async (path) => {
    stubFetch(authRoutes(null));
    renderApp(path);
    const footer = await screen.findByRole('contentinfo');
    expect(within(footer).getByText('All systems operational.')).toBeInTheDocument();
    for (const group of ['Product', 'Examples', 'Legal', 'Company', 'Platform']) {
      expect(within(footer).getByRole('navigation', { name: group })).toBeInTheDocument();
    }
  });

  it.each(['/login', '/register', '/reset', '/maps', '/account', '/no-such-page', '/verify-email'])('%s has the minimal footer with Privacy and Terms', async (path) => {
    stubFetch(authRoutes(path === '/maps' || path === '/account' ? principal() : null));
    renderApp(path);
    const footer = await screen.findByRole('contentinfo');
    expect(within(footer).queryByText('All systems operational.')).not.toBeInTheDocument();
    expect(within(footer).getByRole('link', { name: 'Privacy' })).toHaveAttribute('href', '/privacy');
    expect(within(footer).getByRole('link', { name: 'Terms' })).toHaveAttribute('href', '/terms');
  });

  it('lists the link groups of spec §2, social links with names, and the status line', async () => {
    stubFetch(authRoutes(null));
    renderApp('/pricing');
    const footer = await screen.findByRole('contentinfo');
    const linksOf = (group: string) =>
      within(within(footer).getByRole('navigation', { name: group }))
        .getAllByRole('link')
        .map((link) => [link.textContent, link.getAttribute('href')]);

    expect(linksOf('Product')).toEqual([
      ['Pricing', '/pricing'],
      ['Documentation', '/docs'],
    ]);
    expect(linksOf('Examples')).toEqual([
      ['Real estate', '/case-study/real-estate'],
      ['Retail', '/case-study/retail'],
      ['Geographic', '/case-study/geographic'],
      ['Wayfinding', '/wayfinding'],
    ]);
    expect(linksOf('Legal')).toEqual([
      ['Privacy Policy', '/privacy'],
      ['Terms & Conditions', '/terms'],
      ['Service Agreement', '/agreement'],
    ]);
    expect(linksOf('Company')).toEqual([
      ['Contact', '/contact'],
      ['Custom Work', '/contact?topic=custom'],
    ]);
    expect(linksOf('Platform')).toEqual([
      ['Login', '/login'],
      ['Register', '/register'],
      ['Reset password', '/reset'],
    ]);
    const social = within(within(footer).getByRole('list', { name: 'Social links' })).getAllByRole('link');
    expect(social.map((link) => link.getAttribute('aria-label'))).toEqual(['Mapfold on LinkedIn', 'Mapfold on X', 'Mapfold on YouTube']);
    for (const link of social) expect(link).toHaveAttribute('href', expect.stringMatching(/^https:\/\//));
    expect(within(footer).getByText('All systems operational.')).toBeInTheDocument();
  });

  it('Custom Work opens the contact page on that topic', async () => {
    stubFetch(authRoutes(null));
    renderApp('/');
    const footer = await screen.findByRole('contentinfo');
    await userEvent.click(within(footer).getByRole('link', { name: 'Custom Work' }));
    expect(await screen.findByText('Contact · Custom work')).toBeInTheDocument();
  });
});

describe('page views', () => {
  it('the default analytics port records page_view with the path in memory and localStorage', async () => {
    stubFetch(authRoutes(null));
    renderApp('/pricing');
    await screen.findByRole('heading', { level: 1, name: /Simple pricing/ });
    await userEvent.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Contact' }));
    await screen.findByRole('heading', { level: 1, name: 'Contact us' });

    await waitFor(() => expect(recentEvents().slice(-2).map((e) => [e.name, e.params.path])).toEqual([['page_view', '/pricing'], ['page_view', '/contact']]));
    const stored = JSON.parse(window.localStorage.getItem(ANALYTICS_STORAGE_KEY) ?? '[]') as { name: string; params: { path: string } }[];
    expect(stored.at(-1)).toMatchObject({ name: 'page_view', params: { path: '/contact' } });
  });

  it('each page fades in (0.2 s, see layout.css)', async () => {
    stubFetch(authRoutes(null));
    renderApp('/terms');
    await screen.findByRole('heading', { level: 1, name: 'Terms & Conditions' });
    expect(screen.getByRole('main')).toHaveClass('page-fade');
  });
});
