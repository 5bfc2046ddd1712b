/**
 * Screenshots of the editor's path tool at 1280 and 375 wide: a network drawn by clicks on two
 * floors, a selected link, the connector dialog, "test a route" and "check network". Not a
 * test: run against a running server with a built client (local mail outbox).
 *
 *   npm run build && DATA_DIR=/tmp/pt PORT=3997 PUBLIC_URL=http://localhost:3997 npx tsx server/main.ts &
 *   BASE_URL=http://localhost:3997 OUT_DIR=/tmp/shots npx tsx test/client/path-tool-screenshots.script.ts
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

const BASE_URL = process.env.BASE_URL ?? 'http://localhost:3997';
const OUT_DIR = process.env.OUT_DIR ?? path.resolve(import.meta.dirname, '../../screenshots');

async function shoot(page: Page, name: string) {
  const { width } = page.viewportSize()!;
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(400);
  const file = path.join(OUT_DIR, `${name}-${width}.png`);
  await page.screenshot({ path: file });
  console.log(`wrote ${file}`);
}

async function verifiedContext(context: BrowserContext, email: string) {
  const register = await context.request.post(`${BASE_URL}/api/auth/register`, { data: { data: { email, password: 'screenshots only', displayName: 'Avery Quinn' } } });
  if (!register.ok()) throw new Error(`register: ${register.status()} ${await register.text()}`);
  const html = await (await context.request.get(`${BASE_URL}/dev/outbox`)).text();
  const article = html.split('<article>').find((part) => part.includes(`to ${email}`))!;
  const token = /verify-email\?token=([A-Za-z0-9_-]+)/.exec(article)![1];
  const verify = await context.request.post(`${BASE_URL}/api/auth/verify-email`, { data: { data: { token } } });
  if (!verify.ok()) throw new Error(`verify: ${verify.status()}`);
}

async function createMap(context: BrowserContext): Promise<string> {
  const post = async (name: string, data: unknown) => {
    const response = await context.request.post(`${BASE_URL}/api/fn/${name}`, { data: { data } });
    if (!response.ok()) throw new Error(`${name}: ${response.status()} ${await response.text()}`);
    return ((await response.json()) as { result: unknown }).result;
  };
  const mapId = (await post('createMap', { title: 'Harbour Centre' })) as string;
  const location = (id: string, title: string, layer: string, x: number, y: number) => ({ type: 'LocationAdded', location: { id, title, layer, position: { x, y }, marker: 'circle' } });
  await post('editMap', {
    id: mapId,
    edits: [
      { type: 'LayerRenamed', id: 'ground', name: 'Ground floor' },
      { type: 'LayerAdded', layer: { id: 'first', name: 'First floor' } },
      location('cafe', 'Café Nero', 'ground', 300, 250),
      location('books', 'Bookshop', 'ground', 650, 520),
      location('gym', 'Gym', 'first', 660, 250),
    ],
  });
  return mapId;
}

/** The map's drawing area on screen; clicks go at fractions of it. */
async function mapBox(page: Page) {
  const box = (await page.locator('.mf-viewport').boundingBox())!;
  return (fx: number, fy: number) => ({ x: box.x + box.width * fx, y: box.y + box.height * fy });
}

async function clickAt(page: Page, point: { x: number; y: number }, modifiers: Array<'Shift'> = []) {
  // page.mouse takes no modifiers: the keys are held around the click.
  for (const key of modifiers) await page.keyboard.down(key);
  await page.mouse.click(point.x, point.y);
  for (const key of modifiers) await page.keyboard.up(key);
  await page.waitForTimeout(60);
}

