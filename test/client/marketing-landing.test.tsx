/** The landing page and the three case studies (examples): titles, descriptions, the live maps they embed, their links. */
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { demoMallDocument } from '../../server/seed/demo-mall';
import { OFFICES, TERRITORIES } from '../../server/seed/example-geographic';
import { UNIT_STATUSES, UNITS } from '../../server/seed/example-real-estate';
import { authRoutes, principal, renderApp, stubFetch } from './support/fakes';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const description = () => document.head.querySelector('meta[name="description"]')?.getAttribute('content') ?? '';

describe('/ (landing)', () => {
  it('is titled for custom interactive maps for business, with one meta description', async () => {
    stubFetch(authRoutes(null));
    renderApp('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Custom interactive maps for business' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Mapfold · Custom interactive maps for business'));
    expect(description()).toMatch(/^Mapfold builds custom interactive maps for business/);
    expect(document.head.querySelectorAll('meta[name="description"]')).toHaveLength(1);
  });

  it('embeds the live demo map after the hero text, the way customers embed it, with a full-screen link', async () => {
    stubFetch(authRoutes(null));
    renderApp('/');
    const frame = await screen.findByTitle('Map: Riverside Mall directory');
    expect(frame.tagName).toBe('IFRAME');
    expect(frame).toHaveAttribute('src', '/m/demo');
    // Above the fold: not lazy, but added only once the page has painted its text.
    expect(frame).toHaveAttribute('loading', 'eager');
    expect(frame).toHaveAttribute('allowfullscreen');
    expect(screen.getByRole('link', { name: 'Open full screen' })).toHaveAttribute('href', '/m/demo');
  });

  it('links to the three case studies with pictures that have their @2x copy', async () => {
    stubFetch(authRoutes(null));
    renderApp('/');
    const section = (await screen.findByRole('heading', { name: 'See what you can build' })).closest('section')!;
    const cards = within(section).getAllByRole('link');
    expect(cards.map((card) => card.getAttribute('href'))).toEqual(['/case-study/real-estate', '/case-study/retail', '/case-study/geographic']);
    expect(cards[0]).toHaveAccessibleName('Real estate: a site plan with every unit’s status');
    // Examples, said so: no "real businesses" behind them.
    expect(section).toHaveTextContent(/three live example maps made by the Mapfold team/);
    for (const card of cards) expect(card.style.getPropertyValue('--link-card-image-set')).toMatch(/^image-set\(url\("\/assets\/img\/case-[\w-]+\.webp"\) 1x, url\("\/assets\/img\/case-[\w-]+@2x\.webp"\) 2x\)$/);
  });

  it('keeps the purchase-code banner for signed-out visitors', async () => {
    stubFetch(authRoutes(null));
    renderApp('/');
    expect(await screen.findByText('Bought Mapfold on a marketplace?')).toBeInTheDocument();
  });

  // Spec §1: "The landing page shows a banner for signed-out users offering free access with a
  // purchase code from a marketplace": there and for them only.
  it('shows no purchase-code banner to a signed-in user', async () => {
    stubFetch(authRoutes(principal()));
    renderApp('/');
    expect(await screen.findByRole('link', { name: 'Go to your maps' })).toBeInTheDocument();
    expect(screen.queryByText('Bought Mapfold on a marketplace?')).not.toBeInTheDocument();
  });

  it.each(['/pricing', '/case-study/retail', '/contact', '/wayfinding'])('shows no purchase-code banner on %s, signed out', async (path) => {
    stubFetch(authRoutes(null));
    renderApp(path);
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByRole('link', { name: /log ?in/i }).length).toBeGreaterThan(0));
    expect(screen.queryByText('Bought Mapfold on a marketplace?')).not.toBeInTheDocument();
  });
});

