/**
 * The path a paying customer walks (issue 27, "Done means"), in Chromium against the built
 * client, at 1280 and at 375 wide: register; a new map; the real Inkscape floor plan (rooms in a
 * group in a layer) uploaded, its numbered rooms made locations in bulk, two pins dropped inside
 * rooms; Professional bought through the local test checkout; the purchase code registered
 * (local licences); the map put in a Pro slot; an edit that stays a draft (the public JSON and
 * /m/{id} unchanged), reviewed and published, with a location hidden on the way gone from the
 * JSON, the page and the embed; a publish scheduled a minute ahead that happens (the server's
 * clock moved and its scheduler ticked, no real wait); a roll back to the version saved at launch.
 * One server, one browser; each width is its own customer. Screenshots of every step go to
 * $SCREENSHOTS (when set) as paying-path-{width}-{step}.png, to look at.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { MapDocument } from '../../events/map-document.js';
import { embedSnippet } from '../../client/src/utils/embed.js';
import { useBrowserSession } from '../support/browser.js';
import { chooseTool } from './support/editor-canvas.js';
import { completeCheckout, openSubscribe, startCheckout } from './support/subscribe.js';
import { lookAt } from './support/look-at.js';

const TIMEOUT = 30_000;
const PLAN = path.resolve(import.meta.dirname, '../fixtures/realworld/concordia-hall-floor8-inkscape.svg');
const DIALOG = /^Make locations from the regions of /;
const PURCHASE_CODES: Record<number, string> = { 1280: '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f', 375: '8d2e3f4a-5b6c-4d7e-9f8a-0b1c2d3e4f5a' };

/** The services' and the scheduler's clock: moved past a scheduled time instead of waiting for it. */
const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };

/** The middle of a shape of the drawing in the editor's canvas, on the page (null before the drawing is there). */
async function middleOf(page: Page, id: string): Promise<{ x: number; y: number } | null> {
  return page.evaluate((shapeId) => {
    const root = [...document.querySelectorAll('.ed-canvas .mf-base')].find((element) => element.shadowRoot?.querySelector('svg'))?.shadowRoot;
    const box = root?.getElementById(shapeId)?.getBoundingClientRect();
    return box ? { x: box.left + box.width / 2, y: box.top + box.height / 2 } : null;
  }, id);
}

