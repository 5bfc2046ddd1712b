/**
 * Screenshots of the editor's Comments panel with a pinned thread, at 1280 and 375 wide, for
 * looking at as a person would. Not a test: run it against a running server with a built
 * client that keeps mail in its outbox and makes admin@example.com an admin.
 *
 *   npm run build && PORT=3100 DATA_DIR=/tmp/mapfold-comments ADMIN_EMAILS=admin@example.com \
 *     PUBLIC_URL=http://localhost:3100 npx tsx server/main.ts &
 *   OUT_DIR=/tmp/shots16 npx tsx test/client/comments-screenshots.script.ts
 *
 * Writes {OUT_DIR}/comments-{width}.png and comments-picking-{width}.png.
 */
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { chromium, type APIRequestContext, type Browser } from 'playwright-core';

const BASE_URL = process.env.BASE_URL ?? 'http://localhost:3100';
const OUT_DIR = process.env.OUT_DIR ?? '/tmp/shots16';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** axe-core, run in the page over the panel and the pins (through DevTools: the CSP refuses inline scripts). */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

async function axeReport(page: import('playwright-core').Page, label: string) {
  await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(
    `axe.run({ include: [['.cm-panel'], ['.cm-pins']] }, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => v.impact + ': ' + v.id + ' ' + v.nodes.map((n) => JSON.stringify(n.target)).join(' ')))`,
  )) as string[];
  console.log(`axe ${label}: ${violations.length === 0 ? 'no violations' : violations.join('\n  ')}`);
}

async function mailedToken(request: APIRequestContext, email: string): Promise<string> {
  const html = await (await request.get(`${BASE_URL}/dev/outbox`)).text();
  for (const article of html.split('<article>').slice(1)) {
    if (!article.includes(`to ${email}`)) continue;
    const match = /verify-email\?token=([A-Za-z0-9_-]+)/.exec(article);
    if (match) return match[1]!;
  }
  throw new Error(`No verification link for ${email}`);
}

/** A verified account, signed in on its own context. */
async function account(browser: Browser, email: string, displayName: string) {
  const context = await browser.newContext();
  const register = await context.request.post(`${BASE_URL}/api/auth/register`, { data: { data: { email, password: 'screenshots only', displayName } } });
  if (!register.ok()) {
    // Already there (a second run): sign in instead.
    const login = await context.request.post(`${BASE_URL}/api/auth/login`, { data: { data: { email, password: 'screenshots only' } } });
    if (!login.ok()) throw new Error(`login failed: ${login.status()} ${await login.text()}`);
  } else {
    const verify = await context.request.post(`${BASE_URL}/api/auth/verify-email`, { data: { data: { token: await mailedToken(context.request, email) } } });
    if (!verify.ok()) throw new Error(`verify failed: ${verify.status()} ${await verify.text()}`);
  }
  const call = async (name: string, data: unknown) => {
    const response = await context.request.post(`${BASE_URL}/api/fn/${name}`, { data: { data } });
    if (!response.ok()) throw new Error(`${name} failed: ${response.status()} ${await response.text()}`);
    return ((await response.json()) as { result: unknown }).result;
  };
  return { context, call };
}

