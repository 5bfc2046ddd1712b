/**
 * The viewer's directions in jsdom, on a hand-made two-floor mall (stairs at the west end, a
 * lift at the east end): who sees them (plans, admins, a map without paths), picking the ends
 * through the combobox (accents and case do not matter), swap, the step-free switch (the
 * route moves from the stairs to the lift), the steps list followed by keyboard with each step
 * announced, plain failures, deep links (parsed, opened, written back) and the kiosk's fixed
 * start and reset. Routes come from the real `findRoute` (events/wayfinding/find-route.ts).
 */
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseDirectionsLink, routeUrl, searchWithRoute, wantsDirections } from '../../client/src/features/viewer/directions/directions-link';
import { KIOSK_IDLE_MS } from '../../client/src/features/viewer/directions/directions-sync';
import { loadDirectionsCode } from '../../client/src/features/viewer/directions/use-directions';
import { preloadViewerParts, Viewer, type PublicMap } from '../../client/src/features/viewer/viewer';
import { defaultRegionStyles, defaultSettings, type MapDocument } from '../../events/map-document';
import { DEMO_ROUTE, WayfindingLiveDemo } from '../../client/src/features/marketing/components/wayfinding-live-demo';
import { DEMO_STEP_FREE_PAIR } from '../../server/seed/demo-mall-paths';
import { MapState } from '../../events/map-states';
import { DIRECTIONS_STATES, directionsAllowed } from '../../events/wayfinding/directions-allowed';
import { location } from './support/locations';

/** Two floors, a corridor on each (west 100 to east 900); stairs in the west, a lift in the east. */
function twoFloorMall(connectors: MapDocument['paths']['connectors'] = [
  { id: 'stairs', kind: 'stairs', name: '', nodes: ['g-w', 'u-w'] },
  { id: 'lift', kind: 'lift', name: '', nodes: ['g-e', 'u-e'] },
]): MapDocument {
  const corridor = (floor: 'g' | 'u', layer: string) => ({
    nodes: [
      { id: `${floor}-w`, layer, x: 100, y: 300 },
      { id: `${floor}-m`, layer, x: 500, y: 300 },
      { id: `${floor}-e`, layer, x: 900, y: 300 },
    ],
    edges: [
      { id: `${floor}-1`, from: `${floor}-w`, to: `${floor}-m`, stepFree: true, oneWay: false },
      { id: `${floor}-2`, from: `${floor}-m`, to: `${floor}-e`, stepFree: true, oneWay: false },
    ],
  });
  const ground = corridor('g', 'ground');
  const upper = corridor('u', 'upper');
  return {
    version: 3,
    settings: { ...defaultSettings(), size: { width: 1000, height: 600 }, defaultLayer: 'ground' },
    layers: [
      { id: 'ground', name: 'Ground floor', file: null },
      { id: 'upper', name: 'Level 1', file: null },
    ],
    groups: [{ id: 'food', name: 'Food & drink', color: '#ea580c', legend: true }],
    locations: [
      location({ id: 'cafe', title: 'Café Noir', groups: ['food'], position: { x: 120, y: 250 }, entrances: ['g-w'] }),
      location({ id: 'books', title: 'Page Turner Books', position: { x: 520, y: 250 }, entrances: ['g-m'] }),
      location({ id: 'sushi', title: 'Sakura Sushi', layer: 'upper', groups: ['food'], position: { x: 140, y: 250 }, entrances: ['u-w'] }),
      location({ id: 'cinema', title: 'Cinéma Royale', layer: 'upper', position: { x: 520, y: 250 }, entrances: ['u-m'] }),
    ],
    styles: { regions: defaultRegionStyles() },
    paths: { nodes: [...ground.nodes, ...upper.nodes], edges: [...ground.edges, ...upper.edges], connectors },
  };
}

function publicMap(overrides: Partial<PublicMap> = {}, document = twoFloorMall()): PublicMap {
  return { id: 'mall', title: 'Riverside Mall', state: 3, data: document, revision: '3', test: false, ...overrides };
}

const directionsButton = () => screen.queryByRole('button', { name: 'Directions' });
const stepsList = () => screen.getByRole('list', { name: 'Directions' });
const stepTexts = () => within(stepsList()).getAllByRole('listitem').map((item) => item.querySelector('.mf-step__sentence')?.textContent);
const announcer = () => document.querySelector('.mf-directions [role="status"]')!;