async function main() {
  await mkdir(OUT_DIR, { recursive: true });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  try {
    const setup = await browser.newContext();
    await verifiedContext(setup, `paths-${Date.now()}@example.com`);
    const mapId = await createMap(setup);
    const storageState = await setup.storageState();
    await setup.close();

    // 1280: drawn by clicks.
    const wide = await browser.newContext({ viewport: { width: 1280, height: 800 }, storageState });
    const page = await wide.newPage();
    await page.goto(`${BASE_URL}/maps/${mapId}`, { waitUntil: 'networkidle' });
    await page.getByRole('toolbar', { name: 'Tools' }).getByRole('button', { name: 'Draw paths' }).click();
    await page.waitForTimeout(300);
    let at = await mapBox(page);
    // A corridor with a loop, on the ground floor.
    for (const [fx, fy] of [[0.3, 0.3], [0.55, 0.31], [0.55, 0.7], [0.3, 0.7]] as const) await clickAt(page, at(fx, fy));
    await clickAt(page, at(0.3, 0.3));
    await page.keyboard.press('Escape');
    // A branch from the middle of the right-hand link, with a step.
    await clickAt(page, at(0.55, 0.5), ['Shift']);
    await clickAt(page, at(0.7, 0.5));
    await clickAt(page, at(0.7, 0.78));
    await page.keyboard.press('Escape');
    await shoot(page, 'paths-network');

    // Select the branch's last link and make it one-way with a step.
    await clickAt(page, at(0.7, 0.64));
    await page.getByRole('checkbox', { name: /Step-free \(no steps/ }).click();
    await page.getByRole('checkbox', { name: /One-way/ }).click();
    await shoot(page, 'paths-selected-link');

    // A lift at the loop's corner.
    await page.getByRole('toolbar', { name: 'Tools' }).getByRole('button', { name: 'Add connector' }).click();
    await clickAt(page, at(0.42, 0.7));
    await page.getByRole('dialog', { name: 'New connector' }).waitFor();
    await page.getByLabel('Name (optional)').fill('Lift A');
    await shoot(page, 'paths-connector-dialog');
    await page.getByRole('button', { name: 'Add connector', exact: true }).last().click();
    // Back in the path tool: join the lift to the corridor, from its stop to the corner nearby.
    await clickAt(page, at(0.42, 0.7), ['Shift']);
    await clickAt(page, at(0.3, 0.7));
    await page.keyboard.press('Escape');

    // First floor: from the lift to the gym.
    await page.getByRole('group', { name: 'Floors' }).getByRole('button', { name: 'First floor' }).click();
    await page.waitForTimeout(300);
    at = await mapBox(page);
    await clickAt(page, at(0.42, 0.7), ['Shift']);
    await clickAt(page, at(0.42, 0.3));
    await clickAt(page, at(0.65, 0.3));
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Select', exact: true }).click();
    await shoot(page, 'paths-first-floor');

    // Test a route from the café to the gym.
    await page.getByRole('tab', { name: 'Paths' }).click();
    await page.getByRole('combobox', { name: 'From' }).selectOption({ label: 'Café Nero (Ground floor)' });
    await page.getByRole('combobox', { name: 'To' }).selectOption({ label: 'Gym (First floor)' });
    await page.getByRole('button', { name: 'Show route' }).click();
    await page.getByRole('list', { name: 'Route steps' }).or(page.getByRole('alert')).first().waitFor();
    await page.getByRole('list', { name: 'Route steps' }).or(page.getByRole('alert')).first().scrollIntoViewIfNeeded();
    await shoot(page, 'paths-test-route');
    const check = page.getByRole('button', { name: 'Check network' });
    if (await check.count()) {
      await check.click();
      await page.getByRole('region', { name: 'Check network' }).scrollIntoViewIfNeeded().catch(() => undefined);
      await shoot(page, 'paths-check-network');
    }
    await wide.close();

    // 375: the same map, a phone.
    const phone = await browser.newContext({ viewport: { width: 375, height: 812 }, storageState, hasTouch: false });
    const small = await phone.newPage();
    await small.goto(`${BASE_URL}/maps/${mapId}`, { waitUntil: 'networkidle' });
    await small.getByRole('toolbar', { name: 'Tools' }).getByRole('button', { name: 'Draw paths' }).click();
    await small.waitForTimeout(300);
    await shoot(small, 'paths-network');
    const phoneAt = await mapBox(small);
    await clickAt(small, phoneAt(0.55, 0.6));
    await small.keyboard.press('Escape');
    await small.getByRole('tab', { name: 'Paths' }).click();
    await shoot(small, 'paths-panel');
    await small.getByRole('button', { name: 'Close the panel' }).click();
    await small.getByRole('toolbar', { name: 'Tools' }).getByRole('button', { name: 'Add connector' }).click();
    await clickAt(small, phoneAt(0.5, 0.5));
    await small.getByRole('dialog', { name: 'New connector' }).waitFor();
    await shoot(small, 'paths-connector-dialog');
    await small.getByRole('button', { name: 'Cancel' }).click();
    await small.getByRole('tab', { name: 'Paths' }).click();
    await small.getByRole('combobox', { name: 'From' }).selectOption({ label: 'Café Nero (Ground floor)' });
    await small.getByRole('combobox', { name: 'To' }).selectOption({ label: 'Gym (First floor)' });
    await small.getByRole('button', { name: 'Show route' }).click();
    await small.getByRole('list', { name: 'Route steps' }).or(small.getByRole('alert')).first().scrollIntoViewIfNeeded();
    await shoot(small, 'paths-test-route');
    await phone.close();
  } finally {
    await browser.close();
  }
}

await main();