async function main() {
  await mkdir(OUT_DIR, { recursive: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  try {
    const stamp = Date.now();
    const owner = await account(browser, `owner-${stamp}@example.com`, 'Olivia Grant');
    const admin = await account(browser, `ben-${stamp}@example.com`, 'Ben Ortiz');
    const mapId = (await owner.call('createMap', {
      title: 'Harbour Market, ground floor',
      mapData: { layers: [{ id: 'ground', name: 'Ground floor' }], locations: [] },
    })) as string;
    await owner.call('editMap', {
      id: mapId,
      edits: [
        { type: 'LocationAdded', location: { id: 'bakery', title: 'Bakery', layer: 'ground', position: { x: 300, y: 260 } } },
        { type: 'LocationAdded', location: { id: 'fish', title: 'Fish market', layer: 'ground', position: { x: 820, y: 520 } } },
        { type: 'LocationAdded', location: { id: 'gate', title: 'North gate', layer: 'ground', position: { x: 560, y: 150 } } },
      ],
    });
    // Let the map reach the read models before sharing and commenting on it.
    await new Promise((resolve) => setTimeout(resolve, 800));
    // Ben joins as an editor through the mailed invitation.
    await owner.call('inviteToMap', { mapId, email: `ben-${stamp}@example.com`, role: 'editor' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const outbox = await (await owner.context.request.get(`${BASE_URL}/dev/outbox`)).text();
    const token = /\/invitations\/([A-Za-z0-9_-]+)/.exec(outbox)?.[1];
    if (!token) throw new Error('No invitation in the outbox');
    await admin.call('acceptMapInvitation', { token });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const first = (await owner.call('addMapComment', {
      mapId,
      anchor: { kind: 'location', locationId: 'gate' },
      body: 'Is the north gate wide enough for delivery vans? @Ben Ortiz can you check with the port?',
    })) as { commentId: string };
    await admin.call('replyToMapComment', { mapId, threadId: first.commentId, body: 'Checked: 3.2 m, vans fit. Trucks go round to the east side.' });
    await owner.call('replyToMapComment', { mapId, threadId: first.commentId, body: 'Great, I will add a note for the east entrance.' });
    await admin.call('addMapComment', { mapId, anchor: { kind: 'point', x: 640, y: 250, layer: 'ground' }, body: 'Could we mark the toilets here?' });
    const old = (await owner.call('addMapComment', { mapId, anchor: { kind: 'location', locationId: 'bakery' }, body: 'Opening hours updated.' })) as { commentId: string };
    await owner.call('resolveMapCommentThread', { mapId, threadId: old.commentId });
    await new Promise((resolve) => setTimeout(resolve, 500));

    const state = await owner.context.storageState();
    for (const width of [1280, 375]) {
      const context = await browser.newContext({ storageState: state, viewport: { width, height: width > 600 ? 800 : 812 }, deviceScaleFactor: 1 });
      const page = await context.newPage();
      // As the mention notice links to it: the thread opens in the panel.
      await page.goto(`${BASE_URL}/maps/${mapId}?comment=${first.commentId}`, { waitUntil: 'networkidle' });
      await page.getByRole('button', { name: /^Comment thread \d/ }).first().waitFor();
      await page.getByRole('heading', { name: /Thread \d on North gate/ }).waitFor();
      await page.waitForTimeout(400);
      await page.screenshot({ path: path.join(OUT_DIR, `comments-${width}.png`) });
      console.log(`wrote comments-${width}.png`);
      await axeReport(page, `thread open at ${width}`);
      // "Show on map": on a phone the sheet steps aside and the selected pin shows.
      if (width < 600) {
        await page.getByRole('button', { name: 'Show on map' }).click();
        await page.waitForTimeout(600);
        await page.screenshot({ path: path.join(OUT_DIR, `comments-map-${width}.png`) });
        console.log(`wrote comments-map-${width}.png`);
        await page.getByRole('button', { name: /^Comment thread 1/ }).click();
        await page.getByRole('heading', { name: /Thread 1 on North gate/ }).waitFor();
      }
      // "Add comment": the map waits for a click.
      await page.getByRole('button', { name: 'Close thread', exact: false }).click();
      if (width < 600 && !(await page.getByRole('button', { name: 'Add comment' }).isVisible())) await page.getByRole('tab', { name: 'Comments' }).click();
      await page.getByRole('button', { name: 'Add comment' }).click();
      await page.locator('.cm-pick').click({ position: { x: Math.round(width * 0.6), y: 300 } });
      await page.getByRole('textbox', { name: 'Your comment' }).fill('Ramp for strollers here? @Be');
      await page.waitForTimeout(300);
      await page.screenshot({ path: path.join(OUT_DIR, `comments-new-${width}.png`) });
      console.log(`wrote comments-new-${width}.png`);
      await axeReport(page, `new comment at ${width}`);
      await context.close();
    }
  } finally {
    await browser.close();
  }
}

await main();
