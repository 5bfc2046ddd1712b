/**
 * The public viewer in Chromium, signed out, against the built client: search and filters,
 * Tab to a location and Enter for its details, Esc back, a click on a marker (canvas) and on a
 * region (inlined SVG), deep links with the back button, a test map shown to its owner only,
 * and the embed: in another site's page, a wheel over the map scrolls that page until the map
 * has the focus.
 *
 * Publishing goes through hosting slots (another issue); here a map is made public by setting
 * its state in the maps_list read model directly.
 */
import { createServer, type Server } from 'node:http';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embedSnippet } from '../../client/src/utils/embed.js';
import { defaultSettings } from '../../events/map-document.js';
import { startBrowserSession } from '../support/browser.js';
import { searchBoxHydrated } from './support/hydration.js';
import { steady } from './support/animations.js';
import { call, projected, registerUser, type TestServer, type TestUser } from '../support/test-server.js';

const PLAN = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1000 600" width="1000" height="600">
  <rect x="10" y="10" width="980" height="580" rx="16" fill="#f8fafc" stroke="#64748b" stroke-width="4"/>
  <rect id="r-books" x="40" y="40" width="200" height="160" fill="#e2e8f0" stroke="#94a3b8"/>
  <rect id="r-shoes" x="760" y="40" width="200" height="160" fill="#e2e8f0" stroke="#94a3b8"/>
  <rect id="r-cinema" x="40" y="400" width="200" height="160" fill="#e2e8f0" stroke="#94a3b8" onclick="alert(1)"/>
  <script>window.parent.__planScriptRan = true</script>
</svg>`;

type Loc = Record<string, unknown> & { id: string; title: string };

function documentWith(planUrl: string) {
  const at = (x: number, y: number) => ({ position: { x, y } });
  const locations: Loc[] = [
    { id: 'cafe', title: 'Café Lumière', about: 'Espresso by the fountain', groups: ['food'], marker: 'pin', ...at(400, 300), phone: '+1 555 0101', hours: 'Daily 8:00–20:00' },
    { id: 'baker', title: 'Bäckerei Müller', about: 'Bread and pretzels', groups: ['food'], marker: 'circle', ...at(520, 300) },
    { id: 'sushi', title: 'Sakura Sushi', groups: ['food'], marker: 'pin', ...at(640, 300) },
    { id: 'tacos', title: 'Taco Loco', groups: ['food'], marker: 'dot', ...at(400, 420) },
    { id: 'pizza', title: 'Bella Napoli', groups: ['food'], marker: 'pin', ...at(520, 420), link: 'https://napoli.example/' },
    { id: 'books', title: 'Page Turner Books', groups: ['shops'], element: 'r-books', marker: 'label', ...at(140, 120) },
    { id: 'shoes', title: 'Bella Shoes', groups: ['shops'], element: 'r-shoes', marker: 'hidden' },
    { id: 'cinema', title: 'Cinéma Royale', groups: ['shops'], element: 'r-cinema', marker: 'label', ...at(140, 480) },
    { id: 'tech', title: 'Pixel & Plug', groups: ['shops'], marker: 'pin', ...at(640, 420) },
    { id: 'florist', title: 'Blossom Florist', groups: ['shops'], marker: 'circle', ...at(760, 300) },
  ];
  return {
    version: 2,
    // The product's default settings, with this map's size, zoom range, accent and minimap.
    settings: {
      ...defaultSettings(),
      size: { width: 1000, height: 600 },
      maxZoom: 6,
      theme: { ...defaultSettings().theme, accent: '#4f46e5' },
      features: { ...defaultSettings().features, minimap: true },
      defaultLayer: 'ground',
    },
    layers: [{ id: 'ground', name: 'Ground floor', file: { kind: 'svg', url: planUrl, width: 1000, height: 600 } }],
    groups: [
      { id: 'food', name: 'Food & drink', color: '#ea580c', legend: true },
      { id: 'shops', name: 'Shops', color: '#2563eb', legend: true },
    ],
    locations: locations.map((location) => ({ layer: 'ground', ...location })),
    styles: { regions: { base: '#e2e8f0', hover: '#c7d2fe', active: '#818cf8' } },
  };
}

/** A second site: a blog page that embeds the map. */
function startOtherSite(): Promise<{ server: Server; url: string; setEmbed(html: string): void }> {
  let embed = '';
  const server = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html><head><meta charset="utf-8"><title>Blog</title></head>
      <body style="margin:0;font-family:sans-serif">
        <h1 style="margin:16px">Visit us</h1>
        <div style="height:500px;background:#eee">Intro</div>
        <div style="width:900px;margin:0 auto">${embed}</div>
        <div style="height:2000px">More text</div>
      </body></html>`);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      resolve({ server, url: `http://127.0.0.1:${port}`, setEmbed: (html) => (embed = html) });
    }),
  );
}