async function openDirections(user: ReturnType<typeof userEvent.setup>) {
  await user.click(directionsButton()!);
  return screen.findByRole('region', { name: 'Directions' });
}

async function pick(user: ReturnType<typeof userEvent.setup>, field: 'From' | 'To', query: string, option: string) {
  const input = screen.getByRole('combobox', { name: field });
  await user.clear(input);
  await user.type(input, query);
  const list = screen.getByRole('listbox', { name: field });
  expect(input).toHaveAttribute('aria-expanded', 'true');
  await user.click(within(list).getByRole('option', { name: new RegExp(`^${option}`) }));
}

beforeAll(() => Promise.all([preloadViewerParts(), loadDirectionsCode()]));
beforeEach(() => {
  window.history.replaceState(null, '', '/m/mall');
});
afterEach(() => {
  vi.useRealTimers();
});

describe('who sees directions', () => {
  it('is one rule: Professional, demo and admin maps, admins anywhere, never without paths', () => {
    const paths = twoFloorMall().paths;
    for (const state of [MapState.demo, MapState.pro, MapState.adm]) expect(DIRECTIONS_STATES.has(state)).toBe(true);
    expect(DIRECTIONS_STATES.size).toBe(3);
    expect(directionsAllowed({ state: 3, paths })).toBe(true);
    expect(directionsAllowed({ state: 2, paths })).toBe(true);
    expect(directionsAllowed({ state: 9, paths })).toBe(true);
    expect(directionsAllowed({ state: 1, paths })).toBe(false);
    expect(directionsAllowed({ state: 0, paths })).toBe(false);
    expect(directionsAllowed({ state: 1, paths, admin: true })).toBe(true);
    expect(directionsAllowed({ state: 3, paths: { edges: [], connectors: [] }, admin: true })).toBe(false);
  });

  it('shows the entry on a Professional map, not on a Basic one (unless an admin looks), nor on a map without paths', () => {
    const { unmount } = render(<Viewer map={publicMap()} />);
    expect(directionsButton()).toBeInTheDocument();
    unmount();
    const basic = render(<Viewer map={publicMap({ state: 1 })} />);
    expect(directionsButton()).not.toBeInTheDocument();
    basic.unmount();
    const asAdmin = render(<Viewer map={publicMap({ state: 1 })} admin />);
    expect(directionsButton()).toBeInTheDocument();
    asAdmin.unmount();
    render(<Viewer map={publicMap({}, { ...twoFloorMall(), paths: { nodes: [], edges: [], connectors: [] } })} />);
    expect(directionsButton()).not.toBeInTheDocument();
  });
});

