/**
 * Screenshots of the map editor, for looking at it as its users would. Not a benchmark and not
 * a test: `npm run build && npx tsx bench/editor-screenshots.ts` writes
 * screenshots/editor-*.png (git-ignored) at 1280×800 and 375×812: the demo mall opened by its
 * owner (each panel, a location's form, the preview) and the demo explored signed out.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { launchChromium } from './browser-profiles.js';
import { demoMallDocument } from '../server/seed/demo-mall.js';
import { DEMO_MAP_ID, seedDemoMap } from '../server/seed/seed-demo-map.js';
import { formatPosition } from '../events/position.js';
import { pgliteTarget } from '../test/support/databases.js';
import { call, projected, registerUser, startTestServer } from '../test/support/test-server.js';

const OUT_DIR = path.resolve(import.meta.dirname, '../screenshots');
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 812 };

async function shot(page: Page, name: string): Promise<void> {
  await page.waitForTimeout(400);
  await page.screenshot({ path: path.join(OUT_DIR, `editor-${name}.png`) });
  console.log(`screenshots/editor-${name}.png`);
}

async function main(): Promise<void> {
  await mkdir(OUT_DIR, { recursive: true });
  const server = await startTestServer(pgliteTarget, { env: { BODY_LIMIT: String(2 * 1024 * 1024) } });
  const seeded = await seedDemoMap(server.services.store, server.services.clock, server.services.ids);
  if (seeded) await projected(server, formatPosition(seeded));
  const owner = await registerUser(server);
  const made = await call(server, 'createMap', { title: 'Riverside Mall', mapData: demoMallDocument() }, owner);
  await projected(server, made.body.position);
  const mapId = made.body.result as string;
  // A little history: a version, edits, another version.
  const edit = async (edits: unknown[]) => projected(server, (await call(server, 'editMap', { id: mapId, edits }, owner)).body.position);
  await call(server, 'saveMapHistory', { mapId, name: 'Opening layout' }, owner);
  await edit([{ type: 'LocationUpdated', id: demoMallDocument().locations[0]!.id, changes: { about: 'Now open until 22:00' } }]);
  await edit([{ type: 'LocationMoved', id: demoMallDocument().locations[1]!.id, position: { x: 300, y: 420 } }]);
  await edit([{ type: 'LocationRemoved', id: demoMallDocument().locations[2]!.id }]);
  await projected(server, (await call(server, 'saveMapHistory', { mapId, name: 'Spring refit' }, owner)).body.position);
  const browser = await launchChromium();
  const signedIn = async (viewport: { width: number; height: number }): Promise<BrowserContext> => {
    const context = await browser.newContext({ baseURL: server.url, viewport, deviceScaleFactor: 1, ...(viewport === PHONE ? { isMobile: true, hasTouch: true } : {}) });
    const [name, value] = owner.cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: server.url }]);
    return context;
  };
  try {
    const desktop = await (await signedIn(DESKTOP)).newPage();
    await desktop.goto(`/maps/${mapId}`);
    await desktop.getByRole('textbox', { name: 'Map title' }).waitFor();
    await shot(desktop, 'desktop-locations');
    await desktop.locator('.ep-loc-list button').nth(2).click();
    await shot(desktop, 'desktop-location-form');
    for (const tab of ['Floors', 'Groups', 'Settings', 'Share', 'Data']) {
      await desktop.getByRole('tab', { name: tab }).click();
      await shot(desktop, `desktop-${tab.toLowerCase()}`);
    }
    await desktop.getByRole('tab', { name: 'History' }).click();
    await shot(desktop, 'desktop-history');
    await desktop.getByRole('button', { name: 'Open the timeline' }).click();
    await desktop.getByRole('region', { name: 'Timeline' }).waitFor();
    for (let i = 0; i < 3; i++) await desktop.getByRole('button', { name: 'Previous revision' }).click();
    await shot(desktop, 'desktop-timeline');
    await desktop.getByRole('button', { name: 'Back to editing' }).first().click();
    await desktop.getByRole('tab', { name: 'Locations' }).click();
    await desktop.getByRole('toolbar', { name: 'Tools' }).getByRole('button', { name: 'Add location' }).click();
    await shot(desktop, 'desktop-placing');
    await desktop.getByRole('button', { name: 'Preview' }).click();
    await desktop.locator('.ed-preview .mf-map').waitFor();
    await shot(desktop, 'desktop-preview');

    const phone = await (await signedIn(PHONE)).newPage();
    await phone.goto(`/maps/${mapId}`);
    await phone.getByRole('textbox', { name: 'Map title' }).waitFor();
    await shot(phone, 'phone-map');
    await phone.getByRole('tab', { name: 'Locations' }).click();
    await shot(phone, 'phone-locations');
    await phone.getByRole('tab', { name: 'Settings' }).click();
    await shot(phone, 'phone-settings');
    await phone.getByRole('tab', { name: 'History' }).click();
    await shot(phone, 'phone-history');
    await phone.getByRole('button', { name: 'Open the timeline' }).click();
    await phone.getByRole('region', { name: 'Timeline' }).waitFor();
    await phone.getByRole('button', { name: 'Previous revision' }).click();
    await shot(phone, 'phone-timeline');

    const visitor = await browser.newPage({ baseURL: server.url, viewport: DESKTOP });
    await visitor.goto(`/maps/${DEMO_MAP_ID}`);
    await visitor.getByText(/You are exploring/).waitFor();
    await shot(visitor, 'desktop-demo-explore');
  } finally {
    await browser.close();
    await server.close();
  }
}

await main();
