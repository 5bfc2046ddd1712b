/**
 * The public viewer in jsdom: the directory's search (accents and case do not matter) and
 * group filters, a location's button for the keyboard, the details popup (focus in, Esc out,
 * focus back), deep links with the back button, the share menu and embed code, the feature
 * flags and the test-map marking. The canvas is not painted in jsdom; the buttons, the
 * directory and the popup are the same as in a browser.
 */
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { preloadViewerParts, Viewer, type PublicMap } from '../../client/src/features/viewer/viewer';
import { ViewerApp } from '../../client/src/features/viewer/viewer-app';
import { embedSnippet, viewerUrl } from '../../client/src/utils/embed';
import { fold, matchesFolded } from '../../client/src/utils/location-search';
import { defaultRegionStyles, defaultSettings, type MapDocument } from '../../events/map-document';
import { location } from './support/locations';

function mallDocument(overrides: Partial<MapDocument> = {}): MapDocument {
  return {
    version: 3,
    settings: { ...defaultSettings(), defaultLayer: 'ground' },
    layers: [
      { id: 'ground', name: 'Ground floor', file: null },
      { id: 'upper', name: 'Level 1', file: null },
    ],
    groups: [
      { id: 'food', name: 'Food & drink', color: '#ea580c', legend: true },
      { id: 'shops', name: 'Shops', color: '#2563eb', legend: true },
      { id: 'staff', name: 'Staff only', color: '#64748b', legend: false },
    ],
    locations: [
      location({ id: 'cafe', title: 'Café Noir', about: 'Espresso and pastries', groups: ['food'], position: { x: 200, y: 150 } }),
      location({ id: 'baker', title: 'Müller Bäckerei', about: 'Bread since 1921', groups: ['food'], position: { x: 400, y: 150 } }),
      location({ id: 'lodz', title: 'Łódź Records', groups: ['shops'], position: { x: 600, y: 300 } }),
      location({ id: 'books', title: 'Page Turner Books', groups: ['shops'], position: { x: 300, y: 500 } }),
      location({
        id: 'sushi',
        title: 'Sakura Sushi',
        layer: 'upper',
        groups: ['food'],
        description: '<p>Fresh <b>daily</b>.</p><img src="x" onerror="alert(1)"><script>alert(2)</script><a href="https://sakura.example/menu">Menu</a>',
        phone: '+1 (555) 0202',
        hours: 'Daily 11:30–22:00',
        link: 'https://www.sakura.example/',
      }),
      location({ id: 'secret', title: 'Hidden storeroom', hidden: true }),
    ],
    styles: { regions: defaultRegionStyles() },
    paths: { nodes: [], edges: [], connectors: [] },
    ...overrides,
  };
}

function publicMap(overrides: Partial<PublicMap> = {}, document = mallDocument()): PublicMap {
  return { id: 'mall', title: 'Riverside Mall', state: 1, data: document, revision: '3', test: false, ...overrides };
}

const mapRegion = () => screen.getByRole('region', { name: /^Map: Riverside Mall/ });
const directoryList = () => screen.getByRole('list', { name: 'Locations' });
const listedTitles = () => within(directoryList()).queryAllByRole('button').map((button) => button.querySelector('.mf-item__title')?.textContent);

beforeEach(() => {
  window.history.replaceState(null, '', '/m/mall');
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});


// The directory and the minimap load after the map's code (lib/lazy-part.ts); loaded once,
// they render at once, as these tests expect.
beforeAll(() => preloadViewerParts());

describe('search text', () => {
  it('folds accents, special letters and case', () => {
    expect(fold('Café Noir')).toBe('cafe noir');
    expect(fold('MÜLLER Bäckerei')).toBe('muller backerei');
    expect(fold('Łódź Straße Øresund')).toBe('lodz strasse oresund');
    expect(matchesFolded(fold('Müller Bäckerei bread'), fold('backerei MULLER'))).toBe(true);
    expect(matchesFolded(fold('Müller Bäckerei'), fold('muller cake'))).toBe(false);
  });
});