describe('the directions panel', () => {
  it('picks the ends by searching (accents ignored), lists the steps, and takes the lift when step-free', async () => {
    const user = userEvent.setup();
    render(<Viewer map={publicMap()} />);
    await openDirections(user);
    expect(screen.getByRole('combobox', { name: 'From' })).toHaveFocus();
    expect(screen.getByText('Choose where you are and where you want to go.')).toBeInTheDocument();

    await pick(user, 'From', 'cafe', 'Café Noir');
    expect(screen.getByRole('combobox', { name: 'From' })).toHaveValue('Café Noir');
    // The keyboard picks too: Down opens the list, Enter takes the active option.
    const to = screen.getByRole('combobox', { name: 'To' });
    await user.click(to);
    await user.type(to, 'SAKURA');
    await user.keyboard('{Enter}');
    expect(to).toHaveValue('Sakura Sushi');
    expect(to).toHaveAttribute('aria-expanded', 'false');

    const steps = await screen.findByRole('list', { name: 'Directions' });
    expect(steps.tagName).toBe('OL');
    expect(stepTexts()).toContain('Take the stairs to Level 1');
    expect(stepTexts()[0]).toBe('Start at Café Noir');
    expect(stepTexts().at(-1)).toMatch(/^Sakura Sushi is (on the (left|right)|ahead)$/);
    expect(screen.getByText(/min$/)).toBeInTheDocument();
    expect(document.querySelector('.mf-route-summary__detail')?.textContent).toMatch(/\d+ m · via the stairs/);
    // The floor buttons say which floors the route uses.
    expect(screen.getByRole('button', { name: 'Ground floor, on the route' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Level 1, on the route' })).toBeInTheDocument();

    const stepFree = screen.getByRole('switch', { name: /Step-free/ });
    expect(stepFree).toHaveAttribute('aria-checked', 'false');
    await user.click(stepFree);
    expect(stepFree).toHaveAttribute('aria-checked', 'true');
    expect(stepTexts()).toContain('Take the lift to Level 1');
    expect(stepTexts()).not.toContain('Take the stairs to Level 1');
    expect(document.querySelector('.mf-route-summary__detail')?.textContent).toMatch(/via the lift/);
    // The address says which route it is.
    expect(new URLSearchParams(window.location.search).get('from')).toBe('cafe');
    expect(new URLSearchParams(window.location.search).get('to')).toBe('sushi');
    expect(new URLSearchParams(window.location.search).get('stepfree')).toBe('1');
  });

  it('swaps the ends', async () => {
    const user = userEvent.setup();
    render(<Viewer map={publicMap()} />);
    await openDirections(user);
    await pick(user, 'From', 'page', 'Page Turner Books');
    await pick(user, 'To', 'cinema', 'Cinéma Royale');
    expect(stepTexts()[0]).toBe('Start at Page Turner Books');
    await user.click(screen.getByRole('button', { name: 'Swap start and destination' }));
    expect(screen.getByRole('combobox', { name: 'From' })).toHaveValue('Cinéma Royale');
    expect(screen.getByRole('combobox', { name: 'To' })).toHaveValue('Page Turner Books');
    expect(stepTexts()[0]).toBe('Start at Cinéma Royale');
    expect(stepTexts()).toContain('Take the stairs to Ground floor');
  });

  it('is followed by keyboard: one Tab stop, arrows move, the map follows the floor, each step is announced', async () => {
    const user = userEvent.setup();
    window.history.replaceState(null, '', '/m/mall?from=cafe&to=sushi');
    render(<Viewer map={publicMap()} />);
    const list = await screen.findByRole('list', { name: 'Directions' });
    const items = within(list).getAllByRole('listitem');
    expect(items.filter((item) => item.tabIndex === 0)).toHaveLength(1);
    items[0]!.focus();
    await user.keyboard('{ArrowDown}');
    expect(items[1]).toHaveFocus();
    expect(items[1]).toHaveAttribute('aria-current', 'step');
    expect(announcer().textContent).toBe(`Step 2 of ${items.length}: ${stepTexts()[1]}${items[1]!.querySelector('.mf-step__distance') ? `, ${items[1]!.querySelector('.mf-step__distance')!.textContent}` : ''}.`);
    await user.keyboard('{End}');
    expect(items.at(-1)).toHaveFocus();
    // The last step is on Level 1: the map shows that floor.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Level 1, on the route' })).toHaveAttribute('aria-pressed', 'true'));
    expect(announcer().textContent).toMatch(new RegExp(`^Step ${items.length} of ${items.length}: Sakura Sushi is`));
    await user.keyboard('{Home}');
    expect(items[0]).toHaveFocus();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Ground floor, on the route' })).toHaveAttribute('aria-pressed', 'true'));
    // The Next and Previous buttons move through the steps too.
    await user.click(screen.getByRole('button', { name: 'Next step' }));
    expect(items[1]).toHaveAttribute('aria-current', 'step');
    await user.click(screen.getByRole('button', { name: 'Previous step' }));
    expect(items[0]).toHaveAttribute('aria-current', 'step');
  });

  it('offers the floor change where the route leaves a floor, and its button shows the next floor', async () => {
    const user = userEvent.setup();
    window.history.replaceState(null, '', '/m/mall?from=cafe&to=sushi&stepfree=1');
    render(<Viewer map={publicMap()} />);
    const prompt = await screen.findByRole('group', { name: 'Floor change' });
    expect(prompt).toHaveTextContent('Take the lift to Level 1');
    await user.click(within(prompt).getByRole('button', { name: 'Go to Level 1' }));
    expect(screen.getByRole('button', { name: 'Level 1, on the route' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.queryByRole('group', { name: 'Floor change' })).not.toBeInTheDocument();
  });

  it('says plainly when there is no step-free route', async () => {
    window.history.replaceState(null, '', '/m/mall?from=cafe&to=sushi&stepfree=1');
    render(<Viewer map={publicMap({}, twoFloorMall([{ id: 'stairs', kind: 'stairs', name: '', nodes: ['g-w', 'u-w'] }]))} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('No step-free route between these places.');
  });

  it('opens from a location\u2019s details: "Directions to here" and "From here"', async () => {
    const user = userEvent.setup();
    window.history.replaceState(null, '', '/m/mall?location=books');
    render(<Viewer map={publicMap()} />);
    await user.click(await screen.findByRole('button', { name: 'Directions to here' }));
    expect(await screen.findByRole('combobox', { name: 'To' })).toHaveValue('Page Turner Books');
    expect(screen.getByRole('combobox', { name: 'From' })).toHaveValue('');
  });

  it('closes with Esc and gives the focus back to the Directions button', async () => {
    const user = userEvent.setup();
    render(<Viewer map={publicMap()} />);
    await openDirections(user);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Directions' })).not.toBeInTheDocument());
    expect(directionsButton()).toHaveFocus();
    expect(window.location.search).toBe('');
  });
});

describe('on a phone: the directions sheet', () => {
  beforeEach(() => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query === '(max-width: 720px)', media: query, addEventListener() {}, removeEventListener() {} }));
  });
  afterEach(() => vi.unstubAllGlobals());

  it('folds down to its title and the route’s summary with a handle, by keyboard too, and unfolds again (it covered half the map)', async () => {
    const user = userEvent.setup();
    window.history.replaceState(null, '', '/m/mall?from=cafe&to=sushi');
    render(<Viewer map={publicMap()} />);
    const panel = await screen.findByRole('region', { name: 'Directions' });
    expect(panel.closest('.mf-directions-sheet')).not.toBeNull();
    await within(panel).findByRole('list', { name: 'Directions' });

    const handle = within(panel).getByRole('button', { name: 'Hide directions' });
    expect(handle).toHaveAttribute('aria-expanded', 'true');
    const details = document.getElementById(handle.getAttribute('aria-controls')!)!;
    expect(details).toContainElement(screen.getByRole('combobox', { name: 'To' }));

    handle.focus();
    await user.keyboard('{Enter}');
    expect(handle).toHaveAttribute('aria-expanded', 'false');
    expect(handle).toHaveAccessibleName('Show directions');
    expect(handle).toHaveFocus();
    expect(panel.closest('.mf-directions-sheet')).toHaveClass('mf-directions-sheet--folded');
    // Folded: the fields, the stepper and the steps are out of view and of the accessibility tree; the summary stays.
    expect(details).not.toBeVisible();
    expect(screen.queryByRole('combobox', { name: 'To' })).not.toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Directions' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Start: first step' })).not.toBeInTheDocument();
    expect(within(panel).getByText(/min$/)).toBeVisible();
    expect(panel.querySelector('.mf-route-summary__detail')).toHaveTextContent(/\d+ m · via the stairs/);

    await user.keyboard(' ');
    expect(handle).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('list', { name: 'Directions' })).toBeVisible();
    expect(screen.getByRole('combobox', { name: 'To' })).toBeVisible();
  });

  it('has no handle beside the map on a wide screen', async () => {
    vi.unstubAllGlobals();
    window.history.replaceState(null, '', '/m/mall?from=cafe&to=sushi');
    render(<Viewer map={publicMap()} />);
    const panel = await screen.findByRole('region', { name: 'Directions' });
    expect(within(panel).queryByRole('button', { name: /^(Hide|Show) directions$/ })).not.toBeInTheDocument();
    expect(within(panel).getByRole('list', { name: 'Directions' })).toBeInTheDocument();
  });
});

