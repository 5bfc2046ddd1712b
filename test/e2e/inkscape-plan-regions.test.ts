/**
 * A real Inkscape floor plan in the editor, in Chromium against the built client: floor 8 of a
 * university building (test/fixtures/realworld), whose 71 rooms sit with made-up ids
 * (`rect3781`) in a group (`g3987`) in a layer (`layer2`), their numbers (`H865`) written
 * beside them as text. Uploaded on the Floors panel; a pin dropped inside a room is a pin (not
 * the group, not the layer); the regions dialog beside the map lights each row's room, reads the
 * room numbers as titles and makes the named ones locations in bulk (the drawing's own numbers
 * stay, not written twice); a name the drawing lacks shows inside its room on the map (at 1280
 * and on a 375 px phone, never past its room) and in the picture export. Screenshots go to $SCREENSHOTS (when set) to look at.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MapDocument } from '../../events/map-document.js';
import { signedInContext, useBrowserSession } from '../support/browser.js';
import { call, registerUser } from '../support/test-server.js';
import { chooseTool } from './support/editor-canvas.js';
import { lookAt, SCREENSHOTS_DIR } from './support/look-at.js';

const TIMEOUT = 60_000;
const PLAN = path.resolve(import.meta.dirname, '../fixtures/realworld/concordia-hall-floor8-inkscape.svg');
const DIALOG = 'Make locations from the regions of Ground floor';

/** Runs `ask` on the drawing's shadow root in the editor's canvas (null before the drawing is there). */
async function inDrawing<T>(page: Page, ask: (root: ShadowRoot) => T): Promise<T | null> {
  const root = await page.evaluateHandle(() => [...document.querySelectorAll('.ed-canvas .mf-base')].find((element) => element.shadowRoot?.querySelector('svg'))?.shadowRoot ?? null);
  try {
    if (await root.evaluate((value) => value === null)) return null;
    return (await root.evaluate(ask as (root: ShadowRoot | null) => T)) as T;
  } finally {
    await root.dispose();
  }
}

