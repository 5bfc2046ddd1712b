/**
 * A BASEMAP_URL style (a third party's) asking for what this build of MapLibre leaves out
 * (scripts/maplibre-source-plugin.ts, issue 29: 3D buildings, a heatmap, hillshading, 3D terrain)
 * still draws the map and its stores: each left-out part is named in a warning (MapLibre's one-time warning, from the page and its worker), none is a
 * page error. The style is Mapfold's own basemap served from another address with those parts
 * added, so its tiles, fonts and icons are this server's.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basemapStoresDocument } from '../../bench/basemap.js';
import { basemapStyle } from '../../server/basemap/basemap-style.js';
import { startBrowserSession } from '../support/browser.js';
import { call, projected, registerUser, type TestServer } from '../support/test-server.js';

describe('a third party’s basemap style with parts this build leaves out', () => {
  let session: Awaited<ReturnType<typeof startBrowserSession>>;
  let server: TestServer;
  let styleServer: http.Server;
  let mapId: string;

  beforeAll(async () => {
    styleServer = http.createServer((_request, response) => {
      const base = server.url;
      const style = basemapStyle({ theme: 'light', lang: 'en', sourceUrl: `pmtiles://${base}/basemap/world.pmtiles`, attribution: 'A third party', glyphsUrl: `${base}/basemap/fonts/{fontstack}/{range}.pbf`, spriteUrl: `${base}/basemap/sprites/v4/light` });
      const extended = {
        ...style,
        sources: { ...style.sources, dem: { type: 'raster-dem', tiles: [`${base}/no-elevation/{z}/{x}/{y}.png`], tileSize: 256 } },
        terrain: { source: 'dem', exaggeration: 1.5 },
        layers: [
          ...style.layers.slice(0, 3),
          { id: 'buildings-3d', type: 'fill-extrusion', source: 'protomaps', 'source-layer': 'earth', paint: { 'fill-extrusion-color': '#f00', 'fill-extrusion-height': 100 } },
          { id: 'towns-heat', type: 'heatmap', source: 'protomaps', 'source-layer': 'places' },
          { id: 'relief', type: 'hillshade', source: 'dem' },
          ...style.layers.slice(3),
        ],
      };
      response.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
      response.end(JSON.stringify(extended));
    });
    await new Promise<void>((resolve) => styleServer.listen(0, '127.0.0.1', resolve));
    const styleUrl = `http://127.0.0.1:${(styleServer.address() as AddressInfo).port}/style.json`;
    session = await startBrowserSession({ env: { BODY_LIMIT: String(8 * 1024 * 1024), BASEMAP_URL: styleUrl } });
    server = session.server;
    const owner = await registerUser(server);
    const answer = await call(server, 'createMap', { title: 'Northwind stores', mapData: await basemapStoresDocument(200) }, owner);
    await projected(server, answer.body.position);
    await server.database.db.query('UPDATE maps_list SET state = 1 WHERE id = $1', [answer.body.result]);
    mapId = answer.body.result as string;
  }, 120_000);
  afterAll(async () => {
    await session?.close();
    styleServer?.close();
  });

  it('draws the map and its stores, warning of each left-out part, with no page error', { timeout: 90_000 }, async () => {
    const context = await session.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const warnings: string[] = [];
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${server.url}/m/${mapId}`);
    await page.waitForSelector('.mf-basemap[data-ready] canvas', { timeout: 60_000 });
    // The third party's style drawn (its source's credit), and the stores over it: the directory's list.
    await expect.poll(() => page.locator('.maplibregl-ctrl-attrib').textContent(), { timeout: 30_000 }).toContain('A third party');
    await expect.poll(() => page.locator('.mf-directory__list button').count(), { timeout: 30_000 }).toBeGreaterThan(0);
    for (const left of ['"buildings-3d" of type "fill-extrusion" is left out', '"towns-heat" of type "heatmap" is left out', '"relief" of type "hillshade" is left out', '3D terrain is not in this build']) {
      expect(warnings.some((warning) => warning.includes(left)), `${left} in ${JSON.stringify(warnings)}`).toBe(true);
    }
    expect(errors).toEqual([]);
    await context.close();
  });
});
