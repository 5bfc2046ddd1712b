/**
 * Screenshots of the import preview with its column mapping (issue 15), in the editor's Data
 * panel at 1280 and 375 wide, and on /maps/new at 375, for looking at as a person would; axe
 * run over the preview. Not a test: run it against a running server with a built client that
 * keeps mail in its outbox.
 *
 *   npm run build && PORT=3115 DATA_DIR=/tmp/mapfold-import PUBLIC_URL=http://localhost:3115 npx tsx server/main.ts &
 *   BASE_URL=http://localhost:3115 OUT_DIR=/tmp/shots15 npx tsx test/client/import-screenshots.script.ts
 *
 * The file is the real Starbucks directory excerpt of test/fixtures/import/csv/ (its own column
 * names: Store Name, Latitude, Longitude, Phone Number…). Writes {OUT_DIR}/import-preview-{width}.png,
 * import-preview-rows-{width}.png and new-map-import-{width}.png.
 */
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

const BASE_URL = process.env.BASE_URL ?? 'http://localhost:3115';
const OUT_DIR = process.env.OUT_DIR ?? '/tmp/shots15';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CSV = path.resolve('test/fixtures/import/csv/starbucks-directory-excerpt.csv');
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

async function axeReport(page: Page, label: string) {
  await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(
    `axe.run({ include: [['.im']] }, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => v.impact + ': ' + v.id + ' ' + v.nodes.map((n) => JSON.stringify(n.target)).join(' ')))`,
  )) as string[];
  console.log(`axe ${label}: ${violations.length === 0 ? 'no violations' : violations.join('\n  ')}`);
}

/** The consent banner would cover the phone's lower half: answered as a visitor would. */
async function declineConsent(page: Page) {
  const decline = page.getByRole('button', { name: 'Decline' });
  try {
    await decline.waitFor({ timeout: 3_000 });
    await decline.click();
  } catch {
    // Not asked (answered already).
  }
}

async function mailedToken(page: Page, email: string): Promise<string> {
  const html = await (await page.request.get(`${BASE_URL}/dev/outbox`)).text();
  for (const article of html.split('<article>').slice(1)) {
    if (!article.includes(`to ${email}`)) continue;
    const match = /verify-email\?token=([A-Za-z0-9_-]+)/.exec(article);
    if (match) return match[1]!;
  }
  throw new Error(`No verification link for ${email}`);
}

/** A verified account signed in on a context of the given width; `call` runs a callable function. */
async function account(browser: Browser, width: number) {
  const context = await browser.newContext({ baseURL: BASE_URL, viewport: { width, height: width < 500 ? 812 : 900 }, deviceScaleFactor: width < 500 ? 2 : 1 });
  const page = await context.newPage();
  const email = `import-shots-${width}-${Date.now()}@example.com`;
  const register = await page.request.post(`${BASE_URL}/api/auth/register`, { data: { data: { email, password: 'screenshots only', displayName: 'Ada Lovelace' } } });
  if (!register.ok()) throw new Error(`register failed: ${register.status()} ${await register.text()}`);
  const verify = await page.request.post(`${BASE_URL}/api/auth/verify-email`, { data: { data: { token: await mailedToken(page, email) } } });
  if (!verify.ok()) throw new Error(`verify failed: ${verify.status()} ${await verify.text()}`);
  const call = async (name: string, data: unknown) => {
    const response = await page.request.post(`${BASE_URL}/api/fn/${name}`, { data: { data } });
    if (!response.ok()) throw new Error(`${name} failed: ${response.status()} ${await response.text()}`);
    return ((await response.json()) as { result: unknown }).result;
  };
  return { context, page, call };
}

async function editorPreview(browser: Browser, width: number) {
  const { page, call, context } = await account(browser, width);
  const id = (await call('createMap', { title: 'Coffee shops' })) as string;
  await page.goto(`/maps/${id}`);
  // On a phone the panel is a sheet the Data tab opens.
  await page.getByRole('tab', { name: 'Data' }).click();
  await declineConsent(page);
  await page.getByLabel('Choose files').setInputFiles(CSV);
  const preview = page.getByRole('region', { name: 'starbucks-directory-excerpt.csv' });
  await preview.waitFor({ timeout: 20_000 });
  // One mapping changed by hand: the street address as the location's address.
  await preview.getByRole('combobox', { name: 'Address' }).selectOption('Street Address');
  await page.waitForFunction(() => !document.querySelector('.im-preview[aria-busy="true"]'), undefined, { timeout: 20_000 });
  await preview.getByRole('heading', { level: 4 }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(OUT_DIR, `import-preview-${width}.png`) });
  await axeReport(page, `editor ${width}`);
  // Further down: the first rows, the problems and the buttons.
  await preview.getByRole('button', { name: /^Import \d/ }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(OUT_DIR, `import-preview-rows-${width}.png`) });
  await context.close();
}

async function newMapPreview(browser: Browser, width: number) {
  const { page, context } = await account(browser, width);
  await page.goto('/maps/new');
  await declineConsent(page);
  await page.getByRole('radio', { name: /Import a file/ }).check();
  await page.getByLabel('Choose files').setInputFiles(CSV);
  await page.getByRole('button', { name: 'Create map' }).click();
  const preview = page.getByRole('region', { name: 'starbucks-directory-excerpt.csv' });
  await preview.waitFor({ timeout: 20_000 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(OUT_DIR, `new-map-import-${width}.png`), fullPage: false });
  await axeReport(page, `new map ${width}`);
  await context.close();
}

async function main() {
  await mkdir(OUT_DIR, { recursive: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  try {
    await editorPreview(browser, 1280);
    await editorPreview(browser, 375);
    await newMapPreview(browser, 375);
    await newMapPreview(browser, 1280);
  } finally {
    await browser.close();
  }
  console.log(`Screenshots in ${OUT_DIR}`);
}

await main();
