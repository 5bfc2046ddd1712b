/**
 * Directions in the public viewer, in Chromium, on a two-floor map made through the API
 * (stairs at the west end, a lift at the east end) published as Professional (state 3):
 * asking for directions through the pickers, step-free moving the route from the stairs to
 * the lift, following the steps by keyboard (the map goes to Level 1 with the route), the
 * route's address opened in a fresh browser context giving the same route, a phone's width,
 * and a Basic map (state 1) offering no directions at all, not even through its address.
 *
 * Publishing goes through hosting slots (another issue); here a map is made public by setting
 * its state in the maps_list read model directly, like the viewer's own e2e test.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../events/map-document.js';
import { startBrowserSession } from '../support/browser.js';
import { createMapAs, registerUser, type TestServer, type TestUser } from '../support/test-server.js';
import { directionsStatus, openViewer, routeDrawn, stepTexts } from './support/directions.js';
import { floorPlan as plan, uploadPlan } from './support/floor-plans.js';
import { animationsEnded } from './support/animations.js';

/** Two floors, each a corridor at y 300 from x 100 (stairs) to x 900 (lift). */
function twoFloorDocument(groundUrl: string, upperUrl: string) {
  const corridor = (floor: string, layer: string) => ({
    nodes: [100, 300, 500, 700, 900].map((x, index) => ({ id: `${floor}${index}`, layer, x, y: 300 })),
    edges: [0, 1, 2, 3].map((index) => ({ id: `${floor}e${index}`, from: `${floor}${index}`, to: `${floor}${index + 1}` })),
  });
  const ground = corridor('g', 'ground');
  const upper = corridor('u', 'upper');
  const at = (x: number, y: number) => ({ position: { x, y } });
  return {
    version: 3,
    settings: { ...defaultSettings(), size: { width: 1000, height: 600 }, maxZoom: 6, defaultLayer: 'ground' },
    layers: [
      { id: 'ground', name: 'Ground floor', file: { kind: 'svg', url: groundUrl, width: 1000, height: 600 } },
      { id: 'upper', name: 'Level 1', file: { kind: 'svg', url: upperUrl, width: 1000, height: 600 } },
    ],
    groups: [{ id: 'shops', name: 'Shops', color: '#2563eb', legend: true }],
    locations: [
      { id: 'shoes', title: 'Bella Shoes', layer: 'ground', groups: ['shops'], ...at(140, 240), entrances: ['g0'] },
      { id: 'books', title: 'Page Turner Books', layer: 'ground', groups: ['shops'], ...at(500, 240), entrances: ['g2'] },
      { id: 'sushi', title: 'Sakura Sushi', layer: 'upper', groups: ['shops'], ...at(260, 240), entrances: ['u1'] },
      { id: 'cinema', title: 'Cinéma Royale', layer: 'upper', groups: ['shops'], ...at(700, 240), entrances: ['u3'] },
    ],
    styles: { regions: { base: '#e2e8f0', hover: '#c7d2fe', active: '#818cf8' } },
    paths: {
      nodes: [...ground.nodes, ...upper.nodes],
      edges: [...ground.edges, ...upper.edges],
      connectors: [
        { id: 'stairs', kind: 'stairs', nodes: ['g0', 'u0'] },
        { id: 'lift', kind: 'lift', nodes: ['g4', 'u4'] },
      ],
    },
  };
}

/** Where to save screenshots (SHOTS_DIR=… when someone wants to look at them). */
const SHOTS = process.env.SHOTS_DIR;
const shoot = async (page: Page, name: string) => {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png` });
};

/** axe-core, run through DevTools (the page's CSP refuses an inline script), as in accessibility.test.ts. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
async function expectAccessible(page: Page, where: string) {
  // Colours read once the panel's motion has ended, as a person sees them (sharing.test.ts once
  // measured a whole page mid-fade).
  await animationsEnded(page);
  await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations)`)) as Array<{ id: string; impact: string | null; nodes: Array<{ target: unknown }> }>;
  const blocking = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(blocking.map((violation) => `${violation.impact}: ${violation.id} at ${JSON.stringify(violation.nodes.map((node) => [node.target, (node as { failureSummary?: string }).failureSummary]))}`), where).toEqual([]);
}