/** What each example map holds, counted from the maps the server seeds. */
const demoMall = demoMallDocument();
const SEEDED_COUNTS = {
  '/case-study/real-estate': [
    UNITS.filter((unit) => unit.id.startsWith('plot-')).length,
    UNITS.filter((unit) => unit.id.startsWith('building-')).length,
    UNIT_STATUSES.length,
  ],
  '/case-study/retail': [demoMall.layers.length, demoMall.locations.filter((location) => !location.hidden).length, demoMall.groups.length],
  '/case-study/geographic': [TERRITORIES.length, TERRITORIES.flatMap((territory) => territory.states).length, OFFICES.length],
} as const;

describe.each([
  ['/case-study/real-estate', 'A site plan buyers can explore', '/m/example-real-estate', 'Map: Maple Grove site plan (example)', ['/case-study/retail', '/case-study/geographic']],
  ['/case-study/retail', 'A store directory shoppers can search', '/m/demo', 'Map: Riverside Mall directory', ['/case-study/real-estate', '/case-study/geographic']],
  ['/case-study/geographic', 'Regions and places, on one clear map', '/m/example-geographic', 'Map: Brightline Solar service territories (example)', ['/case-study/real-estate', '/case-study/retail']],
] as const)('%s', (path, heading, src, frameTitle, others) => {
  it('has its title, a meta description and one h1, all saying it is an example', async () => {
    stubFetch(authRoutes(null));
    renderApp(path);
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe(`${heading} · Example map · Mapfold`));
    expect(description()).toMatch(/^An example Mapfold map: /);
    expect(description().length).toBeLessThanOrEqual(200);
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
  });

  it('embeds its live example map, lazily, below the problem', async () => {
    stubFetch(authRoutes(null));
    renderApp(path);
    const frame = await screen.findByTitle(frameTitle);
    expect(frame).toHaveAttribute('src', src);
    expect(frame).toHaveAttribute('loading', 'lazy');
    expect(screen.getByRole('link', { name: 'Open full screen' })).toHaveAttribute('href', src);
  });

  it('says plainly it is an example, with no invented customer, quote or result', async () => {
    stubFetch(authRoutes(null));
    renderApp(path);
    await screen.findByRole('heading', { level: 1, name: heading });
    expect(screen.getByRole('note')).toHaveTextContent(/^This is an example, not a customer story\. .+ made up; the map is one of Mapfold’s own live demo maps/);
    const page = document.querySelector('.case-study')!;
    expect(page.querySelector('blockquote, figcaption cite')).toBeNull();
    // The invented figures (61%, −45%, 18,400 searches…) and people the pages used to present as real.
    expect(page).not.toHaveTextContent(/%|\bcustomer(?! story)|Alder|Okafor|Bellini|Reyes|\bdirector\b|\bmanager\b/i);
  });

  it('counts what the example map holds, as the server seeds it, and says what to try and how it is built', async () => {
    stubFetch(authRoutes(null));
    renderApp(path);
    await screen.findByRole('heading', { level: 1, name: heading });
    const contents = screen.getByRole('heading', { name: 'What the map holds' }).closest('section')!;
    const values = [...contents.querySelectorAll('.case-study__results strong')].map((strong) => Number(strong.textContent));
    expect(values).toEqual(SEEDED_COUNTS[path]);
    expect(within(screen.getByRole('list', { name: 'Try it in the map above' })).getAllByRole('listitem')).toHaveLength(3);
    expect(screen.getByRole('heading', { name: 'Three steps in the editor' })).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Features in this example' })).getAllByRole('listitem').length).toBeGreaterThanOrEqual(5);
  });

  it('asks to start (Start for free, Talk to us) and links to the other examples', async () => {
    stubFetch(authRoutes(null));
    renderApp(path);
    await screen.findByRole('heading', { level: 1, name: heading });
    expect(screen.getByRole('link', { name: 'Start for free' })).toHaveAttribute('href', '/register');
    expect(screen.getByRole('link', { name: 'Talk to us' })).toHaveAttribute('href', '/contact');
    const more = screen.getByRole('navigation', { name: 'More examples' });
    expect(within(more).getAllByRole('link').map((link) => link.getAttribute('href'))).toEqual(others);
  });
});