describe('deep links', () => {
  it('parses from, to, step-free and the kiosk\u2019s place, and writes a route back', () => {
    expect(parseDirectionsLink('?from=cafe&to=sushi&stepfree=1')).toEqual({ from: 'cafe', to: 'sushi', stepFree: true, here: null });
    expect(parseDirectionsLink('?to=sushi')).toEqual({ from: null, to: 'sushi', stepFree: false, here: null });
    expect(parseDirectionsLink('?here=info&from=x%20y')).toEqual({ from: null, to: null, stepFree: false, here: 'info' });
    expect(wantsDirections(parseDirectionsLink('?location=cafe'))).toBe(false);
    expect(searchWithRoute('?location=cafe&from=a', { from: 'b', to: 'c', stepFree: false })).toBe('?location=cafe&from=b&to=c');
    expect(searchWithRoute('?from=a&to=b&stepfree=1&key=k', null)).toBe('?key=k');
    expect(routeUrl('https://maps.example/m/mall', { from: 'cafe', to: 'sushi', stepFree: true })).toBe('https://maps.example/m/mall?from=cafe&to=sushi&stepfree=1');
  });

  it('opens the directions with the route the address names', async () => {
    window.history.replaceState(null, '', '/m/mall?from=cafe&to=sushi&stepfree=1');
    render(<Viewer map={publicMap()} />);
    await screen.findByRole('list', { name: 'Directions' });
    expect(screen.getByRole('combobox', { name: 'From' })).toHaveValue('Café Noir');
    expect(screen.getByRole('combobox', { name: 'To' })).toHaveValue('Sakura Sushi');
    expect(screen.getByRole('switch', { name: /Step-free/ })).toHaveAttribute('aria-checked', 'true');
    expect(stepTexts()).toContain('Take the lift to Level 1');
  });

  it('ignores directions in the address of a map that does not offer them', async () => {
    window.history.replaceState(null, '', '/m/mall?from=cafe&to=sushi');
    render(<Viewer map={publicMap({ state: 1 })} />);
    await screen.findByRole('heading', { level: 1, name: 'Riverside Mall' });
    expect(screen.queryByRole('region', { name: 'Directions' })).not.toBeInTheDocument();
  });

  it('is a kiosk with ?here=: a fixed start marked "You are here", reset after a minute untouched', async () => {
    const user = userEvent.setup();
    window.history.replaceState(null, '', '/m/mall?here=books');
    render(<Viewer map={publicMap()} />);
    await screen.findByRole('region', { name: 'Directions' });
    expect(screen.queryByRole('combobox', { name: 'From' })).not.toBeInTheDocument();
    expect(screen.getByText('You are here', { selector: '.mf-place__here strong' })).toBeInTheDocument();
    expect(document.querySelector('.mf-route__here-label')).toHaveTextContent('You are here');
    await pick(user, 'To', 'sakura', 'Sakura Sushi');
    expect(stepTexts()[0]).toBe('Start at Page Turner Books');
    expect(window.location.search).toBe('?here=books&to=sushi');

    // The visitor's last touch (the minute counts from there).
    vi.useFakeTimers();
    fireEvent.pointerDown(document.body);
    act(() => vi.advanceTimersByTime(KIOSK_IDLE_MS - 1000));
    expect(screen.getByRole('combobox', { name: 'To' })).toHaveValue('Sakura Sushi');
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByRole('combobox', { name: 'To' })).toHaveValue('');
    expect(screen.queryByRole('list', { name: 'Directions' })).not.toBeInTheDocument();
    expect(window.location.search).toBe('?here=books');
  });
});

describe('the /wayfinding page\u2019s live demo', () => {
  it('frames the demo mall on its step-free pair, and the switch shows the step-free route', async () => {
    const user = userEvent.setup();
    // The pair the demo's network was laid out for (its step-free route differs from the shortest).
    expect({ from: DEMO_ROUTE.from, to: DEMO_ROUTE.to }).toEqual(DEMO_STEP_FREE_PAIR);
    render(<WayfindingLiveDemo />);
    const frame = screen.getByTitle(/^Map: Riverside Mall \(demo\), directions/);
    expect(frame.getAttribute('src')).toBe('/m/demo?from=g-urbanthread&to=l1-cinema');
    expect(frame).toHaveAttribute('loading', 'lazy');
    const options = screen.getByRole('group', { name: 'Route shown' });
    expect(within(options).getByRole('button', { name: 'Shortest route' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(within(options).getByRole('button', { name: 'Step-free route' }));
    expect(screen.getByTitle('Map: Riverside Mall (demo), directions, step-free').getAttribute('src')).toBe('/m/demo?from=g-urbanthread&to=l1-cinema&stepfree=1');
  });
});
