/**
 * The embed SDK in Chromium (issue 30 item 3): a host page on another origin loads /embed.js,
 * drives a published map through it (opens a location, switches floor, searches) and hears its
 * events (ready, locationOpened, floorChanged, searchPerformed); a third origin's frame on the
 * same page, which posts the same commands to the map and fake events to the host, is ignored
 * both ways. The protocol is events/embed-messages.ts.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../events/map-document.js';
import { startBrowserSession } from '../support/browser.js';
import { call, projected, registerUser, type TestServer } from '../support/test-server.js';

const PLAN = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1000 600" width="1000" height="600">
  <rect x="10" y="10" width="980" height="580" rx="16" fill="#f8fafc" stroke="#64748b" stroke-width="4"/>
</svg>`;

function documentWith(planUrl: string) {
  const file = { kind: 'svg', url: planUrl, width: 1000, height: 600 };
  return {
    version: 2,
    settings: { ...defaultSettings(), size: { width: 1000, height: 600 }, defaultLayer: 'ground' },
    layers: [
      { id: 'ground', name: 'Ground floor', file },
      { id: 'upper', name: 'Upper floor', file },
    ],
    groups: [{ id: 'food', name: 'Food & drink', color: '#ea580c', legend: true }],
    locations: [
      { id: 'cafe', title: 'Café Lumière', layer: 'ground', groups: ['food'], marker: 'pin', position: { x: 400, y: 300 } },
      { id: 'sushi', title: 'Sakura Sushi', layer: 'ground', groups: ['food'], marker: 'pin', position: { x: 640, y: 300 } },
      { id: 'gym', title: 'Iron Gym', layer: 'upper', groups: [], marker: 'pin', position: { x: 500, y: 300 } },
    ],
    styles: { regions: { base: '#e2e8f0', hover: '#c7d2fe', active: '#818cf8' } },
  };
}

/** A page served by a plain HTTP server on 127.0.0.1 (its own origin: its own port). */
function startSite(page: () => string): Promise<{ server: Server; url: string }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(page());
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ server, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` });
    }),
  );
}

interface Heard {
  type: string;
  [key: string]: unknown;
}

describe('the embed SDK in Chromium', () => {
  let session: Awaited<ReturnType<typeof startBrowserSession>>;
  let server: TestServer;
  let browser: Browser;
  let host: Awaited<ReturnType<typeof startSite>>;
  let third: Awaited<ReturnType<typeof startSite>>;
  let mapId: string;

  beforeAll(async () => {
    session = await startBrowserSession();
    ({ server, browser } = session);
    const owner = await registerUser(server);
    const uploaded = await fetch(`${server.url}/api/files`, { method: 'POST', headers: { 'content-type': 'application/octet-stream', cookie: owner.cookie }, body: PLAN });
    expect(uploaded.status).toBe(200);
    const planUrl = ((await uploaded.json()) as { result: { url: string } }).result.url;
    const created = await call(server, 'createMap', { title: 'Harbour Market', mapData: documentWith(planUrl) }, owner);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    mapId = created.body.result;
    await projected(server, created.body.position);
    await server.database.db.query('UPDATE maps_list SET state = 1 WHERE id = $1', [mapId]);
    // Another site's frame on the host page: it knows the protocol and tries it both ways.
    third = await startSite(() => '<!doctype html><title>Ad</title><p>An advertisement</p>');
    // The host page: the SDK from the map's site, the map, every event it hears, and the third site's frame.
    host = await startSite(
      () => `<!doctype html><html><head><meta charset="utf-8"><title>Our shop</title>
      <script src="${server.url}/embed.js"></script></head>
      <body style="margin:0"><div id="map" style="width:1000px"></div>
      <iframe id="ad" src="${third.url}/" title="Advertisement" width="300" height="100"></iframe>
      <script>
        window.heard = [];
        window.map = Mapfold.embed(document.getElementById('map'), { mapId: ${JSON.stringify(mapId)}, title: 'Harbour Market' });
        for (const type of ['ready', 'locationOpened', 'floorChanged', 'searchPerformed']) window.map.on(type, (event) => window.heard.push(event));
      </script></body></html>`,
    );
  });
  afterAll(async () => {
    host?.server.close();
    third?.server.close();
    await session?.close();
  });

  const heard = (page: Page) => page.evaluate(() => (window as unknown as { heard: Heard[] }).heard);
  const heardOf = async (page: Page, type: string) => (await heard(page)).filter((event) => event.type === type);

  it('is one small script that other sites may load', async () => {
    expect(readFileSync('dist/client/embed.js.gz').length).toBeLessThanOrEqual(6 * 1024);
    const answer = await fetch(`${server.url}/embed.js`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/javascript/);
    expect(answer.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
  });

  it('lets a host page on another origin drive the map and hear it, and ignores a third origin', async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(host.url);

    // The iframe names the host's origin, and the map says it is ready.
    const src = new URL((await page.locator('iframe[title="Map: Harbour Market"]').getAttribute('src'))!);
    expect(src.origin).toBe(server.url);
    expect(src.searchParams.get('host')).toBe(host.url);
    await expect.poll(() => heardOf(page, 'ready')).toEqual([{ mapfold: 1, type: 'ready', mapId }]);
    const map = page.frames().find((frame) => frame.url().startsWith(`${server.url}/m/`))!;
    const ad = page.frames().find((frame) => frame.url().startsWith(third.url))!;

    // openLocation: the details show, and the host hears it.
    await page.evaluate(() => (window as unknown as { map: { openLocation(id: string): void } }).map.openLocation('cafe'));
    await map.locator('.mf-popup').getByText('Café Lumière').first().waitFor();
    await expect.poll(() => heardOf(page, 'locationOpened')).toEqual([{ mapfold: 1, type: 'locationOpened', id: 'cafe', title: 'Café Lumière' }]);

    // setFloor, by id: the upper floor shows (its button pressed), and the host hears it.
    await page.evaluate(() => (window as unknown as { map: { setFloor(floor: string): void } }).map.setFloor('upper'));
    await map.getByRole('button', { name: 'Upper floor', exact: true }).and(map.locator('[aria-pressed="true"]')).waitFor();
    await expect.poll(() => heardOf(page, 'floorChanged')).toEqual([{ mapfold: 1, type: 'floorChanged', floor: 'upper' }]);

    // search: told once it settles.
    await page.evaluate(() => (window as unknown as { map: { search(query: string): void } }).map.search('sushi'));
    await expect.poll(() => heardOf(page, 'searchPerformed')).toEqual([{ mapfold: 1, type: 'searchPerformed', query: 'sushi' }]);

    // The map shows the upper floor with nothing open (the cafe closed as its floor went).
    await map.locator('.mf-popup').waitFor({ state: 'detached' });
    // A third origin's frame posts commands to the map (open the sushi bar, on the ground
    // floor) and fake events to the host page...
    await postFromThirdSite(ad);
    // ...then the host searches: once the map told it, the third site's earlier messages have
    // been seen and dropped (each window's messages are handled in order, the map's renders
    // between them).
    await page.evaluate(() => (window as unknown as { map: { search(query: string): void } }).map.search('gym'));
    await expect.poll(async () => (await heardOf(page, 'searchPerformed')).map((event) => event.query)).toEqual(['sushi', 'gym']);
    expect(await map.locator('.mf-popup').count()).toBe(0);
    expect(await map.getByRole('button', { name: 'Upper floor', exact: true }).getAttribute('aria-pressed')).toBe('true');
    // The fake events were never heard.
    expect((await heard(page)).map((event) => event.type)).toEqual(['ready', 'locationOpened', 'floorChanged', 'searchPerformed', 'searchPerformed']);
    // The host still drives it.
    await page.evaluate(() => (window as unknown as { map: { openLocation(id: string): void } }).map.openLocation('gym'));
    await map.locator('.mf-popup').getByText('Iron Gym').first().waitFor();
    await expect.poll(async () => (await heardOf(page, 'locationOpened')).map((event) => event.id)).toEqual(['cafe', 'gym']);
    expect(errors).toEqual([]);
    await context.close();
  });
});

/** The third site's frame speaks the protocol to every window it can reach, with any target origin. */
async function postFromThirdSite(ad: Frame) {
  await ad.evaluate(() => {
    const commands = [
      { mapfold: 1, type: 'openLocation', id: 'sushi' },
      { mapfold: 1, type: 'setFloor', floor: 'ground' },
    ];
    for (let index = 0; index < window.parent.frames.length; index++) {
      const frame = window.parent.frames[index]!;
      if (frame !== window) for (const command of commands) frame.postMessage(command, '*');
    }
    window.parent.postMessage({ mapfold: 1, type: 'locationOpened', id: 'evil', title: 'Evil' }, '*');
    window.parent.postMessage({ mapfold: 1, type: 'ready', mapId: 'evil' }, '*');
  });
}