describe('the embed snippet', () => {
  it('is a responsive box with a lazy, titled, fullscreen-capable iframe', () => {
    const html = embedSnippet({ mapId: 'abc 1', publicUrl: 'https://maps.example.com/', title: 'Riverside "Mall" <1>', aspectRatio: 1.5 });
    const host = document.createElement('div');
    host.innerHTML = html;
    const box = host.firstElementChild as HTMLElement;
    const iframe = box.querySelector('iframe')!;
    expect(box.style.aspectRatio).toBe('1.5');
    expect(box.style.width).toBe('100%');
    expect(iframe.getAttribute('src')).toBe('https://maps.example.com/m/abc%201');
    expect(iframe.getAttribute('title')).toBe('Map: Riverside "Mall" <1>');
    expect(iframe.getAttribute('loading')).toBe('lazy');
    expect(iframe.getAttribute('allow')).toBe('fullscreen');
    expect(iframe.style.position).toBe('absolute');
    expect(html).not.toContain('"Mall"');
  });

  it('keeps the proportions sensible and links to a location when asked', () => {
    expect(embedSnippet({ mapId: 'a', publicUrl: 'https://x.test', title: 't', aspectRatio: 50 })).toContain('aspect-ratio:2.3333');
    expect(viewerUrl('https://x.test/base', 'a', 'cafe')).toBe('https://x.test/base/m/a?location=cafe');
  });
});

