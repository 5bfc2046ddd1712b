/**
 * Screenshots of the editor's Insights panel with a month of visits, for looking at it as an
 * owner would. Not a benchmark and not a test: `npm run build && npx tsx
 * bench/insights-screenshots.ts [out-dir]` writes insights-*.png (default screenshots/, git-ignored)
 * at 1280×800 and 375×812. Today's visits come through the real beacon route; the 29 days
 * before are written into the read model directly (the route only counts today).
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium } from './browser-profiles.js';
import { addDays, dayOf } from '../events/insights.js';
import { demoMallDocument } from '../server/seed/demo-mall.js';
import { pgliteTarget } from '../test/support/databases.js';
import { call, projected, registerUser, startTestServer } from '../test/support/test-server.js';

const OUT_DIR = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '../screenshots'));

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(OUT_DIR, `insights-${name}.png`) });
  console.log(path.join(OUT_DIR, `insights-${name}.png`));
}

async function main(): Promise<void> {
  await mkdir(OUT_DIR, { recursive: true });
  const server = await startTestServer(pgliteTarget);
  const owner = await registerUser(server);
  const document = demoMallDocument();
  const made = await call(server, 'createMap', { title: 'Riverside Mall', mapData: document }, owner);
  await projected(server, made.body.position);
  const mapId = made.body.result as string;
  await server.database.db.query('UPDATE maps_list SET state = 1 WHERE id = $1', [mapId]);
  const ids = document.locations.map((location) => location.id);

  // Today, through the route, as visitors' pages send it.
  for (let i = 0; i < 40; i++) {
    const counters = [
      { kind: 'view', count: 1 },
      { kind: 'open', location: ids[i % 5]!, count: 1 },
      ...(i % 4 === 0 ? [{ kind: 'search', text: ['toilets', 'cafe', 'pharmacy', 'atm'][i % 16 >> 2]!, found: i % 16 < 4 ? false : i % 16 !== 8, count: 1 }] : []),
    ];
    await server.app.inject({ method: 'POST', url: `/api/public/maps/${mapId}/insights`, remoteAddress: `10.9.0.${i}`, payload: { data: { counters } } });
  }
  // The month before: a weekly rhythm, busier at weekends.
  const today = dayOf(new Date());
  const rows: Array<[string, string, string, number]> = [];
  for (let back = 1; back < 30; back++) {
    const day = addDays(today, -back);
    const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
    const views = Math.round(60 + 25 * Math.sin(back / 3) + (weekday === 0 || weekday === 6 ? 55 : 0));
    rows.push([day, 'view', '', views]);
    ids.slice(0, 8).forEach((id, rank) => rows.push([day, 'open', id, Math.max(1, Math.round(views / (rank + 2)))]));
    rows.push([day, 'directions', ids[2]!, Math.round(views / 9)]);
    for (const [text, count, found] of [['toilets', 9, false], ['cafe', 7, true], ['shoes', 5, true], ['pharmacy', 4, false], ['parking', 3, false], ['kids play area', 2, false]] as const) {
      rows.push([day, 'search', text, count + (back % 3)]);
      if (!found) rows.push([day, 'search_miss', text, count + (back % 3)]);
    }
  }
  for (const [day, kind, key, count] of rows) {
    await server.database.db.query('INSERT INTO map_insights (map_id, day, kind, key, count) VALUES ($1, $2, $3, $4, $5)', [mapId, day, kind, key, count]);
  }

  const browser = await launchChromium();
  try {
    for (const [name, viewport] of [['1280', { width: 1280, height: 800 }], ['375', { width: 375, height: 812 }]] as const) {
      const context = await browser.newContext({ baseURL: server.url, viewport, deviceScaleFactor: 1 });
      const [cookieName, value] = owner.cookie.split('=') as [string, string];
      await context.addCookies([{ name: cookieName, value, url: server.url }]);
      const page = await context.newPage();
      await page.goto(`/maps/${mapId}`);
      await page.getByRole('tab', { name: 'Insights' }).click();
      const panel = page.getByRole('tabpanel');
      await panel.locator('.ep-insights__chart canvas').first().waitFor();
      await shot(page, `${name}-top`);
      // The rest of the panel: its lists.
      await panel.getByRole('heading', { name: 'Searches that found nothing' }).scrollIntoViewIfNeeded();
      await shot(page, `${name}-lists`);
      await panel.getByRole('radio', { name: '7 days' }).click();
      await panel.getByRole('table', { name: /Views per day/ }).waitFor();
      await panel.locator('.ep-insights__chart canvas').first().waitFor();
      await panel.getByRole('heading', { name: 'Views per day' }).scrollIntoViewIfNeeded();
      await shot(page, `${name}-7-days`);
      await context.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

await main();
