/**
 * Wayfinding end to end in Chromium, as one customer's journey (issue 17): in the editor, paths
 * drawn on two floors with a lift and stairs placed from the connector dialog, two shops on
 * different floors given their entrances on the map, the route tested in the Paths panel; the
 * map published as a customer does (its purchase code registered, Professional bought through
 * the local test checkout, the map put in a Pro slot); then in the public viewer, directions
 * between the two shops, step-free moving the route from the stairs to the lift, the steps
 * followed by keyboard with each announced, and the route's address opened in a fresh browser
 * context giving the same steps.
 *
 * SHOTS_DIR=… saves the path tool and the directions at 1280 and 375 wide on the way.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { defaultSettings } from '../../events/map-document.js';
import { signedInContext, useBrowserSession } from '../support/browser.js';
import { createMapAs, registerUser } from '../support/test-server.js';
import { directionsStatus, openViewer, routeDrawn, routeInView, stepTexts } from './support/directions.js';
import { canvasPoints, chooseTool, clickAt, floorButton, savedMapData } from './support/editor-canvas.js';
import { PLAN_SIZE, floorPlan, uploadPlan } from './support/floor-plans.js';
import { completeCheckout, openSubscribe, startCheckout } from './support/subscribe.js';

const TIMEOUT = 20_000;
const PURCHASE_CODE = '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const SHOTS = process.env.SHOTS_DIR;
const shoot = async (page: Page, name: string) => {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png` });
};

/** Two floors with their plans and a shop on each; no paths yet (the editor draws them). */
function twoShops(groundUrl: string, upperUrl: string) {
  const floor = (id: string, name: string, url: string) => ({ id, name, file: { kind: 'svg', url, ...PLAN_SIZE } });
  return {
    version: 3,
    settings: { ...defaultSettings(), size: PLAN_SIZE, maxZoom: 6, defaultLayer: 'ground' },
    layers: [floor('ground', 'Ground floor', groundUrl), floor('upper', 'Level 1', upperUrl)],
    groups: [{ id: 'shops', name: 'Shops', color: '#2563eb', legend: true }],
    locations: [
      { id: 'shoes', title: 'Bella Shoes', layer: 'ground', groups: ['shops'], position: { x: 350, y: 200 }, entrances: [] },
      { id: 'sushi', title: 'Sakura Sushi', layer: 'upper', groups: ['shops'], position: { x: 350, y: 200 }, entrances: [] },
    ],
    styles: { regions: { base: '#e2e8f0', hover: '#c7d2fe', active: '#818cf8' } },
    paths: { nodes: [], edges: [], connectors: [] },
  };
}