describe('the directory', () => {
  it('lists every shown location, hidden ones left out, with the count', () => {
    render(<Viewer map={publicMap()} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Riverside Mall' })).toBeInTheDocument();
    expect(screen.getByText('5 locations')).toBeInTheDocument();
    expect(listedTitles()).toEqual(['Café Noir', 'Łódź Records', 'Müller Bäckerei', 'Page Turner Books', 'Sakura Sushi']);
  });

  it('finds locations whatever the accents and case', async () => {
    const user = userEvent.setup();
    render(<Viewer map={publicMap()} />);
    const search = screen.getByRole('searchbox', { name: 'Search locations' });
    await user.type(search, 'cafe');
    expect(listedTitles()).toEqual(['Café Noir']);
    await user.clear(search);
    await user.type(search, 'MULLER');
    expect(listedTitles()).toEqual(['Müller Bäckerei']);
    await user.clear(search);
    await user.type(search, 'lodz');
    expect(listedTitles()).toEqual(['Łódź Records']);
    expect(screen.getByText('1 of 5 locations')).toBeInTheDocument();
    // Group names and short texts are searched too.
    await user.clear(search);
    await user.type(search, 'drink');
    expect(listedTitles()).toEqual(['Café Noir', 'Müller Bäckerei', 'Sakura Sushi']);
    // The map's own buttons follow the search.
    expect(within(mapRegion()).getAllByRole('button', { name: /Food & drink/ }).map((b) => b.getAttribute('aria-label'))).toEqual([
      'Café Noir, Food & drink',
      'Müller Bäckerei, Food & drink',
    ]);
    await user.clear(search);
    await user.type(search, 'nothing here');
    expect(screen.getByText('No locations found')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear search and filters' }));
    expect(listedTitles()).toHaveLength(5);
  });

  it('searches the document it is given now: a location renamed since (the editor preview) is found by its new name', async () => {
    const user = userEvent.setup();
    const document = mallDocument();
    const { rerender } = render(<Viewer map={publicMap({}, document)} />);
    const search = screen.getByRole('searchbox', { name: 'Search locations' });
    await user.type(search, 'cafe');
    expect(listedTitles()).toEqual(['Café Noir']);

    // As an edit gives it: a new document with the one location replaced, the groups untouched.
    const renamed = { ...document, locations: document.locations.map((l) => (l.id === 'cafe' ? { ...l, title: 'Tea Garden' } : l)) };
    rerender(<Viewer map={publicMap({}, renamed)} />);
    expect(screen.getByText('No locations found')).toBeInTheDocument();
    await user.clear(search);
    await user.type(search, 'tea');
    expect(listedTitles()).toEqual(['Tea Garden']);
  });

  it('filters by group with chips, and the legend shows the groups marked for it', async () => {
    const user = userEvent.setup();
    render(<Viewer map={publicMap()} />);
    const chips = screen.getByRole('group', { name: 'Filter by group' });
    const shops = within(chips).getByRole('button', { name: 'Shops' });
    expect(shops).toHaveAttribute('aria-pressed', 'false');
    await user.click(shops);
    expect(shops).toHaveAttribute('aria-pressed', 'true');
    expect(listedTitles()).toEqual(['Łódź Records', 'Page Turner Books']);
    await user.click(within(chips).getByRole('button', { name: 'Food & drink' }));
    expect(listedTitles()).toHaveLength(5);
    await user.click(shops);
    expect(listedTitles()).toEqual(['Café Noir', 'Müller Bäckerei', 'Sakura Sushi']);

    const legend = screen.getByText('Legend').closest('details')!;
    expect(within(legend).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Food & drink', 'Shops']);
  });

  it('opens a location on another layer from the list, switching the layer', async () => {
    const user = userEvent.setup();
    render(<Viewer map={publicMap()} />);
    const layers = screen.getByRole('group', { name: 'Layers' });
    expect(within(layers).getByRole('button', { name: 'Ground floor' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(within(directoryList()).getByRole('button', { name: /Sakura Sushi/ }));
    expect(within(layers).getByRole('button', { name: 'Level 1' })).toHaveAttribute('aria-pressed', 'true');
    const sakura = await screen.findByRole('dialog', { name: 'Sakura Sushi' });
    await waitFor(() => expect(sakura).toHaveFocus());
    expect(screen.getByText('Level 1', { selector: '.mf-popup__layer' })).toBeInTheDocument();
  });
});

describe('locations on the map', () => {
  it('are buttons named by title and groups, in reading order', () => {
    render(<Viewer map={publicMap()} />);
    const names = within(mapRegion())
      .getAllByRole('button')
      .filter((button) => button.dataset.location)
      .map((button) => button.getAttribute('aria-label'));
    expect(names).toEqual(['Café Noir, Food & drink', 'Müller Bäckerei, Food & drink', 'Łódź Records, Shops', 'Page Turner Books, Shops']);
  });

  it('opens the popup with Enter; it takes the focus; Esc closes it and the focus returns', async () => {
    const user = userEvent.setup();
    render(<Viewer map={publicMap()} />);
    const cafe = within(mapRegion()).getByRole('button', { name: 'Café Noir, Food & drink' });
    cafe.focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Café Noir' });
    await waitFor(() => expect(dialog).toHaveFocus());
    expect(within(dialog).getByText('Espresso and pastries')).toBeInTheDocument();
    expect(within(dialog).getByText('Food & drink')).toBeInTheDocument();
    expect(window.location.search).toBe('?location=cafe');

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Café Noir' })).not.toBeInTheDocument());
    await waitFor(() => expect(cafe).toHaveFocus());
    expect(window.location.search).toBe('');
  });

  it('closes with the close button too, and the focus returns to the list item that opened it', async () => {
    const user = userEvent.setup();
    render(<Viewer map={publicMap()} />);
    const item = within(directoryList()).getByRole('button', { name: /Page Turner Books/ });
    await user.click(item);
    await user.click(within(await screen.findByRole('dialog', { name: 'Page Turner Books' })).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(item).toHaveFocus());
  });

  it('shows the details: sanitised description, phone, hours and a safe external link', async () => {
    const user = userEvent.setup();
    render(<Viewer map={publicMap()} />);
    await user.click(within(directoryList()).getByRole('button', { name: /Sakura Sushi/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Sakura Sushi' });
    const menu = await within(dialog).findByRole('link', { name: 'Menu' });
    expect(menu).toHaveAttribute('target', '_blank');
    expect(menu).toHaveAttribute('rel', 'noopener noreferrer');
    expect(dialog.querySelector('script')).toBeNull();
    expect(dialog.querySelector('[onerror]')).toBeNull();
    expect(within(dialog).getByText('daily').tagName).toBe('B');
    expect(within(dialog).getByRole('link', { name: '+1 (555) 0202' })).toHaveAttribute('href', 'tel:+15550202');
    expect(within(dialog).getByText('Daily 11:30–22:00')).toBeInTheDocument();
    const site = within(dialog).getByRole('link', { name: /sakura\.example/ });
    expect(site).toHaveAttribute('href', 'https://www.sakura.example/');
    expect(site).toHaveAttribute('target', '_blank');
    expect(site).toHaveAttribute('rel', 'noopener noreferrer');
  });
});

describe('deep links', () => {
  it('open the location the address names', async () => {
    window.history.replaceState(null, '', '/m/mall?location=books');
    render(<Viewer map={publicMap()} />);
    expect(await screen.findByRole('dialog', { name: 'Page Turner Books' })).toBeInTheDocument();
  });

  it('ignore unknown and hidden locations', () => {
    window.history.replaceState(null, '', '/m/mall?location=secret');
    render(<Viewer map={publicMap()} />);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('work with the back button: opening pushes an entry, back closes, forward opens again', async () => {
    const user = userEvent.setup();
    render(<Viewer map={publicMap()} />);
    const before = window.history.length;
    await user.click(within(directoryList()).getByRole('button', { name: /Café Noir/ }));
    expect(window.location.search).toBe('?location=cafe');
    expect(window.history.length).toBe(before + 1);
    // Another location replaces the entry rather than piling up more.
    await user.click(within(directoryList()).getByRole('button', { name: /Müller/ }));
    expect(window.location.search).toBe('?location=baker');
    expect(window.history.length).toBe(before + 1);

    act(() => window.history.back());
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(window.location.search).toBe('');

    act(() => window.history.forward());
    expect(await screen.findByRole('dialog', { name: 'Müller Bäckerei' })).toBeInTheDocument();
  });

  it('are left alone when the map turns them off', async () => {
    const user = userEvent.setup();
    const document = mallDocument();
    document.settings.features.deepLinks = false;
    window.history.replaceState(null, '', '/m/mall?location=books');
    render(<Viewer map={publicMap({}, document)} />);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await user.click(within(directoryList()).getByRole('button', { name: /Café Noir/ }));
    expect(screen.getByRole('dialog', { name: 'Café Noir' })).toBeInTheDocument();
    expect(window.location.search).toBe('?location=books');
  });
});

describe('the viewer around the map', () => {
  it('shares the link and the embed code, copied with a toast', async () => {
    const user = userEvent.setup();
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<Viewer map={publicMap()} publicUrl="https://maps.example.com" />);
    await user.click(screen.getByRole('button', { name: 'Share' }));
    const share = await screen.findByRole('dialog', { name: 'Share this map' });
    expect(within(share).getByLabelText('Link')).toHaveValue('https://maps.example.com/m/mall');
    const code = within(share).getByLabelText('Embed on your website') as HTMLTextAreaElement;
    expect(code.value).toContain('<iframe src="https://maps.example.com/m/mall" title="Map: Riverside Mall" loading="lazy" allow="fullscreen"');
    await user.click(within(share).getByRole('button', { name: 'Copy code' }));
    expect(writeText).toHaveBeenCalledWith(code.value);
    expect(screen.getByRole('status')).toHaveTextContent('Embed code copied to the clipboard');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Share this map' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Share' })).toHaveFocus();
  });

  it('follows the feature flags: no sidebar, no search, no filters, no zoom buttons', () => {
    const document = mallDocument();
    document.settings.features = { ...document.settings.features, search: false, filters: false, zoomButtons: false };
    const { unmount } = render(<Viewer map={publicMap({}, document)} />);
    expect(screen.queryByRole('searchbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Filter by group' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Zoom in' })).not.toBeInTheDocument();
    unmount();

    document.settings.features = { ...document.settings.features, sidebar: false, zoomButtons: true };
    render(<Viewer map={publicMap({}, document)} />);
    expect(screen.queryByRole('complementary', { name: 'Directory' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Zoom in' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reset view' })).toBeInTheDocument();
  });

  it('takes the theme: accent, background and dark mode', () => {
    const document = mallDocument();
    document.settings.theme = { mode: 'dark', accent: '#0f766e', background: '#101827' };
    const { container } = render(<Viewer map={publicMap({}, document)} />);
    const root = container.querySelector('.mfv') as HTMLElement;
    expect(root.dataset.theme).toBe('dark');
    expect(root.style.getPropertyValue('--mf-accent')).toBe('#0f766e');
    expect(mapRegion().style.background).toBe('rgb(16, 24, 39)');
  });

  it('embedded, a wheel without Ctrl or focus leaves the page scrolling and says how to zoom', async () => {
    render(<Viewer map={publicMap()} cooperative />);
    // The wheel's handling loads after the first paint (map-renderer.tsx): let it arrive.
    await import('../../client/src/components/map/gestures');
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    const viewport = mapRegion().querySelector('.mf-viewport')!;
    const hint = screen.getByText(/\+ scroll to zoom the map/);
    expect(hint).not.toHaveClass('is-visible');
    const wheel = new WheelEvent('wheel', { deltaY: 100, bubbles: true, cancelable: true });
    act(() => {
      viewport.dispatchEvent(wheel);
    });
    expect(wheel.defaultPrevented).toBe(false);
    expect(hint).toHaveClass('is-visible');
    const ctrlWheel = new WheelEvent('wheel', { deltaY: 100, ctrlKey: true, bubbles: true, cancelable: true });
    act(() => {
      viewport.dispatchEvent(ctrlWheel);
    });
    expect(ctrlWheel.defaultPrevented).toBe(true);
  });

  it('marks a test map as one only its owner and admins see', () => {
    render(<Viewer map={publicMap({ state: 0, test: true })} />);
    expect(screen.getByRole('note')).toHaveTextContent('Test map Only you and admins can see it until it is published.');
  });
});

describe('the viewer page', () => {
  it('loads the map from the public API', async () => {
    let answer = () => {};
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const fetchMock = vi.fn(async () => {
      await answered;
      return new Response(JSON.stringify({ result: publicMap() }), { status: 200, headers: { 'content-type': 'application/json' } });
    });
    vi.stubGlobal('fetch', fetchMock);
    render(<ViewerApp mapId="mall" />);
    // Named once the page's catalogue is in (fetched beside the map, client/src/i18n/catalogues.ts).
    expect(await screen.findByRole('status', { name: 'Loading the map' })).toBeInTheDocument();
    answer();
    expect(await screen.findByRole('heading', { level: 1, name: 'Riverside Mall' })).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith('/api/public/maps/mall', expect.objectContaining({ credentials: 'same-origin' }));
  });

  it('says when a map is not available', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ error: { status: 'NOT_FOUND', message: 'Map not found.' } }), { status: 404 })),
    );
    render(<ViewerApp mapId="nope" />);
    expect(await screen.findByRole('heading', { name: 'This map is not available' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Mapfold' })).toHaveAttribute('href', '/');
  });
});

describe('keyboard on the map', () => {
  it('zooms with + and - and the buttons know their limits', () => {
    render(<Viewer map={publicMap()} />);
    const viewport = mapRegion().querySelector('.mf-viewport') as HTMLElement;
    const zoomOut = screen.getByRole('button', { name: 'Zoom out' });
    expect(zoomOut).toBeDisabled();
    fireEvent.keyDown(viewport, { key: '+' });
    return waitFor(() => expect(zoomOut).toBeEnabled());
  });
});
