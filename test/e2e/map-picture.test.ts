/**
 * A picture of the map in Chromium (issue 19 part 3): from the demo viewer's share menu, PNG at
 * 1× and 2× and SVG are downloaded (the PNG's signature and IHDR size, 2× twice 1×; the SVG
 * parsed strictly with its regions and markers); the editor's Data panel exports too; Print
 * puts a clean page (title, picture, legend, the selected location, the link; no buttons) on
 * paper, checked with print media emulated; with ?lang=es and ?lang=ar the menu and the SVG are
 * in Spanish and Arabic (lang, the legend’s title, right to left). Screenshots of the menu at 1280 and 375, the
 * pictures and the printed page go to SCREENSHOTS=dir when it is set.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DOMParser } from '@xmldom/xmldom';
import type { Download, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatPosition } from '../../events/position.js';
import { seedDemoMap } from '../../server/seed/seed-demo-map.js';
import { useBrowserSession } from '../support/browser.js';
import { call, projected, registerUser } from '../support/test-server.js';
import { storeChainDocument } from '../support/store-chain-map.js';

const SHOTS = process.env.SCREENSHOTS ?? '';
const TIMEOUT = 30_000;

if (SHOTS) mkdirSync(SHOTS, { recursive: true });
/** A screenshot into SHOTS, when it is set. */
async function snap(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, name), animations: 'disabled', ...options });
}