/** The scale of the map's transform (how far it is zoomed). */
const scaleOf = (frame: Page | Frame) =>
  frame.locator('.mf-world').evaluate((element) => Number(/scale\(([\d.e-]+)\)/.exec((element as HTMLElement).style.transform)?.[1] ?? NaN));

describe('the public viewer in Chromium', () => {
  let session: Awaited<ReturnType<typeof startBrowserSession>>;
  let server: TestServer;
  let browser: Browser;
  let site: Awaited<ReturnType<typeof startOtherSite>>;
  let owner: TestUser;
  let mapId: string;
  let testMapId: string;

  beforeAll(async () => {
    session = await startBrowserSession();
    ({ server, browser } = session);
    site = await startOtherSite();
    owner = await registerUser(server);
    // The floor plan is uploaded (floors take only the product's own files; it is sanitised on the way in).
    const uploaded = await fetch(`${server.url}/api/files`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream', cookie: owner.cookie },
      body: PLAN,
    });
    expect(uploaded.status).toBe(200);
    const planUrl = ((await uploaded.json()) as { result: { url: string } }).result.url;
    const created = await call(server, 'createMap', { title: 'Harbour Market', mapData: documentWith(planUrl) }, owner);
    expect(created.status).toBe(200);
    mapId = created.body.result;
    await projected(server, created.body.position);
    await server.database.db.query('UPDATE maps_list SET state = 1 WHERE id = $1', [mapId]);
    const draft = await call(server, 'createMap', { title: 'Draft plan', mapData: documentWith(planUrl) }, owner);
    testMapId = draft.body.result;
    await projected(server, draft.body.position);
  });
  afterAll(async () => {
    site?.server.close();
    await session?.close();
  });

  async function openViewer(path = `/m/${mapId}`, viewport = { width: 1280, height: 800 }, prepare?: (page: Page) => Promise<unknown>) {
    const context = await browser.newContext({ baseURL: server.url, viewport });
    const page = await context.newPage();
    await prepare?.(page);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('dialog', (dialog) => {
      errors.push(`dialog: ${dialog.message()}`);
      void dialog.dismiss();
    });
    await page.goto(path);
    await page.getByRole('heading', { level: 1, name: 'Harbour Market' }).waitFor();
    return { context, page, errors };
  }

  /** How long the page may take to settle after an action (a chunk to hydrate, an effect to focus). */
  const SETTLED = { timeout: 10_000 };
  const listed = (page: Page) => page.getByRole('list', { name: 'Locations', exact: true }).locator('.mf-item__title').allTextContents();

  it('searches without minding accents, filters by group, and opens details from the keyboard', async () => {
    const { context, page, errors } = await openViewer();
    expect(await page.title()).toBe('Harbour Market · Mapfold');
    expect(await listed(page)).toHaveLength(10);

    // The directory hydrates just after the map, from its own chunk; here the search is tested
    // once Preact has the box (its handlers are on the element): typing before that is the next case.
    await page.waitForFunction(searchBoxHydrated);
    const search = page.getByRole('searchbox', { name: 'Search locations' });
    await search.fill('cafe lumiere');
    await expect.poll(() => listed(page), SETTLED).toEqual(['Café Lumière']);
    await search.fill('MULLER');
    await expect.poll(() => listed(page), SETTLED).toEqual(['Bäckerei Müller']);
    await search.fill('');
    await page.getByRole('group', { name: 'Filter by group' }).getByRole('button', { name: 'Shops' }).click();
    await expect.poll(() => listed(page), SETTLED).toEqual(['Bella Shoes', 'Blossom Florist', 'Cinéma Royale', 'Page Turner Books', 'Pixel & Plug']);
    await page.getByRole('group', { name: 'Filter by group' }).getByRole('button', { name: 'Shops' }).click();

    // Tab from the map to its first location (reading order: top left first).
    await page.locator('.mf-viewport').focus();
    await page.keyboard.press('Tab');
    const focusedName = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    expect(await focusedName()).toBe('Page Turner Books, Shops');
    await page.keyboard.press('Tab');
    expect(await focusedName()).toBe('Café Lumière, Food & drink');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Café Lumière' });
    await dialog.waitFor();
    // The dialog takes the focus once it is drawn (an effect), and gives it back when closed: waited for as a screen reader would.
    await expect.poll(() => dialog.evaluate((element) => element === document.activeElement), SETTLED).toBe(true);
    await expect.poll(() => dialog.getByRole('link', { name: '+1 555 0101' }).getAttribute('href')).toBe('tel:+15550101');
    expect(new URL(page.url()).searchParams.get('location')).toBe('cafe');

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(focusedName, SETTLED).toBe('Café Lumière, Food & drink');
    expect(new URL(page.url()).searchParams.get('location')).toBeNull();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('filters the list by a search typed before the directory hydrated', async () => {
    // The directory's chunk is held back until the visitor has typed, as on a slow phone line
    // where the server's search box is there well before Preact takes it over.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const { context, page, errors } = await openViewer(undefined, undefined, (page) =>
      page.route(/\/assets\/hydrated-later-[^/]+\.js$/, async (route) => {
        await held;
        await route.continue();
      }),
    );
    const search = page.getByRole('searchbox', { name: 'Search locations' });
    await search.fill('sakura');
    release();
    await page.waitForFunction(searchBoxHydrated);
    await expect.poll(() => listed(page), SETTLED).toEqual(['Sakura Sushi']);
    expect(await search.inputValue()).toBe('sakura');
    // And the box goes on working as Preact's own.
    await search.fill('bella');
    await expect.poll(() => listed(page), SETTLED).toEqual(['Bella Napoli', 'Bella Shoes']);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('opens a marker drawn on the canvas and a region of the inlined, sanitised floor plan by click', async () => {
    const { context, page, errors } = await openViewer();
    await page.waitForFunction(() => document.querySelector('.mf-base')?.shadowRoot?.querySelector('[data-mf-loc="cinema"]'), undefined, { timeout: 5000 });
    // The plan's script and handler were dropped.
    expect(await page.evaluate(() => (window as { __planScriptRan?: boolean }).__planScriptRan ?? false)).toBe(false);
    expect(await page.locator('.mf-base').evaluate((host) => host.shadowRoot!.querySelector('[onclick], script') === null)).toBe(true);

    // A marker: where the camera puts layer point (640, 300), Sakura Sushi's pin.
    const point = await page.locator('.mf-world').evaluate((world, [x, y]) => {
      const match = /translate\(([-\d.e]+)px, ([-\d.e]+)px\) scale\(([\d.e-]+)\)/.exec((world as HTMLElement).style.transform)!;
      const viewport = world.parentElement!.getBoundingClientRect();
      return { x: viewport.left + Number(match[1]) + x! * Number(match[3]), y: viewport.top + Number(match[2]) + y! * Number(match[3]) };
    }, [640, 300]);
    await page.mouse.move(point.x, point.y - 16);
    await page.getByRole('tooltip').getByText('Sakura Sushi').waitFor({ timeout: 5000 });
    await page.mouse.click(point.x, point.y - 16);
    await page.getByRole('dialog', { name: 'Sakura Sushi' }).waitFor();
    await page.getByRole('dialog', { name: 'Sakura Sushi' }).getByRole('button', { name: 'Close' }).click();

    // A region without a marker: Bella Shoes.
    const region = await page.locator('.mf-base').evaluate((host) => {
      const rect = host.shadowRoot!.querySelector('[data-mf-loc="shoes"]')!.getBoundingClientRect();
      return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
    });
    await page.mouse.click(region.x, region.y);
    await page.getByRole('dialog', { name: 'Bella Shoes' }).waitFor();
    expect(await page.locator('.mf-base').evaluate((host) => host.shadowRoot!.querySelector('[data-mf-loc="shoes"]')!.hasAttribute('data-mf-active'))).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('opens the location a link names, and the back button closes what the visitor opened', async () => {
    const { context, page } = await openViewer(`/m/${mapId}?location=baker`);
    await page.getByRole('dialog', { name: 'Bäckerei Müller' }).waitFor();
    await page.getByRole('dialog', { name: 'Bäckerei Müller' }).getByRole('button', { name: 'Close' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(new URL(page.url()).search).toBe('');

    await page.getByRole('list', { name: 'Locations', exact: true }).getByRole('button', { name: /Taco Loco/ }).click();
    await page.getByRole('dialog', { name: 'Taco Loco' }).waitFor();
    expect(new URL(page.url()).searchParams.get('location')).toBe('tacos');
    await page.goBack();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(new URL(page.url()).search).toBe('');
    expect(new URL(page.url()).pathname).toBe(`/m/${mapId}`);
    await page.goForward();
    await page.getByRole('dialog', { name: 'Taco Loco' }).waitFor();
    await context.close();
  });

  it('on a phone, the directory is a bottom sheet and the details slide up from the bottom', async () => {
    const context = await browser.newContext({ baseURL: server.url, viewport: { width: 375, height: 812 }, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    await page.goto(`/m/${mapId}`);
    const open = page.getByRole('button', { name: /Search 10 locations/ });
    await open.click();
    const sheet = page.getByRole('dialog', { name: 'Directory' });
    await sheet.getByRole('heading', { level: 1, name: 'Harbour Market' }).waitFor();
    await sheet.getByRole('searchbox', { name: 'Search locations' }).fill('sushi');
    await sheet.getByRole('button', { name: /Sakura Sushi/ }).click();
    await sheet.waitFor({ state: 'detached' });
    const details = page.getByRole('dialog', { name: 'Sakura Sushi' });
    await details.waitFor();
    expect(await details.evaluate((element) => getComputedStyle(element).position)).toBe('fixed');
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'detached' });
    // The focus comes back once the closed details' render has been committed (an effect, after the removal).
    await expect.poll(() => open.evaluate((element) => element === document.activeElement)).toBe(true);
    await context.close();
  });

  it('keeps a test map to its owner', async () => {
    const context = await browser.newContext({ baseURL: server.url });
    const page = await context.newPage();
    await page.goto(`/m/${testMapId}`);
    await page.getByRole('heading', { name: 'This map is not available' }).waitFor();

    const [name, value] = owner.cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: server.url }]);
    await page.goto(`/m/${testMapId}`);
    await page.getByRole('heading', { level: 1, name: 'Draft plan' }).waitFor();
    await page.getByRole('note').getByText('Only you and admins can see it until it is published.').waitFor();
    await context.close();
  });

  it('embedded in another site, the page keeps its wheel scrolling until the map has the focus', async () => {
    site.setEmbed(embedSnippet({ mapId, publicUrl: server.url, title: 'Harbour Market', aspectRatio: 16 / 10 }));
    const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
    const page = await context.newPage();
    await page.goto(site.url);
    const iframe = page.locator('iframe[title="Map: Harbour Market"]');
    expect(await iframe.getAttribute('loading')).toBe('lazy');
    await iframe.scrollIntoViewIfNeeded();
    const frame = (await iframe.elementHandle())!.contentFrame();
    const map = (await frame)!;
    await map.getByRole('heading', { level: 1, name: 'Harbour Market' }).waitFor();
    await map.locator('.mf-world').waitFor();
    // The map on screen, knowing it is embedded (cooperative gestures, learnt after hydrating),
    // and its camera at rest (it fits the plan as the frame settles).
    await map.waitForFunction(() => (window as { __mapfoldViewerReady?: number }).__mapfoldViewerReady);
    await map.locator('[data-cooperative="true"]').waitFor({ state: 'attached' });
    const scaleBefore = await steady(map, () => scaleOf(map));

    const box = (await iframe.boundingBox())!;
    const scrollBefore = await page.evaluate(() => window.scrollY);
    // Over the map, not the sidebar: the map area starts after the 340 px directory.
    await page.mouse.move(box.x + 340 + (box.width - 340) / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, 240);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(scrollBefore);
    expect(await scaleOf(map)).toBe(scaleBefore);
    await map.locator('.mf-hint.is-visible').waitFor();

    // Once the visitor clicks into the map, the wheel zooms it and the page stays put.
    const inside = (await iframe.boundingBox())!;
    await page.mouse.click(inside.x + 350, inside.y + inside.height / 2);
    const scrollFocused = await page.evaluate(() => window.scrollY);
    await page.mouse.move(inside.x + 340 + (inside.width - 340) / 2, inside.y + inside.height / 2);
    await page.mouse.wheel(0, -240);
    await expect.poll(() => scaleOf(map)).toBeGreaterThan(scaleBefore);
    expect(await page.evaluate(() => window.scrollY)).toBe(scrollFocused);
    await context.close();
  });
});