describe('wayfinding, from the editor to the viewer, in Chromium', () => {
  const session = useBrowserSession();

  it('draws a two-floor network, publishes it in a Pro slot, and gives visitors the same step-free route by keyboard and by link', { timeout: 180_000 }, async () => {
    const { server, browser } = session;
    const owner = await registerUser(server);
    const plans = [await uploadPlan(server, owner, floorPlan('Ground floor')), await uploadPlan(server, owner, floorPlan('Level 1'))] as const;
    const mapId = await createMapAs(server, owner, 'Harbour Centre', twoShops(...plans));
    const saved = () => savedMapData(server, mapId, owner);
    const context = await signedInContext(browser, server, owner);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`/maps/${mapId}`);

    // Stairs at the west end and a lift at the east end, each on both floors, from the dialog.
    const connector = async (kind: 'Stairs' | 'Lift', name: string, fx: number) => {
      await chooseTool(page, 'Add connector');
      await clickAt(page, (await canvasPoints(page))(fx, 0.5));
      const dialog = page.getByRole('dialog', { name: 'New connector' });
      await dialog.getByRole('radio', { name: kind }).check();
      await dialog.getByLabel('Name (optional)').fill(name);
      expect(await dialog.getByRole('checkbox', { name: /Ground floor/ }).isChecked()).toBe(true);
      expect(await dialog.getByRole('checkbox', { name: /Level 1/ }).isChecked()).toBe(true);
      await dialog.getByRole('button', { name: 'Add connector' }).click();
      await dialog.waitFor({ state: 'detached' });
    };
    await connector('Stairs', 'West stairs', 0.2);
    await connector('Lift', 'Lift A', 0.8);
    await expect.poll(async () => (await saved()).paths.connectors.map(({ kind, name, nodes }) => [kind, name, nodes.length]), { timeout: TIMEOUT }).toEqual([
      ['stairs', 'West stairs', 2],
      ['lift', 'Lift A', 2],
    ]);

    // On each floor a corridor from the stairs' stop to the lift's, with a point by the shop.
    const corridor = async (floor: string) => {
      await floorButton(page, floor).click();
      await chooseTool(page, 'Draw paths');
      const map = await canvasPoints(page);
      await clickAt(page, map(0.2, 0.5), true);
      await clickAt(page, map(0.35, 0.5));
      await clickAt(page, map(0.8, 0.5));
      await page.keyboard.press('Escape');
    };
    await corridor('Ground floor');
    await expect.poll(async () => (await saved()).paths.edges.length, { timeout: TIMEOUT }).toBe(2);
    await corridor('Level 1');
    await expect.poll(async () => (await saved()).paths.edges.length, { timeout: TIMEOUT }).toBe(4);
    const network = (await saved()).paths;
    // Each corridor ends on the connectors' stops: 4 stops and 2 points by the shops, no more.
    expect(network.nodes).toHaveLength(6);
    await shoot(page, 'path-tool-1280');

    // Each shop's entrance: the corridor's point by it, chosen on the map.
    const byShop = (layer: string) => network.nodes.find((node) => node.layer === layer && !network.connectors.some((stop) => stop.nodes.includes(node.id)))!.id;
    const entrance = async (floor: string, shop: string, id: string) => {
      await chooseTool(page, 'Select');
      await floorButton(page, floor).click();
      await page.getByRole('tab', { name: 'Locations' }).click();
      // The shop chosen before stays open in the panel: back to the list.
      const back = page.getByRole('button', { name: 'All locations' });
      if (await back.count()) await back.click();
      await page.locator('.ed-panel').getByRole('button', { name: new RegExp(`^${shop}`) }).first().click();
      await page.getByRole('button', { name: 'Choose a path point on the map' }).click();
      await clickAt(page, (await canvasPoints(page))(0.35, 0.5));
      await expect.poll(async () => (await saved()).locations.find((location) => location.id === id)?.entrances, { timeout: TIMEOUT }).toEqual([byShop(floor === 'Level 1' ? 'upper' : 'ground')]);
    };
    await entrance('Ground floor', 'Bella Shoes', 'shoes');
    await entrance('Level 1', 'Sakura Sushi', 'sushi');

    // Test the route in the editor: the stairs, or the lift when step-free; the plan's notice.
    await page.getByRole('tab', { name: 'Paths' }).click();
    const notice = page.getByText(/^Directions for visitors need the Professional plan/);
    await notice.waitFor({ timeout: TIMEOUT });
    await page.getByRole('combobox', { name: 'From' }).selectOption({ label: 'Bella Shoes (Ground floor)' });
    await page.getByRole('combobox', { name: 'To' }).selectOption({ label: 'Sakura Sushi (Level 1)' });
    await page.getByRole('button', { name: 'Show route' }).click();
    const tested = page.getByRole('list', { name: 'Route steps' });
    await expect.poll(() => tested.innerText(), { timeout: TIMEOUT }).toContain('West stairs to Level 1');
    await page.getByRole('checkbox', { name: /^Step-free \(lifts and ramps/ }).check();
    await page.getByRole('button', { name: 'Show route' }).click();
    await expect.poll(() => tested.innerText(), { timeout: TIMEOUT }).toContain('Lift A to Level 1');
    await shoot(page, 'path-tool-route-1280');

    // Publish as a customer: register the purchase code, buy one Pro slot, publish into it.
    await page.getByRole('tab', { name: 'Publish' }).click();
    await page.getByRole('textbox', { name: 'Purchase code' }).fill(PURCHASE_CODE);
    await page.getByRole('button', { name: 'Register licence' }).click();
    await page.getByTestId('publish-licence').waitFor({ timeout: TIMEOUT });
    await openSubscribe(page);
    await startCheckout(page, 'Professional', 1);
    await completeCheckout(page, 'Professional');
    await page.goto(`/maps/${mapId}`);
    await page.getByRole('tab', { name: 'Publish' }).click();
    await page.getByRole('button', { name: 'Publish in a Pro slot' }).click();
    await page.getByText('Live (Professional)', { exact: true }).waitFor({ timeout: TIMEOUT });
    // The Paths panel no longer asks for Professional.
    await page.getByRole('tab', { name: 'Paths' }).click();
    await page.getByRole('group', { name: 'Path tools' }).waitFor({ timeout: TIMEOUT });
    expect(await notice.count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();

    // The viewer: directions between the shops, by the stairs.
    const visitor = await openViewer(browser, server, `/m/${mapId}`, 'Harbour Centre');
    const viewer = visitor.page;
    await viewer.getByRole('button', { name: 'Directions', exact: true }).click();
    const from = viewer.getByRole('combobox', { name: 'From' });
    await from.fill('bella');
    await viewer.getByRole('listbox', { name: 'From' }).getByRole('option', { name: /^Bella Shoes/ }).waitFor({ timeout: TIMEOUT });
    await viewer.keyboard.press('Enter');
    const to = viewer.getByRole('combobox', { name: 'To' });
    await to.fill('sakura');
    await viewer.getByRole('listbox', { name: 'To' }).getByRole('option', { name: /^Sakura Sushi/ }).waitFor({ timeout: TIMEOUT });
    await viewer.keyboard.press('Enter');
    await expect.poll(() => stepTexts(viewer), { timeout: TIMEOUT }).toContain('Take West stairs to Level 1');
    await routeDrawn(viewer);

    // Step-free: the lift instead of the stairs.
    await viewer.getByRole('switch', { name: /Step-free/ }).click();
    await expect.poll(() => stepTexts(viewer), { timeout: TIMEOUT }).toContain('Take Lift A to Level 1');
    const steps = await stepTexts(viewer);
    expect(steps.join('\n')).not.toContain('West stairs');
    const url = new URL(viewer.url());
    expect([url.searchParams.get('from'), url.searchParams.get('to'), url.searchParams.get('stepfree')]).toEqual(['shoes', 'sushi', '1']);
    if (SHOTS) await routeInView(viewer);
    await shoot(viewer, 'directions-1280');

    // Following by keyboard: one Tab stop, arrows move, each step announced; the lift takes the map to Level 1.
    const items = viewer.getByRole('list', { name: 'Directions', exact: true }).getByRole('listitem');
    await items.first().focus();
    const lift = steps.indexOf('Take Lift A to Level 1');
    for (let index = 1; index <= lift; index++) {
      await viewer.keyboard.press('ArrowDown');
      await expect.poll(() => directionsStatus(viewer).textContent(), { timeout: TIMEOUT }).toMatch(new RegExp(`^Step ${index + 1} of ${steps.length}: `));
    }
    expect(await items.nth(lift).evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await directionsStatus(viewer).textContent()).toMatch(new RegExp(`^Step ${lift + 1} of ${steps.length}: Take Lift A to Level 1, \\d+ m\\.$`));
    await viewer.keyboard.press('ArrowDown');
    await expect.poll(() => viewer.getByRole('button', { name: 'Level 1, on the route' }).getAttribute('aria-pressed'), { timeout: TIMEOUT }).toBe('true');
    await viewer.keyboard.press('End');
    await expect.poll(() => directionsStatus(viewer).textContent(), { timeout: TIMEOUT }).toMatch(new RegExp(`^Step ${steps.length} of ${steps.length}: Sakura Sushi is`));
    expect(await items.last().getAttribute('aria-current')).toBe('step');

    // The route's address in a fresh context: the same steps, step-free on.
    const linked = await openViewer(browser, server, url.pathname + url.search, 'Harbour Centre');
    await expect.poll(() => stepTexts(linked.page), { timeout: TIMEOUT }).toEqual(steps);
    expect(await linked.page.getByRole('switch', { name: /Step-free/ }).getAttribute('aria-checked')).toBe('true');
    expect(await linked.page.getByRole('combobox', { name: 'From' }).inputValue()).toBe('Bella Shoes');
    expect(await linked.page.getByRole('combobox', { name: 'To' }).inputValue()).toBe('Sakura Sushi');
    expect(linked.errors).toEqual([]);
    await linked.context.close();
    expect(visitor.errors).toEqual([]);
    await visitor.context.close();

    // At a phone's width: the same route from its address, and the path tool.
    if (SHOTS) {
      const phone = await openViewer(browser, server, url.pathname + url.search, 'Harbour Centre', { width: 375, height: 740 });
      await expect.poll(() => stepTexts(phone.page), { timeout: TIMEOUT }).toEqual(steps);
      await routeInView(phone.page);
      await shoot(phone.page, 'directions-375');
      await phone.context.close();
      const editor = await signedInContext(browser, server, owner, { width: 375, height: 740 });
      const editorPage = await editor.newPage();
      await editorPage.goto(`/maps/${mapId}`);
      await chooseTool(editorPage, 'Draw paths');
      await editorPage.locator('.ed-canvas .mf-viewport').waitFor();
      await shoot(editorPage, 'path-tool-375');
      await editor.close();
    }
  });
});