/** A PNG's signature checked, and its size from the IHDR chunk. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(bytes.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

async function downloaded(page: Page, button: string): Promise<{ download: Download; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: TIMEOUT }), page.getByRole('button', { name: button, exact: true }).click()]);
  const file = await download.path();
  return { download, bytes: readFileSync(file) };
}

function parseStrict(text: string) {
  const problems: string[] = [];
  const xml = new DOMParser({ onError: (level, message) => void problems.push(`${level}: ${message}`) }).parseFromString(text, 'image/svg+xml');
  expect(problems).toEqual([]);
  return xml;
}

async function openDemo(page: Page, query = ''): Promise<void> {
  await page.goto(`/m/demo${query}`);
  await page.waitForFunction(() => (window as { __mapfoldViewerReady?: number }).__mapfoldViewerReady, undefined, { timeout: TIMEOUT });
}

describe('a picture of the map', () => {
  // A store chain's map is larger than the test servers' 64 KB body limit.
  const session = useBrowserSession({ env: { BODY_LIMIT: String(8 * 1024 * 1024) } });
  beforeAll(async () => {
    const { server } = session;
    const position = await seedDemoMap(server.services.store, server.services.clock, server.services.ids);
    if (position) await projected(server, formatPosition(position));
  }, 120_000);

  it('downloads PNG at 1× and 2× and SVG from the viewer’s share menu', { timeout: 120_000 }, async () => {
    const context = await session.browser.newContext({ baseURL: session.server.url, viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await openDemo(page);
    await page.getByRole('button', { name: 'Share' }).first().click();
    const menu = page.getByRole('dialog', { name: 'Share this map' });
    await menu.getByRole('button', { name: 'PNG', exact: true }).waitFor();
    await snap(page, 'share-menu-1280.png');

    const one = await downloaded(page, 'PNG');
    expect(one.download.suggestedFilename()).toBe('riverside-mall-demo-ground-floor.png');
    // The toast says so, and the focus stays on the button pressed (the menu does not take it back).
    await page.getByRole('status').filter({ hasText: 'Saved riverside-mall-demo-ground-floor.png' }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('PNG');
    const size1 = pngSize(one.bytes);
    // This view: the map's area on screen, and the title band and legend around it.
    const stage = (await page.locator('.mf-stage').boundingBox())!;
    expect(size1.width).toBe(Math.round(stage.width));
    expect(size1.height).toBeGreaterThan(Math.round(stage.height));

    const two = await downloaded(page, 'PNG 2×');
    expect(two.download.suggestedFilename()).toBe('riverside-mall-demo-ground-floor@2x.png');
    expect(pngSize(two.bytes)).toEqual({ width: size1.width * 2, height: size1.height * 2 });

    const vector = await downloaded(page, 'SVG');
    expect(vector.download.suggestedFilename()).toBe('riverside-mall-demo-ground-floor.svg');
    const xml = parseStrict(vector.bytes.toString('utf8'));
    const all = Array.from(xml.getElementsByTagName('*'));
    expect(xml.documentElement!.getAttribute('width')).toBe(String(size1.width));
    const ids = new Set(all.map((element) => element.getAttribute('id')));
    for (const region of ['g-lumiere', 'g-pixel', 'g-sunrise', 'g-kidskingdom']) expect(ids.has(region), region).toBe(true);
    const markers = new Set(all.map((element) => element.getAttribute('data-location')).filter(Boolean));
    for (const marker of ['g-info', 'g-entrance', 'g-atm', 'g-lifts']) expect(markers.has(marker), marker).toBe(true);
    // A shop's name is written inside its shape (region-names.ts), not repeated by a label marker over it.
    expect(markers.has('g-lumiere')).toBe(false);
    const names = all.filter((element) => element.hasAttribute('data-mf-name')).map((element) => element.textContent?.replace(/\s+/g, ''));
    // (On two lines, as tspans: their text runs together.)
    expect(names).toContain('LumièreCafé');
    for (const element of all) {
      for (const attribute of Array.from(element.attributes)) {
        if (attribute.localName === 'href') expect(attribute.value).toMatch(/^(#|data:image\/)/);
      }
    }
    // The whole floor: larger than the screen's view, the same proportions as the floor plus its bands.
    await menu.getByRole('radio', { name: 'Whole floor' }).check();
    const floor = await downloaded(page, 'PNG 2×');
    const floorSize = pngSize(floor.bytes);
    expect(floorSize.width).toBe((1600 + 64) * 2);
    if (SHOTS) {
      writeFileSync(path.join(SHOTS, 'picture-view.png'), one.bytes);
      writeFileSync(path.join(SHOTS, 'picture-view@2x.png'), two.bytes);
      writeFileSync(path.join(SHOTS, 'picture-floor@2x.png'), floor.bytes);
      writeFileSync(path.join(SHOTS, 'picture-view.svg'), vector.bytes);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('makes the picture in the visitor’s language: a Spanish menu and picture, an Arabic one right to left', { timeout: 90_000 }, async () => {
    const context = await session.browser.newContext({ baseURL: session.server.url, viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    const page = await context.newPage();
    for (const [lang, dialog, legend] of [
      ['es', 'Compartir este mapa', 'Leyenda'],
      ['ar', 'مشاركة هذه الخريطة', 'مفتاح الخريطة'],
    ] as const) {
      await openDemo(page, `?lang=${lang}`);
      await page.locator('[data-mf-share-toggle]').first().click();
      const menu = page.getByRole('dialog', { name: dialog });
      await menu.waitFor();
      const { bytes } = await downloaded(page, 'SVG');
      const xml = parseStrict(bytes.toString('utf8'));
      const root = xml.documentElement!;
      expect(root.getAttribute('lang')).toBe(lang);
      expect(root.getAttribute('direction')).toBe(lang === 'ar' ? 'rtl' : null);
      const title = Array.from(xml.getElementsByTagName('text')).find((text) => text.getAttribute('id') === 'mfx-legend-title');
      expect(title?.textContent).toBe(legend);
      if (SHOTS) writeFileSync(path.join(SHOTS, `picture-view-${lang}.svg`), bytes);
    }
    await context.close();
  });

  it('draws a clustered map’s clusters as the viewer shows them', { timeout: 120_000 }, async () => {
    const { server, browser } = session;
    const owner = await registerUser(server);
    const created = await call(server, 'createMap', { title: 'Northwind stores', mapData: storeChainDocument(3_000) }, owner);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    await projected(server, created.body.position);
    const id = created.body.result as string;
    await server.database.db.query('UPDATE maps_list SET state = 1 WHERE id = $1', [id]);
    const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    const page = await context.newPage();
    await page.goto(`/m/${id}`);
    await page.waitForFunction(() => (window as { __mapfoldViewerReady?: number }).__mapfoldViewerReady, undefined, { timeout: TIMEOUT });
    await page.locator('button[data-cluster]').first().waitFor({ state: 'attached', timeout: TIMEOUT });
    await page.getByRole('button', { name: 'Share' }).first().click();
    const vector = await downloaded(page, 'SVG');
    const all = Array.from(parseStrict(vector.bytes.toString('utf8')).getElementsByTagName('*'));
    const clusters = all.filter((element) => element.getAttribute('data-cluster'));
    expect(clusters.length).toBeGreaterThan(3);
    // Far fewer marks than stores: the clusters stand for the rest.
    expect(all.filter((element) => element.getAttribute('data-location')).length).toBeLessThan(3_000);
    const png = await downloaded(page, 'PNG 2×');
    pngSize(png.bytes);
    if (SHOTS) writeFileSync(path.join(SHOTS, 'picture-clusters@2x.png'), png.bytes);
    await context.close();
  });

  it('offers the picture on a phone', { timeout: 60_000 }, async () => {
    const context = await session.browser.newContext({ baseURL: session.server.url, viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true, acceptDownloads: true });
    const page = await context.newPage();
    await openDemo(page);
    await page.getByRole('button', { name: 'Share' }).first().click();
    const menu = page.getByRole('dialog', { name: 'Share this map' });
    const png = menu.getByRole('button', { name: 'PNG', exact: true });
    await png.scrollIntoViewIfNeeded();
    await snap(page, 'share-menu-375.png');
    const { bytes } = await downloaded(page, 'PNG 2×');
    const size = pngSize(bytes);
    expect(size.width).toBe(375 * 2);
    if (SHOTS) writeFileSync(path.join(SHOTS, 'picture-phone@2x.png'), bytes);
    await context.close();
  });

  it('prints a clean page: the title, the map, the legend, the selected location and the link, no buttons', { timeout: 90_000 }, async () => {
    const context = await session.browser.newContext({ baseURL: session.server.url, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    // The print dialog is the browser's: the test counts the calls instead.
    await page.addInitScript(() => {
      window.print = () => {
        (window as { __printed?: number }).__printed = ((window as { __printed?: number }).__printed ?? 0) + 1;
      };
    });
    await openDemo(page, '?location=g-lumiere');
    await page.getByRole('dialog', { name: /Lumière Café/ }).waitFor({ timeout: TIMEOUT });
    await page.getByRole('button', { name: 'Share' }).first().click();
    await page.getByRole('button', { name: 'Print', exact: true }).click();
    await page.waitForFunction(() => (window as { __printed?: number }).__printed === 1, undefined, { timeout: TIMEOUT });

    await page.emulateMedia({ media: 'print' });
    const sheet = page.locator('.mf-print-sheet');
    await sheet.getByRole('heading', { name: 'Riverside Mall (demo)' }).waitFor();
    expect(await sheet.getByRole('heading', { name: 'Lumière Café' }).isVisible()).toBe(true);
    expect(await sheet.getByText('Legend').isVisible()).toBe(true);
    expect(await sheet.getByText(`${session.server.url}/m/demo?location=g-lumiere`).isVisible()).toBe(true);
    const image = sheet.locator('img');
    expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    // Nothing to press on paper.
    const buttons = await page.locator('button, [role="button"], input, textarea').evaluateAll((nodes) => nodes.filter((node) => (node as HTMLElement).offsetParent !== null || node.getClientRects().length > 0).length);
    expect(buttons).toBe(0);
    await snap(page, 'print-emulated-1280.png', { fullPage: true });
    if (SHOTS) writeFileSync(path.join(SHOTS, 'print.pdf'), await page.pdf({ format: 'A4', printBackground: true }));
    await context.close();
  });

  it('prints the map without its controls through the browser’s own Print too', { timeout: 60_000 }, async () => {
    const context = await session.browser.newContext({ baseURL: session.server.url, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await openDemo(page, '?location=g-pixel');
    await page.getByRole('dialog', { name: /Pixel & Plug/ }).waitFor({ timeout: TIMEOUT });
    await page.emulateMedia({ media: 'print' });
    await expect.poll(() => page.locator('.mf-controls button').first().isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Share' }).first().isVisible()).toBe(false);
    expect(await page.getByRole('searchbox').first().isVisible()).toBe(false);
    expect(await page.getByRole('dialog', { name: /Pixel & Plug/ }).isVisible()).toBe(true);
    await snap(page, 'print-browser-1280.png');
    await context.close();
  });

  it('exports from the editor’s Data panel', { timeout: 90_000 }, async () => {
    const context = await session.browser.newContext({ baseURL: session.server.url, viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    const page = await context.newPage();
    await page.goto('/demo');
    await page.waitForURL(/\/maps\/demo$/, { timeout: TIMEOUT });
    await page.locator('.ed-canvas .mf-a11y button').first().waitFor({ state: 'attached', timeout: TIMEOUT });
    await page.getByRole('tab', { name: 'Data' }).click();
    await page.getByRole('heading', { name: 'Picture' }).waitFor();
    await snap(page, 'editor-data-panel-1280.png');
    const svg = await downloaded(page, 'SVG');
    expect(svg.download.suggestedFilename()).toMatch(/^riverside-mall.*-ground-floor\.svg$/);
    const xml = parseStrict(svg.bytes.toString('utf8'));
    expect(Array.from(xml.getElementsByTagName('*')).some((element) => element.getAttribute('id') === 'g-lumiere')).toBe(true);
    await page.getByRole('radio', { name: 'The whole floor' }).check();
    const png = await downloaded(page, 'PNG');
    expect(pngSize(png.bytes).width).toBe(1600 + 64);
    await page.getByRole('status').filter({ hasText: /Saved riverside-mall.*\.png/ }).first().waitFor({ timeout: TIMEOUT });
    if (SHOTS) writeFileSync(path.join(SHOTS, 'editor-floor.png'), png.bytes);
    await context.close();
  });
});