describe('the paying customer’s path in Chromium', () => {
  const session = useBrowserSession({ clock });

  for (const width of [1280, 375]) {
    const phone = width < 500;
    it(`from a new account to a published, edited, scheduled and rolled-back floor plan at ${width} wide`, { timeout: 300_000 }, async () => {
      const { server, browser } = session;
      const context = await browser.newContext({ baseURL: server.url, viewport: { width, height: phone ? 812 : 800 } });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      let step = 0;
      let mapId = '';
      const shot = async (name: string) => {
        step += 1;
        await lookAt(page, `paying-path-${width}-${String(step).padStart(2, '0')}-${name}`);
      };
      const api = async <T,>(url: string): Promise<T> => ((await (await page.request.get(url)).json()) as { result: T }).result;
      const documentOf = async () => (await api<{ data: MapDocument }>(`/api/maps/${mapId}/data`)).data;
      const publicTitles = async (): Promise<string[] | null> => {
        const response = await fetch(`${server.url}/api/public/maps/${mapId}`);
        if (response.status !== 200) return null;
        return ((await response.json()) as { result: { data: MapDocument } }).result.data.locations.map((location) => location.title);
      };
      const publicPage = async () => (await fetch(`${server.url}/m/${mapId}`)).text();
      // A tab opens its panel (on a phone, a sheet; pressing the open one's tab closes it).
      const openTab = async (name: string) => {
        if (!(await page.getByRole('tabpanel', { name }).isVisible())) await page.getByRole('tab', { name }).click();
        await page.getByRole('tabpanel', { name }).waitFor({ timeout: TIMEOUT });
      };
      const publishSummary = () => page.getByTestId('publish-summary').textContent();

      try {
        await walk();
      } catch (failure) {
        // Where it stopped, to look at (the steps' pictures say how it got there).
        await lookAt(page, `paying-path-${width}-failed`).catch(() => undefined);
        throw failure;
      } finally {
        await context.close();
      }
      expect(errors).toEqual([]);

      async function walk() {
        // 1. Register, and verify the address from the mail (the embedded outbox).
        const email = `hall-${width}-${Date.now()}@example.com`;
        await page.goto('/register');
        await page.getByLabel('Display name').fill(`Hall manager ${width}`);
        await page.getByLabel('Email').fill(email);
        await page.getByLabel('Password').fill('tidal marble lantern');
        await page.getByRole('button', { name: 'Create account' }).click();
        await page.waitForURL('**/maps', { timeout: TIMEOUT });
        await page.getByRole('button', { name: 'Decline' }).click();
        await page.goto('/dev/outbox');
        await page.locator('article').filter({ hasText: `to ${email}` }).getByRole('link', { name: /\/verify-email\?token=/ }).first().click();
        await page.getByText('Your email address is verified.').waitFor({ timeout: TIMEOUT });

        // 2. A new map from the Inkscape plan, then 3. its numbered rooms made locations in bulk,
        // in the dialog beside the map.
        await page.goto('/maps/new');
        await page.getByLabel('Title').fill('Hall building');
        await page.getByRole('radio', { name: /Upload a plan/ }).check();
        await page.locator('.dropzone input[type=file]').setInputFiles(PLAN);
        await page.locator('.dropzone__ok').waitFor({ timeout: TIMEOUT });
        await shot('new-map');
        await page.getByRole('button', { name: 'Create map' }).click();
        await page.waitForURL((url) => /^\/maps\/[A-Za-z0-9_-]+$/.test(url.pathname) && url.pathname !== '/maps/new', { timeout: TIMEOUT });
        mapId = new URL(page.url()).pathname.split('/').pop()!;
        await openTab('Floors');
        await page.getByRole('button', { name: DIALOG }).click();
        const dialog = page.getByRole('dialog', { name: DIALOG });
        await dialog.waitFor({ timeout: TIMEOUT });
        await expect.poll(() => dialog.getByRole('status').textContent(), { timeout: TIMEOUT }).toMatch(/titles? read from the text inside the shapes/);
        await dialog.getByRole('checkbox', { name: /^H865\b/ }).hover();
        await shot('regions-dialog');
        await dialog.getByRole('button', { name: 'All named' }).click();
        const named = Number((await dialog.getByRole('status').textContent())!.match(/^(\d+) regions? of/)![1]);
        expect(named).toBeGreaterThan(30);
        await dialog.getByRole('button', { name: `Make ${named} locations` }).click();
        await dialog.waitFor({ state: 'detached', timeout: TIMEOUT });
        await expect.poll(async () => (await documentOf()).locations.length, { timeout: TIMEOUT }).toBe(named);
        await shot('rooms-made-locations');

        // 4. Two pins dropped inside rooms of the group: pins at those points, linked to nothing.
        for (const [room, title] of [
          ['rect3855', 'Help desk'],
          ['rect3865', 'Staff kitchen'],
        ] as const) {
          // On a phone the panel is a sheet over the map: closed first, as a user would.
          if (phone && (await page.getByRole('button', { name: 'Close the panel' }).isVisible())) await page.getByRole('button', { name: 'Close the panel' }).click();
          await chooseTool(page, 'Add location');
          const middle = await middleOf(page, room);
          expect(middle, room).not.toBeNull();
          await page.mouse.click(middle!.x, middle!.y);
          const field = page.getByLabel('Title', { exact: true });
          await field.waitFor({ timeout: TIMEOUT });
          await field.fill(title);
          await expect.poll(async () => (await documentOf()).locations.find((location) => location.title === title)?.position ?? null, { timeout: TIMEOUT }).not.toBeNull();
        }
        const pins = (await documentOf()).locations.filter((location) => location.title === 'Help desk' || location.title === 'Staff kitchen');
        expect(pins.map((pin) => pin.element ?? null)).toEqual([null, null]);
        await shot('pins-dropped');

        // 5. Subscribe: one Pro slot through the local test checkout.
        await openSubscribe(page);
        await shot('subscribe');
        await startCheckout(page, 'Professional', 1);
        await shot('checkout');
        await completeCheckout(page, 'Professional');

        // 6. The licence, registered from the Publish panel (local licences): live on its Basic.
        await page.goto(`/maps/${mapId}`);
        await openTab('Publish');
        await page.getByRole('textbox', { name: 'Purchase code' }).fill(PURCHASE_CODES[width]!);
        await shot('licence-typed');
        await page.getByRole('button', { name: 'Register licence' }).click();
        await page.getByText('Live with licence', { exact: true }).waitFor({ timeout: TIMEOUT });
        await expect.poll(publicTitles, { timeout: TIMEOUT }).toContain('Help desk');

        // 7. Published in the Pro slot; a version saved at launch.
        await page.getByRole('button', { name: 'Publish in a Pro slot' }).click();
        await page.getByText('Live (Professional)', { exact: true }).waitFor({ timeout: TIMEOUT });
        await expect.poll(publishSummary, { timeout: TIMEOUT }).toMatch(/no changes to publish$/);
        await shot('published');
        await openTab('History');
        await page.getByLabel('Name (optional)').fill('Launch');
        await page.getByRole('button', { name: 'Save version' }).click();
        await page.getByRole('list', { name: 'Versions' }).getByText('Launch').waitFor({ timeout: TIMEOUT });
        const launched = await publicTitles();
        expect(launched).toEqual(expect.arrayContaining(['Help desk', 'Staff kitchen', 'H865']));
        const launchPage = await publicPage();
        expect(launchPage).toContain('Staff kitchen');

        // 8. An edit: the help desk renamed, the staff kitchen hidden. A draft: the public map is as it was.
        const editLocation = async (title: string, change: (page: Page) => Promise<void>) => {
          await openTab('Locations');
          await page.getByRole('searchbox', { name: 'Search locations' }).fill(title);
          await page.getByRole('tabpanel', { name: 'Locations' }).getByRole('button', { name: title, exact: true }).click();
          await page.getByLabel('Title', { exact: true }).waitFor({ timeout: TIMEOUT });
          await change(page);
          await page.getByRole('button', { name: 'All locations' }).click();
          await page.getByRole('searchbox', { name: 'Search locations' }).fill('');
        };
        await editLocation('Help desk', (form) => form.getByLabel('Title', { exact: true }).fill('Information desk'));
        await editLocation('Staff kitchen', async (form) => {
          // As a user does: the switch's words (its input sits under the drawn track).
          await form.getByText('Hidden from visitors', { exact: true }).click();
          await expect.poll(() => form.getByRole('switch', { name: 'Hidden from visitors' }).isChecked()).toBe(true);
        });
        await expect.poll(async () => (await documentOf()).locations.filter((location) => location.title === 'Information desk' || location.hidden).map((location) => location.title).sort(), { timeout: TIMEOUT }).toEqual(['Information desk', 'Staff kitchen']);
        await shot('edited');
        expect(await publicTitles()).toEqual(launched);
        expect(await publicPage()).toContain('Help desk');

        // 9. The review: what changed since the published revision; published.
        await openTab('Publish');
        await expect.poll(publishSummary, { timeout: TIMEOUT }).toMatch(/2 changes not published$/);
        const review = page.locator('.pc-review');
        await expect.poll(() => review.textContent(), { timeout: TIMEOUT }).toContain('Changed location “Information desk”');
        expect(await review.textContent()).toContain('Changed location “Staff kitchen”');
        await page.locator('.pc-review').scrollIntoViewIfNeeded();
        await shot('review');
        await page.getByRole('button', { name: 'Publish changes' }).click();
        await expect.poll(publishSummary, { timeout: TIMEOUT }).toMatch(/no changes to publish$/);
        await expect.poll(publicTitles, { timeout: TIMEOUT }).toContain('Information desk');
        // Hidden, published, gone: from the JSON, the page and the embed.
        expect(await publicTitles()).not.toContain('Staff kitchen');
        const pageNow = await publicPage();
        expect(pageNow).toContain('Information desk');
        expect(pageNow).not.toContain('Staff kitchen');
        const embedSrc = /src="([^"]+)"/.exec(embedSnippet({ mapId, publicUrl: server.url, title: 'Hall building' }))![1]!.replace(/&amp;/g, '&');
        const embed = await (await fetch(embedSrc)).text();
        expect(embed).toContain('Information desk');
        expect(embed).not.toContain('Staff kitchen');
        await shot('changes-published');

        // 10. Another edit, scheduled a minute ahead; the public map waits for it.
        await editLocation('Information desk', (form) => form.getByLabel('Title', { exact: true }).fill('Visitor centre'));
        await openTab('Publish');
        await expect.poll(publishSummary, { timeout: TIMEOUT }).toMatch(/1 change not published$/);
        await page.getByRole('button', { name: 'Schedule…' }).click();
        // A minute ahead, to the minute, in the browser's own time zone (what the field takes).
        const at = await page.evaluate(() => {
          const date = new Date(Date.now() + 2 * 60_000);
          const pad = (n: number) => String(n).padStart(2, '0');
          return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
        });
        await page.getByLabel('Publish on').fill(at);
        await page.getByRole('button', { name: 'Schedule publish' }).click();
        await page.locator('.pc-scheduled').getByText(/will be published/).waitFor({ timeout: TIMEOUT });
        await shot('scheduled');
        expect(await server.app.publishScheduler.tick()).toBe(0);
        expect(await publicTitles()).toContain('Information desk');

        // Its time comes: the scheduler publishes it, and the panel shows it without a reload.
        clock.offsetMs += 3 * 60_000;
        try {
          await server.app.publishScheduler.tick();
        } finally {
          // The browser's clock never moved: the next scheduled time is measured against it again.
          clock.offsetMs -= 3 * 60_000;
        }
        await expect.poll(publicTitles, { timeout: TIMEOUT }).toContain('Visitor centre');
        await expect.poll(publishSummary, { timeout: TIMEOUT }).toMatch(/no changes to publish$/);
        await page.locator('.pc-scheduled').waitFor({ state: 'detached', timeout: TIMEOUT });
        await page.getByText(/^Revision \d+ was published as scheduled\.$/).waitFor({ timeout: TIMEOUT });
        await shot('schedule-happened');

        // 11. Roll back to the version saved at launch: the public map is the launch's again.
        const versions = page.getByLabel('Roll back the public map to');
        const launch = await versions.locator('option', { hasText: 'Launch' }).getAttribute('value');
        await versions.selectOption(launch!);
        await page.getByRole('button', { name: 'Roll back' }).click();
        await expect.poll(publicTitles, { timeout: TIMEOUT }).toEqual(launched);
        await expect.poll(publishSummary, { timeout: TIMEOUT }).toMatch(/changes? not published$/);
        await shot('rolled-back');

        // What a visitor sees now.
        await page.goto(`/m/${mapId}`);
        await page.waitForFunction(() => (window as { __mapfoldViewerReady?: number }).__mapfoldViewerReady, undefined, { timeout: TIMEOUT });
        // Its marker's button (on a phone the list is folded away).
        await page.getByRole('button', { name: 'Help desk', exact: true }).or(page.getByText('Help desk', { exact: true })).first().waitFor({ state: 'attached', timeout: TIMEOUT });
        await shot('visitor');

        // And on the customer's own site: the embed snippet in a page of theirs.
        // As the share menu gives it: the map's own proportions.
        const { size } = (await documentOf()).settings;
        const snippet = embedSnippet({ mapId, publicUrl: server.url, title: 'Hall building', aspectRatio: size.width / size.height }).replace('loading="lazy" ', '');
        // Served by a site of its own (another origin on this machine: Chromium lets no page
        // without an address of its own frame a local one), so the iframe is cross-origin, as on theirs.
        const hostPage = `<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1"><title>Our building</title></head><body style="margin:0;padding:16px;font:16px system-ui,sans-serif"><h1 style="margin:0 0 12px">Find your room</h1>${snippet}<p>Opening hours: 8 to 20.</p></body></html>`;
        const site = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(hostPage));
        await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
        try {
          await page.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/`);
          const frame = page.frameLocator('iframe');
          await frame.getByRole('button', { name: 'Help desk', exact: true }).or(frame.getByText('Help desk', { exact: true })).first().waitFor({ state: 'attached', timeout: TIMEOUT });
          // The drawing painted inside it (its rooms are in a shadow root), then the picture.
          const viewer = page.frames().find((frame) => frame.url().includes(`/m/${mapId}`))!;
          await viewer.waitForFunction(() => [...document.querySelectorAll('*')].some((element) => element.shadowRoot?.querySelector('svg rect')), undefined, { timeout: TIMEOUT });
          await shot('embed');
          // Sized to its column: the map's proportions, and on a phone a least height of 80% of
          // the screen's width, not 420 px.
          const box = (await page.locator('iframe').boundingBox())!;
          expect(box.width).toBeGreaterThan(width - 40);
          if (phone) expect(box.height).toBeLessThanOrEqual(Math.max((box.width * size.height) / size.width, width * 0.8) + 1);
        } finally {
          site.close();
        }
      }
    });
  }
});
