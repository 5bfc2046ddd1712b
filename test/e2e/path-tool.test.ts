/**
 * The editor's path tool in Chromium, as a map maker goes through it: paths laid by clicks on
 * the ground floor (a branch by shift-click), a link made one-way with a step from the panel, a
 * lift placed from the dialog on both floors, paths on the first floor from the lift, a shop's
 * entrance chosen on the map, "test a route" across the floors, a point dragged and the drag
 * undone; everything saved as the server reads it back. And on a street map (a floor MapLibre
 * draws on the basemap, its units longer down than across), a path laid from one store's pin to
 * another's: its points are the stores' places, and its line is drawn from pin to pin.
 */
import { describe, expect, it } from 'vitest';
import { signedInContext, useBrowserSession } from '../support/browser.js';
import { call, projected, registerUser } from '../support/test-server.js';
import { canvasPoints as at, clickAt as click, floorButton, savedMapData, toolButton as tool } from './support/editor-canvas.js';
import { AUSTIN_PINS, HOUSTON_PINS, pinAtRest, READY, storePoint, streetStores } from './support/street-stores.js';

const TIMEOUT = 15_000;

describe('the path tool in Chromium', () => {
  const session = useBrowserSession();

  it('draws, joins floors with a lift, sets an entrance, tests a route and saves it all', { timeout: 180_000 }, async () => {
    const { server, browser } = session;
    const owner = await registerUser(server);
    const created = await call(server, 'createMap', { title: 'Harbour Centre' }, owner);
    const mapId = created.body.result as string;
    const location = (id: string, title: string, layer: string, x: number, y: number) => ({ type: 'LocationAdded', location: { id, title, layer, position: { x, y }, marker: 'circle' } });
    const edited = await call(server, 'editMap', { id: mapId, edits: [{ type: 'LayerAdded', layer: { id: 'first', name: 'First floor' } }, location('cafe', 'Cafe', 'ground', 300, 250), location('gym', 'Gym', 'first', 660, 250)] }, owner);
    await projected(server, edited.body.position);
    const saved = () => savedMapData(server, mapId, owner);

    const context = await signedInContext(browser, server, owner);
    const page = await context.newPage();
    await page.goto(`/maps/${mapId}`);
    await tool(page, 'Draw paths').click();
    await expect.poll(() => page.getByRole('tab', { name: 'Paths' }).getAttribute('aria-selected'), { timeout: TIMEOUT }).toBe('true');
    let map = await at(page);
    // An L-shaped corridor, then a branch from its corner.
    await click(page, map(0.3, 0.3));
    await click(page, map(0.6, 0.31)); // snapped level with the first point
    await click(page, map(0.6, 0.7));
    await page.keyboard.press('Escape');
    await click(page, map(0.6, 0.3), true);
    await click(page, map(0.8, 0.3));
    await page.keyboard.press('Escape');
    await expect.poll(async () => (await saved()).paths.edges.length, { timeout: TIMEOUT }).toBe(3);
    const ground = (await saved()).paths.nodes;
    expect(ground).toHaveLength(4);
    expect(ground[1]!.y).toBe(ground[0]!.y);

    // The branch's link: one-way, with a step.
    await click(page, map(0.7, 0.3));
    await page.getByRole('checkbox', { name: /One-way/ }).check();
    await page.getByRole('checkbox', { name: /Step-free \(no steps/ }).uncheck();
    await expect.poll(async () => (await saved()).paths.edges.filter((edge) => edge.oneWay && !edge.stepFree).length, { timeout: TIMEOUT }).toBe(1);

    // A lift at the corridor's end, on both floors, in one edit.
    await tool(page, 'Add connector').click();
    await click(page, map(0.6, 0.8));
    const dialog = page.getByRole('dialog', { name: 'New connector' });
    await dialog.getByLabel('Name (optional)').fill('Lift A');
    await dialog.getByRole('button', { name: 'Add connector' }).click();
    await expect.poll(async () => (await saved()).paths.connectors, { timeout: TIMEOUT }).toEqual([expect.objectContaining({ kind: 'lift', name: 'Lift A' })]);
    // Back in the path tool: the lift's stop joined to the corridor's end.
    await click(page, map(0.6, 0.8), true);
    await click(page, map(0.6, 0.7));
    await page.keyboard.press('Escape');

    // The first floor: from the lift to the gym.
    await floorButton(page, 'First floor').click();
    map = await at(page);
    await click(page, map(0.6, 0.8), true);
    await click(page, map(0.6, 0.3));
    await click(page, map(0.75, 0.3));
    await page.keyboard.press('Escape');
    await expect.poll(async () => (await saved()).paths.nodes.filter((node) => node.layer === 'first').length, { timeout: TIMEOUT }).toBe(3);

    // The cafe's entrance: the corridor's first point, chosen on the map.
    await tool(page, 'Select').click();
    await floorButton(page, 'Ground floor').click();
    await page.getByRole('tab', { name: 'Locations' }).click();
    await page.locator('.ed-panel').getByRole('button', { name: /^Cafe/ }).first().click();
    await page.getByRole('button', { name: 'Choose a path point on the map' }).click();
    map = await at(page);
    await click(page, map(0.3, 0.3));
    const first = ground[0]!.id;
    await expect.poll(async () => (await saved()).locations.find((candidate) => candidate.id === 'cafe')?.entrances, { timeout: TIMEOUT }).toEqual([first]);

    // Test a route from the cafe to the gym: through the lift.
    await page.getByRole('tab', { name: 'Paths' }).click();
    await page.getByRole('combobox', { name: 'From' }).selectOption({ label: 'Cafe (Ground floor)' });
    await page.getByRole('combobox', { name: 'To' }).selectOption({ label: 'Gym (First floor)' });
    await page.getByRole('button', { name: 'Show route' }).click();
    const steps = page.getByRole('list', { name: 'Route steps' });
    await steps.waitFor({ timeout: TIMEOUT });
    expect(await steps.innerText()).toContain('Lift A to First floor');

    // Drag a point, then undo the drag.
    await tool(page, 'Draw paths').click();
    const corner = map(0.6, 0.3);
    await page.mouse.move(corner.x, corner.y);
    await page.mouse.down();
    await page.mouse.move(corner.x + 30, corner.y + 40, { steps: 6 });
    await page.mouse.up();
    const cornerId = ground[1]!.id;
    await expect.poll(async () => (await saved()).paths.nodes.find((node) => node.id === cornerId)!.y, { timeout: TIMEOUT }).not.toBe(ground[1]!.y);
    await page.keyboard.press('Control+z');
    await expect.poll(async () => (await saved()).paths.nodes.find((node) => node.id === cornerId), { timeout: TIMEOUT }).toEqual(ground[1]);
    await context.close();
  });

  it('lays a path from store to store on a street map, where MapLibre shows them', { timeout: 90_000 }, async () => {
    const { server, browser } = session;
    const owner = await registerUser(server);
    const created = await call(server, 'createMap', { title: 'Texas stores', mapData: streetStores() }, owner);
    await projected(server, created.body.position);
    const mapId = created.body.result as string;
    const context = await signedInContext(browser, server, owner);
    const page = await context.newPage();
    await page.goto(`/maps/${mapId}`);
    await page.locator(READY).waitFor({ timeout: 60_000 });
    const [austin, houston] = [await pinAtRest(page, AUSTIN_PINS), await pinAtRest(page, HOUSTON_PINS)];
    await tool(page, 'Draw paths').click();
    await expect.poll(() => page.getByRole('tab', { name: 'Paths' }).getAttribute('aria-selected'), { timeout: TIMEOUT }).toBe('true');
    await click(page, austin);
    await click(page, houston);
    await page.keyboard.press('Escape');
    // Saved at the stores' places on the floor (within about a pixel of the screen).
    await expect.poll(async () => (await savedMapData(server, mapId, owner)).paths.edges.length, { timeout: TIMEOUT }).toBe(1);
    const nodes = (await savedMapData(server, mapId, owner)).paths.nodes;
    for (const [node, id] of [
      [nodes[0]!, 'austin'],
      [nodes[1]!, 'houston'],
    ] as const) {
      const store = storePoint(id);
      expect(Math.hypot(node.x - store.x, node.y - store.y), `${id}: point ${JSON.stringify(node)}, store ${JSON.stringify(store)}`).toBeLessThan(3);
    }
    // Its line drawn from pin to pin.
    const line = (await page.locator('.pt-edge line').first().boundingBox())!;
    expect(Math.abs(line.x - austin.x), `the line's west end ${line.x}, Austin ${austin.x}`).toBeLessThan(4);
    expect(Math.abs(line.x + line.width - houston.x), `the line's east end ${line.x + line.width}, Houston ${houston.x}`).toBeLessThan(4);
    expect(Math.abs(line.y - austin.y), `the line's north end ${line.y}, Austin ${austin.y}`).toBeLessThan(4);
    expect(Math.abs(line.y + line.height - houston.y), `the line's south end ${line.y + line.height}, Houston ${houston.y}`).toBeLessThan(4);
    if (process.env.SCREENSHOTS) await page.screenshot({ path: `${process.env.SCREENSHOTS}/path-tool-street-map-1280.png` });
    await context.close();
  });
});
