/**
 * Screenshots of presence in the editor, for looking at it as its users would. Not a benchmark
 * and not a test: `npm run build && npx tsx bench/presence-screenshots.ts` writes
 * /tmp/shots16/presence-*.png (SHOTS_DIR to change it): two people in one map (the owner, Ada,
 * and Ben, whom she invited as an editor), each in a browser of their own, at 1280×800 and
 * at 375×812 (a phone, for Ada): the avatars, Ben's pointer with his name, his selected
 * location outlined in his colour, and "Ben Okafor is editing this location" in Ada's form.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from './browser-profiles.js';
import { demoMallDocument } from '../server/seed/demo-mall.js';
import { pgliteTarget } from '../test/support/databases.js';
import { share } from '../test/support/sharing.js';
import { call, linkFromOutbox, projected, startTestServer, tokenOf, type TestServer, type TestUser } from '../test/support/test-server.js';

const OUT_DIR = process.env.SHOTS_DIR ?? '/tmp/shots16';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 812 };

async function person(server: TestServer, email: string, displayName: string): Promise<TestUser> {
  const response = await fetch(`${server.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ data: { email, password: 'a long enough password', displayName } }),
  });
  if (!response.ok) throw new Error(`register failed: ${response.status} ${await response.text()}`);
  const uid = ((await response.json()) as { result: { uid: string } }).result.uid;
  const cookie = response.headers.get('set-cookie')!.split(';')[0]!;
  const token = tokenOf(await linkFromOutbox(server, email, '/verify-email'));
  await fetch(`${server.url}/api/auth/verify-email`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ data: { token } }) });
  return { uid, cookie };
}

async function shot(page: Page, name: string): Promise<void> {
  await page.waitForTimeout(500);
  const file = path.join(OUT_DIR, `presence-${name}.png`);
  await page.screenshot({ path: file });
  console.log(file);
}

async function contextFor(browser: Browser, server: TestServer, user: TestUser, viewport: { width: number; height: number }): Promise<BrowserContext> {
  const phone = viewport === PHONE;
  const context = await browser.newContext({ baseURL: server.url, viewport, deviceScaleFactor: phone ? 2 : 1, ...(phone ? { isMobile: true, hasTouch: true } : {}) });
  const [name, value] = user.cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: server.url }]);
  return context;
}

async function openEditor(page: Page, mapId: string): Promise<void> {
  await page.goto(`/maps/${mapId}`);
  await page.getByRole('textbox', { name: 'Map title' }).waitFor();
  await page.locator('.mf-viewport').waitFor();
}

/** Opens a location's form from the panel's list (the Locations tab). */
async function openLocation(page: Page, title: string): Promise<void> {
  const tab = page.getByRole('tab', { name: 'Locations' });
  if ((await tab.getAttribute('aria-selected')) !== 'true' || (await page.locator('.ed[data-panel-open="true"]').count()) === 0) await tab.click();
  await page.locator('.ep-loc-list button', { hasText: title }).first().click();
}

/** Moves the pointer over the map to a point given in fractions of the map's box. */
async function pointAt(page: Page, fx: number, fy: number): Promise<void> {
  const box = (await page.locator('.mf-viewport').boundingBox())!;
  await page.mouse.move(box.x + box.width * fx, box.y + box.height * fy, { steps: 8 });
}

async function main(): Promise<void> {
  await mkdir(OUT_DIR, { recursive: true });
  const server = await startTestServer(pgliteTarget, { env: { BODY_LIMIT: String(2 * 1024 * 1024) } });
  const ada = await person(server, 'ada@example.com', 'Ada Lovelace');
  const ben = await person(server, 'ben@example.com', 'Ben Okafor');
  const document = demoMallDocument();
  const made = await call(server, 'createMap', { title: 'Riverside Mall', mapData: document }, ada);
  await projected(server, made.body.position);
  const mapId = made.body.result as string;
  await share(server, ada, mapId, { ...ben, email: 'ben@example.com' }, 'editor');
  const firstOnGround = document.locations.find((location) => location.layer === (document.settings.defaultLayer ?? document.layers[0]!.id) && location.position)!;
  const browser = await launchChromium();
  try {
    // Ben, at his desk the whole time: his pointer is the one the others see.
    const benPage = await (await contextFor(browser, server, ben, DESKTOP)).newPage();
    await openEditor(benPage, mapId);

    // Ada at 1280: she and Ben have the same location open.
    const adaDesk = await (await contextFor(browser, server, ada, DESKTOP)).newPage();
    await openEditor(adaDesk, mapId);
    await openLocation(benPage, firstOnGround.title);
    await openLocation(adaDesk, firstOnGround.title);
    await pointAt(adaDesk, 0.3, 0.75);
    await pointAt(benPage, 0.55, 0.45);
    await adaDesk.getByText('Ben Okafor is editing this location').waitFor();
    await adaDesk.locator('.pr-cursor').waitFor({ state: 'attached' });
    await shot(adaDesk, '1280-ada');
    await shot(benPage, '1280-ben');

    // Zoomed in at Ada's: Ben's pointer stays on the same spot of the plan.
    await adaDesk.getByRole('button', { name: 'Zoom in' }).click();
    await adaDesk.waitForTimeout(500);
    await shot(adaDesk, '1280-ada-zoomed');

    // Ada on a phone too (a second tab of hers): the map with the panel closed, then the form.
    const adaPhone = await (await contextFor(browser, server, ada, PHONE)).newPage();
    await openEditor(adaPhone, mapId);
    await pointAt(benPage, 0.5, 0.5);
    await adaPhone.locator('.pr-cursor').first().waitFor({ state: 'attached' });
    await shot(adaPhone, '375-ada-map');
    await openLocation(adaPhone, firstOnGround.title);
    await adaPhone.getByText(/Ben Okafor is editing this location/).waitFor();
    await shot(adaPhone, '375-ada-form');
    // Ben's view with Ada in two tabs (one avatar, two tabs).
    await shot(benPage, '1280-ben-ada-two-tabs');
  } finally {
    await browser.close();
    await server.close();
  }
}

await main();
