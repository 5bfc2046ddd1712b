/**
 * Calibrating a floor in Chromium: the world map's drawing without its calibration, pinned at
 * two points (clicked on the canvas, latitude/longitude typed), becomes calibrated (LayerCalibrated)
 * and puts both places where they were pinned; a location's latitude/longitude then show in its
 * form, and typing a latitude moves it. Screenshots at 1280 and 375 wide go to
 * $SCREENSHOTS (when set) to be looked at.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { floorToGeo, projectToFloor } from '../../events/geo-calibration.js';
import type { MapDocument } from '../../events/map-document.js';
import { builtInMap } from '../../server/templates/built-in-maps.js';
import { signedInContext, startBrowserSession } from '../support/browser.js';
import { call, projected, registerUser, type TestServer, type TestUser } from '../support/test-server.js';

const TIMEOUT = 15_000;
const shots = process.env.SCREENSHOTS ?? null;

async function shot(page: Page, name: string) {
  if (!shots) return;
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, `${name}.png`) });
}

describe('calibrating a floor by two points, in Chromium', () => {
  let session: Awaited<ReturnType<typeof startBrowserSession>>;
  let server: TestServer;

  beforeAll(async () => {
    session = await startBrowserSession({ env: { BODY_LIMIT: String(4 * 1024 * 1024) } });
    server = session.server;
  });
  afterAll(() => session?.close());

  async function uncalibratedWorld(owner: TestUser): Promise<string> {
    const response = await fetch(`${server.url}/api/templates/world/instantiate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: owner.cookie },
      body: JSON.stringify({ data: {} }),
    });
    const document = ((await response.json()) as { result: MapDocument }).result;
    // The drawing as an uploaded plan would be: no calibration.
    const { geo: _geo, ...layer } = document.layers[0]!;
    const answer = await call(server, 'createMap', { title: 'Pinned world', mapData: { ...document, layers: [layer] } }, owner);
    if (answer.body.position) await projected(server, answer.body.position);
    return answer.body.result as string;
  }

  const documentOf = async (mapId: string, owner: TestUser) =>
    ((await (await fetch(`${server.url}/api/maps/${mapId}/data`, { headers: { cookie: owner.cookie } })).json()) as { result: { data: MapDocument } }).result.data;

  for (const viewport of [{ width: 1280, height: 800 }, { width: 375, height: 740 }]) {
    it(`pins two points, then shows and edits a location's latitude/longitude (${viewport.width} wide)`, { timeout: 120_000 }, async () => {
      const owner = await registerUser(server);
      const mapId = await uncalibratedWorld(owner);
      const context = await signedInContext(session.browser, server, owner, viewport);
      const page = await context.newPage();
      await page.goto(`/maps/${mapId}`);
      await page.getByRole('tab', { name: 'Floors' }).click();
      await page.getByRole('button', { name: 'Calibrate World with two known points' }).click();

      const world = builtInMap('world');
      const size = { width: world.width, height: world.height };
      for (const [index, fraction] of [[0, [0.3, 0.35]], [1, [0.7, 0.65]]] as const) {
        await page.getByRole('group', { name: `Point ${index + 1}` }).getByRole('button', { name: /Pick/ }).click();
        const box = (await page.locator('.ed-canvas .mf-viewport').boundingBox())!;
        await page.mouse.click(box.x + box.width * fraction[0], box.y + box.height * fraction[1]);
        const x = page.getByLabel(`Point ${index + 1}, x on the drawing`);
        await expect.poll(() => x.inputValue(), { timeout: TIMEOUT }).not.toBe('');
        const at = { x: Number(await x.inputValue()), y: Number(await page.getByLabel(`Point ${index + 1}, y on the drawing`).inputValue()) };
        // The place the world map really shows there, as a user would read it off an online map.
        const place = floorToGeo(world.geo, size, at)!;
        await page.getByLabel(`Point ${index + 1}, latitude`).fill(place.lat.toFixed(5));
        await page.getByLabel(`Point ${index + 1}, longitude`).fill(place.lng.toFixed(5));
      }
      await shot(page, `calibrate-${viewport.width}`);
      await page.getByRole('button', { name: 'Calibrate', exact: true }).click();
      await page.getByText('Calibrated', { exact: true }).waitFor({ timeout: TIMEOUT });
      await shot(page, `calibrated-${viewport.width}`);

      // Saved as the floor's calibration: the two pins' places land where they were pinned.
      await expect.poll(async () => (await documentOf(mapId, owner)).layers[0]!.geo?.kind ?? null, { timeout: TIMEOUT }).toBe('bounds');
      const layer = (await documentOf(mapId, owner)).layers[0]!;
      expect(layer.geo).toMatchObject({ kind: 'bounds', projection: 'mercator' });

      // A location's latitude/longitude, typed: it moves there.
      await page.getByRole('tab', { name: 'Locations' }).click();
      await page.getByRole('searchbox').first().fill('France');
      await page.getByRole('button', { name: /^France/ }).first().click();
      const latitude = page.getByLabel('Latitude', { exact: true });
      await latitude.waitFor({ timeout: TIMEOUT });
      expect(Number(await latitude.inputValue())).not.toBeNaN();
      await latitude.fill('46.5');
      await page.getByLabel('Longitude', { exact: true }).fill('2.5');
      await shot(page, `location-latlng-${viewport.width}`);
      const expected = projectToFloor(layer.geo!, layer.file!, { lat: 46.5, lng: 2.5 })!;
      await expect
        .poll(async () => {
          const france = (await documentOf(mapId, owner)).locations.find((l) => l.title === 'France')!;
          return Math.hypot(france.position!.x - expected.x, france.position!.y - expected.y);
        }, { timeout: TIMEOUT })
        .toBeLessThan(0.1);
      await context.close();
    });
  }
});