describe('directions in the viewer, in Chromium', () => {
  let session: Awaited<ReturnType<typeof startBrowserSession>>;
  let server: TestServer;
  let browser: Browser;
  let owner: TestUser;
  let proMap: string;
  let basicMap: string;

  beforeAll(async () => {
    session = await startBrowserSession();
    ({ server, browser } = session);
    owner = await registerUser(server);
    const upload = (svg: string) => uploadPlan(server, owner, svg);
    const document = twoFloorDocument(await upload(plan('Ground floor')), await upload(plan('Level 1')));
    for (const [title, state] of [['Harbour Centre', 3], ['Corner Arcade', 1]] as const) {
      const id = await createMapAs(server, owner, title, document);
      await server.database.db.query('UPDATE maps_list SET state = $2 WHERE id = $1', [id, state]);
      if (state === 3) proMap = id;
      else basicMap = id;
    }
  });
  afterAll(async () => {
    await session?.close();
  });

  const open = (path: string, title: string, viewport?: { width: number; height: number }) => openViewer(browser, server, path, title, viewport);

  it('finds a route, moves it to the lift when step-free, follows it by keyboard, and opens the same route from its address', async () => {
    const { context, page, errors } = await open(`/m/${proMap}`, 'Harbour Centre');
    await page.getByRole('button', { name: 'Directions', exact: true }).click();
    const from = page.getByRole('combobox', { name: 'From' });
    await from.waitFor();
    await from.fill('bella');
    await page.getByRole('listbox', { name: 'From' }).getByRole('option', { name: /^Bella Shoes/ }).waitFor();
    await page.keyboard.press('Enter');
    await expect.poll(() => from.inputValue()).toBe('Bella Shoes');
    const to = page.getByRole('combobox', { name: 'To' });
    await to.fill('SAKURA');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(() => to.inputValue()).toBe('Sakura Sushi');

    await expect.poll(() => stepTexts(page)).toContain('Take the stairs to Level 1');
    // The route is drawn on the ground floor, and the floors it uses are marked.
    await routeDrawn(page);
    await page.getByRole('button', { name: 'Level 1, on the route' }).waitFor();

    await page.getByRole('switch', { name: /Step-free/ }).click();
    await expect.poll(() => stepTexts(page)).toContain('Take the lift to Level 1');
    expect(await stepTexts(page)).not.toContain('Take the stairs to Level 1');
    await expectAccessible(page, 'directions at 1280');
    const url = new URL(page.url());
    expect([url.searchParams.get('from'), url.searchParams.get('to'), url.searchParams.get('stepfree')]).toEqual(['shoes', 'sushi', '1']);
    const steps = await stepTexts(page);

    // Following by keyboard: the list is one Tab stop; arrows move; the map goes to Level 1.
    const items = page.getByRole('list', { name: 'Directions', exact: true }).getByRole('listitem');
    await items.first().focus();
    const lift = steps.indexOf('Take the lift to Level 1');
    for (let index = 0; index < lift; index++) await page.keyboard.press('ArrowDown');
    expect(await items.nth(lift).evaluate((element) => element === document.activeElement)).toBe(true);
    await expect.poll(() => directionsStatus(page).textContent()).toMatch(new RegExp(`^Step ${lift + 1} of ${steps.length}: Take the lift to Level 1, \\d+ m\\.$`));
    const prompt = page.getByRole('group', { name: 'Floor change' });
    await prompt.getByText('Take the lift to Level 1').waitFor();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.getByRole('button', { name: 'Level 1, on the route' }).getAttribute('aria-pressed')).toBe('true');
    await page.keyboard.press('End');
    await expect.poll(() => directionsStatus(page).textContent()).toMatch(new RegExp(`^Step ${steps.length} of ${steps.length}: Sakura Sushi is`));
    expect(await items.last().getAttribute('aria-current')).toBe('step');
    await shoot(page, 'e2e-1280-level1');

    // The route's address in a fresh context (nothing shared): the same route.
    const fresh = await open(url.pathname + url.search, 'Harbour Centre');
    await expect.poll(() => stepTexts(fresh.page)).toEqual(steps);
    expect(await fresh.page.getByRole('switch', { name: /Step-free/ }).getAttribute('aria-checked')).toBe('true');
    expect(await fresh.page.getByRole('combobox', { name: 'From' }).inputValue()).toBe('Bella Shoes');
    expect(fresh.errors).toEqual([]);
    await fresh.context.close();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('works at a phone\u2019s width: the panel under the map, the route above it', async () => {
    const { context, page, errors } = await open(`/m/${proMap}?from=books&to=cinema&stepfree=1`, 'Harbour Centre', { width: 375, height: 740 });
    await expect.poll(() => stepTexts(page)).toContain('Take the lift to Level 1');
    const panel = await page.locator('.mf-directions-sheet').boundingBox();
    const map = await page.locator('.mf-stage').boundingBox();
    expect(panel!.width).toBe(375);
    expect(map!.y + map!.height).toBeLessThanOrEqual(panel!.y + 20);
    await routeDrawn(page);
    await shoot(page, 'e2e-375');
    await expectAccessible(page, 'directions at 375');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('speaks the visitor\u2019s language: the route\u2019s address with ?lang=es, then ?lang=ar read right to left', async () => {
    for (const [lang, title, lift, status] of [
      ['es', 'Cómo llegar', 'Toma el ascensor hasta Level 1', /^Paso 1 de \d+: Empieza en Page Turner Books\.$/],
      ['ar', 'الاتجاهات', 'استقل المصعد إلى Level 1', /^الخطوة \S+ من \S+: ابدأ من Page Turner Books\.$/],
    ] as const) {
      const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`/m/${proMap}?from=books&to=cinema&stepfree=1&lang=${lang}`);
      await page.waitForFunction(() => (window as { __mapfoldViewerReady?: number }).__mapfoldViewerReady);
      const steps = page.getByRole('list', { name: title, exact: true });
      await expect.poll(() => steps.locator('.mf-step__sentence').allTextContents()).toContain(lift);
      expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([lang, lang === 'ar' ? 'rtl' : 'ltr']);
      await routeDrawn(page);
      await shoot(page, `e2e-1280-${lang}`);
      if (lang === 'ar') await expectAccessible(page, 'directions in Arabic');
      // Following the route by keyboard: the first step is read out in the page's language.
      await steps.locator('.mf-step').first().focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => directionsStatus(page).textContent()).toMatch(status);
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it('offers no directions on a Basic map, not even through the address', async () => {
    const { context, page } = await open(`/m/${basicMap}?from=shoes&to=sushi`, 'Corner Arcade');
    await page.getByRole('heading', { level: 1, name: 'Corner Arcade' }).waitFor();
    expect(await page.getByRole('button', { name: 'Directions', exact: true }).count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Directions' }).count()).toBe(0);
    expect(await page.locator('.mf-route').count()).toBe(0);
    await context.close();
  });
});