describe('an Inkscape floor plan with grouped rooms', () => {
  const session = useBrowserSession();
  beforeAll(async () => {
  });

  async function documentOf(page: Page, mapId: string): Promise<MapDocument> {
    return ((await (await page.request.get(`/api/maps/${mapId}/data`)).json()) as { result: { data: MapDocument } }).result.data;
  }

  it('takes a pin inside a room, makes the numbered rooms locations in bulk and shows their numbers', { timeout: 240_000 }, async () => {
    const owner = await registerUser(session.server);
    const created = await call(session.server, 'createMap', { title: 'Hall building' }, owner);
    expect(created.status).toBe(200);
    const mapId = created.body.result as string;
    const context = await signedInContext(session.browser, session.server, owner, { width: 1280, height: 800 });
    const page = await context.newPage();
    await page.goto(`/maps/${mapId}`);
    await page.getByRole('tab', { name: 'Floors' }).click();
    await page.getByRole('list', { name: 'Floors' }).waitFor({ timeout: TIMEOUT });

    // Upload: every room has a made-up id, yet the dialog opens, beside the map.
    await page.getByLabel('Drawing file for Ground floor').setInputFiles(PLAN);
    const dialog = page.getByRole('dialog', { name: DIALOG });
    await dialog.waitFor({ timeout: TIMEOUT });
    const map = (await page.locator('.ed-canvas').boundingBox())!;
    const side = (await dialog.boundingBox())!;
    expect(side.x + side.width).toBeLessThanOrEqual(map.x + 1);
    // The room numbers written in the rooms are read as their titles, and those rooms ticked.
    await expect.poll(() => dialog.getByRole('status').textContent(), { timeout: TIMEOUT }).toMatch(/titles? read from the text inside the shapes/);
    const h865 = dialog.getByRole('checkbox', { name: /^H865\b/ });
    await expect.poll(() => h865.isChecked()).toBe(true);
    // The row under the pointer lights its room on the map.
    await h865.hover();
    const rowId = (await h865.locator('xpath=..').locator('.rd-check__id').textContent())!;
    await expect.poll(() => inDrawing(page, (root) => root.querySelector('[data-mf-spot]')?.id ?? null)).toBe(rowId);
    await lookAt(page, 'inkscape-regions-dialog-1280x800');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached', timeout: TIMEOUT });

    // A pin inside a room of the group: a location at that point, linked to nothing.
    const room = (await inDrawing(page, (root) => {
      const box = root.getElementById('rect3855')!.getBoundingClientRect();
      return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
    }))!;
    await chooseTool(page, 'Add location');
    await page.mouse.click(room.x, room.y);
    await expect.poll(async () => (await documentOf(page, mapId)).locations.length, { timeout: TIMEOUT }).toBe(1);
    const pin = (await documentOf(page, mapId)).locations[0]!;
    expect(pin.element).toBeNull();
    expect(pin.position).not.toBeNull();

    // Back to the regions: bulk choices, then the named rooms become locations in one go.
    await page.getByRole('tab', { name: 'Floors' }).click();
    await page.getByRole('button', { name: DIALOG }).click();
    await dialog.waitFor({ timeout: TIMEOUT });
    await expect.poll(() => dialog.getByRole('status').textContent(), { timeout: TIMEOUT }).toMatch(/titles? read/);
    await dialog.getByRole('button', { name: 'Select none' }).click();
    await expect.poll(() => dialog.getByRole('status').textContent()).toMatch(/^0 regions of/);
    await dialog.getByRole('searchbox', { name: 'Filter regions' }).fill('H86*');
    await dialog.getByRole('button', { name: 'Select shown' }).click();
    const some = Number((await dialog.getByRole('status').textContent())!.match(/^(\d+) regions? of/)![1]);
    expect(some).toBeGreaterThan(2);
    await dialog.getByRole('searchbox', { name: 'Filter regions' }).fill('');
    await dialog.getByRole('button', { name: 'All named' }).click();
    const named = Number((await dialog.getByRole('status').textContent())!.match(/^(\d+) regions? of/)![1]);
    expect(named).toBeGreaterThan(30);
    await dialog.getByRole('button', { name: `Make ${named} locations` }).click();
    await dialog.waitFor({ state: 'detached', timeout: TIMEOUT });
    await expect.poll(async () => (await documentOf(page, mapId)).locations.length, { timeout: TIMEOUT }).toBe(named + 1);
    const saved = await documentOf(page, mapId);
    const rooms = saved.locations.filter((location) => location.element);
    expect(rooms.map((location) => location.title)).toContain('H865');
    // Never the group nor the layer, and each region once.
    expect(rooms.filter((location) => ['g3987', 'layer2'].includes(location.element!)).map((location) => [location.element, location.title])).toEqual([]);
    expect(new Set(rooms.map((location) => location.element)).size).toBe(rooms.length);

    // Rooms the drawing numbers itself keep its numbers (not written twice); a room it leaves
    // blank, made a location by someone else meanwhile, shows its name inside it.
    const added = await call(session.server, 'editMap', { id: mapId, edits: [{ type: 'LocationAdded', location: { id: 'deans-office', title: 'Dean’s office', layer: saved.layers[0]!.id, position: null, element: 'rect3865' } }] }, owner);
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const names = () => inDrawing(page, (root) => [...root.querySelectorAll('text[data-mf-name]')].map((text) => [...text.querySelectorAll('tspan')].map((line) => line.textContent).join(' ')));
    await expect.poll(names, { timeout: TIMEOUT }).toEqual(['Dean’s office']);
    await lookAt(page, 'inkscape-names-1280x800');

    // A pin dropped in a room that is a location now is a pin too, not a second link.
    await chooseTool(page, 'Add location');
    await page.mouse.click(room.x, room.y);
    await expect.poll(async () => (await documentOf(page, mapId)).locations.length, { timeout: TIMEOUT }).toBe(named + 3);

    // The picture export writes the names in.
    await page.getByRole('tab', { name: 'Data' }).click();
    await page.getByRole('radio', { name: 'The whole floor' }).check();
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: TIMEOUT }), page.getByRole('button', { name: 'SVG', exact: true }).click()]);
    const picture = await readFile((await download.path())!, 'utf8');
    expect(picture).toContain('data-mf-name');
    expect(picture).toMatch(/>Dean’s<\/tspan><tspan[^>]*>office</);
    const [png] = await Promise.all([page.waitForEvent('download', { timeout: TIMEOUT }), page.getByRole('button', { name: 'PNG', exact: true }).click()]);
    if (SCREENSHOTS_DIR) await writeFile(path.join(SCREENSHOTS_DIR, 'inkscape-picture.png'), await readFile((await png.path())!));
    await context.close();

    // On a phone: the names fit inside their rooms.
    const phone = await signedInContext(session.browser, session.server, owner, { width: 375, height: 812 });
    const small = await phone.newPage();
    await small.goto(`/maps/${mapId}`);
    await expect.poll(() => inDrawing(small, (root) => root.querySelectorAll('text[data-mf-name]').length), { timeout: TIMEOUT }).toBe(1);
    const spills = await inDrawing(small, (root) =>
      [...root.querySelectorAll('text[data-mf-name]')].filter((text) => {
        const own = text.getBoundingClientRect();
        const region = (text.previousElementSibling as Element).getBoundingClientRect();
        return own.left < region.left - 0.5 || own.right > region.right + 0.5 || own.top < region.top - 0.5 || own.bottom > region.bottom + 0.5;
      }).length,
    );
    expect(spills).toBe(0);
    await lookAt(small, 'inkscape-names-375x812');
    await phone.close();
  });
});
