/**
 * The server-rendered viewer (`/m/{id}` of a published map): its HTML alone holds the floor,
 * the markers and the directory; in Chromium with JavaScript off the map is on screen and
 * readable; with JavaScript on Preact (the viewer's build, vite.config.ts) hydrates the server's very nodes (no mismatch, nothing
 * rendered twice) and the map works: a marker opens its details, search filters the list.
 * A hostile title and description never get out of their text: not out of the data block,
 * not into markup. Screenshots at 375 and 1280, JavaScript on and off (SCREENSHOTS=dir).
 *
 * Publishing goes through hosting slots (another issue); here a map is made public by setting
 * its state in the maps_list read model directly.
 */
import { REGION_TINT, tint } from '../../events/colour-tint.js';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../events/map-document.js';
import { VIEWER_DATA_ID, type ViewerPageData } from '../../events/viewer-page-data.js';
import { startBrowserSession } from '../support/browser.js';
import { call, projected, registerUser, type TestServer, type TestUser } from '../support/test-server.js';

const HOSTILE_TITLE = 'Harbour </script><script>window.__pwned = 1</script><!-- Market';
const HOSTILE_DESCRIPTION = '<p>Fresh <strong>bread</strong></p><img src=x onerror="window.__pwned = 2"><script>window.__pwned = 3</script>';
const SHOTS = process.env.SCREENSHOTS ?? '';

const PLAN = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1000 600" width="1000" height="600">
  <rect x="10" y="10" width="980" height="580" rx="16" fill="#f8fafc" stroke="#64748b" stroke-width="4"/>
  <rect id="r-books" x="40" y="40" width="200" height="160" fill="#e2e8f0" stroke="#94a3b8"/>
  <rect x="400" y="200" width="300" height="260" fill="#eef2ff" stroke="#94a3b8"/>
</svg>`;

function documentWith(planUrl: string) {
  const locations = [
    { id: 'cafe', title: 'Café Lumière', about: 'Espresso by the fountain', groups: ['food'], marker: 'pin', position: { x: 400, y: 300 }, description: HOSTILE_DESCRIPTION },
    { id: 'baker', title: 'Bäckerei </script> Müller', about: 'Bread & <b>pretzels</b>', groups: ['food'], marker: 'circle', position: { x: 520, y: 300 } },
    { id: 'sushi', title: 'Sakura Sushi', groups: ['food'], marker: 'pin', position: { x: 640, y: 300 } },
    { id: 'books', title: 'Page Turner Books', groups: ['shops'], element: 'r-books', marker: 'label', position: { x: 140, y: 120 } },
    { id: 'florist', title: 'Blossom Florist', groups: ['shops'], marker: 'dot', position: { x: 760, y: 300 } },
  ];
  return {
    version: 2,
    settings: { ...defaultSettings(), size: { width: 1000, height: 600 }, maxZoom: 6, features: { ...defaultSettings().features, minimap: true }, defaultLayer: 'ground' },
    layers: [{ id: 'ground', name: 'Ground floor', file: { kind: 'svg', url: planUrl, width: 1000, height: 600 } }],
    groups: [
      { id: 'food', name: 'Food & drink', color: '#ea580c', legend: true },
      { id: 'shops', name: 'Shops', color: '#2563eb', legend: true },
    ],
    locations: locations.map((location) => ({ layer: 'ground', ...location })),
    styles: { regions: { base: '#e2e8f0', hover: '#c7d2fe', active: '#818cf8' } },
  };
}

/** A map with `count` locations spread at random (seeded) on a plain sheet, like the render benchmark's. */
function manyLocations(count: number) {
  let seed = 7;
  const random = () => {
    seed = (seed * 16_807) % 2_147_483_647;
    return seed / 2_147_483_647;
  };
  const groups = ['#db2777', '#ea580c', '#2563eb', '#059669', '#7c3aed', '#0891b2'].map((color, i) => ({ id: `g${i}`, name: `Group ${i + 1}`, color, legend: true }));
  const markers = ['pin', 'circle', 'dot', 'label'] as const;
  return {
    version: 2,
    settings: { ...defaultSettings(), size: { width: 4000, height: 3000 }, maxZoom: 16, defaultLayer: 'ground' },
    layers: [{ id: 'ground', name: 'Ground floor', file: null }],
    groups,
    locations: Array.from({ length: count }, (_, i) => ({
      id: `l${i}`,
      title: `Unit ${String(i + 1).padStart(4, '0')}`,
      layer: 'ground',
      position: { x: Math.round(50 + random() * 3900), y: Math.round(50 + random() * 2900) },
      marker: markers[i % markers.length],
      groups: [`g${i % groups.length}`],
    })),
    styles: { regions: { base: '#e2e8f0', hover: '#c7d2fe', active: '#818cf8' } },
  };
}

async function publish(server: TestServer, owner: TestUser, title: string, mapData: unknown): Promise<string> {
  const created = await call(server, 'createMap', { title, mapData }, owner);
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  await projected(server, created.body.position);
  await server.database.db.query('UPDATE maps_list SET state = 1 WHERE id = $1', [created.body.result]);
  return created.body.result as string;
}

describe('the server-rendered viewer', () => {
  let session: Awaited<ReturnType<typeof startBrowserSession>>;
  let server: TestServer;
  let browser: Browser;
  let mapId: string;
  let bigMapId: string;
  let planUrl: string;

  beforeAll(async () => {
    // A 2,000-location map is more than the default body limit.
    session = await startBrowserSession({ env: { BODY_LIMIT: String(8 * 1024 * 1024) } });
    ({ server, browser } = session);
    const owner = await registerUser(server);
    const uploaded = await fetch(`${server.url}/api/files`, { method: 'POST', headers: { 'content-type': 'application/octet-stream', cookie: owner.cookie }, body: PLAN });
    expect(uploaded.status).toBe(200);
    planUrl = ((await uploaded.json()) as { result: { url: string } }).result.url;
    mapId = await publish(server, owner, HOSTILE_TITLE, documentWith(planUrl));
    bigMapId = await publish(server, owner, 'Riverside Business Park', manyLocations(2000));
    if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  }, 120_000);
  afterAll(async () => {
    await session?.close();
  });

  async function open(url: string, { javaScript, width, countMarkerDraws = false }: { javaScript: boolean; width: number; countMarkerDraws?: boolean }) {
    const context = await browser.newContext({ baseURL: server.url, viewport: { width, height: width < 500 ? 812 : 800 }, javaScriptEnabled: javaScript });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
    });
    if (javaScript) {
      // The server's nodes, taken before the viewer's module runs: hydration must keep them.
      await page.addInitScript(() => {
        document.addEventListener('readystatechange', () => {
          if (document.readyState !== 'interactive') return;
          const holder = window as { __ssrNodes?: Element[] };
          holder.__ssrNodes = [...document.querySelectorAll('.mf-directory__title, .mf-item, .mf-viewport')];
        });
      });
    }
    if (countMarkerDraws) {
      // Images drawn on the markers' canvas until the viewer's ready mark (taken when it is set).
      await page.addInitScript(() => {
        const holder = window as { __draws?: number; __drawsAtReady?: number; __mapfoldViewerReady?: number };
        holder.__draws = 0;
        const drawImage = CanvasRenderingContext2D.prototype.drawImage;
        CanvasRenderingContext2D.prototype.drawImage = function (this: CanvasRenderingContext2D, ...args: unknown[]) {
          if (this.canvas.classList.contains('mf-markers')) holder.__draws! += 1;
          return (drawImage as (...all: unknown[]) => void).apply(this, args);
        } as typeof drawImage;
        let ready: number | undefined;
        Object.defineProperty(window, '__mapfoldViewerReady', {
          configurable: true,
          get: () => ready,
          set: (value: number) => {
            ready = value;
            holder.__drawsAtReady = holder.__draws ?? 0;
          },
        });
      });
    }
    await page.goto(url);
    return { context, page, problems };
  }

  const shoot = async (page: Page, name: string) => {
    if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
  };

  it('sends the floor, the markers and the directory in the HTML, and the map as inert JSON', async () => {
    const response = await fetch(`${server.url}/m/${mapId}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    // Location titles (escaped text), the floor, a marker per placed location. (Preact's renderer
    // escapes `<` and `&` in text, not `>`, which ends no tag there; it writes `class` last.)
    expect(html).toContain('Café Lumière');
    expect(html).toContain('Bäckerei &lt;/script> Müller');
    expect(html).toMatch(new RegExp(`<img (?=[^>]*class="mf-static__floor")[^>]*src="${planUrl}"`));
    expect(html.match(/class="mf-static__marker /g)).toHaveLength(5);
    // The title, the description and Open Graph.
    expect(html).toContain('<title>Harbour &lt;/script&gt;&lt;script&gt;window.__pwned = 1&lt;/script&gt;&lt;!-- Market · Mapfold</title>');
    expect(html).toMatch(/<meta name="description" content="Interactive map of Harbour &lt;\/script&gt;[^"]*: 5 places\./);
    // Nothing the map says became a script or markup: only the build's scripts and the data block.
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((match) => match[0]);
    expect(scripts).toHaveLength(2);
    expect(scripts[1]).toBe(`<script type="application/json" id="${VIEWER_DATA_ID}">`);
    expect(html).not.toContain('onerror');
    expect(html).not.toContain('<strong>bread');
    // The data block gives the map back exactly.
    const block = /<script type="application\/json" id="[^"]+">([^<]*)<\/script>/.exec(html);
    const data = JSON.parse(block![1]!) as ViewerPageData;
    expect(data.map.title).toBe(HOSTILE_TITLE);
    expect((data.map.data as { locations: Array<{ description?: string }> }).locations[0]!.description).toContain('<p>Fresh <strong>bread</strong></p>');
    // The prefetch script is for pages without the map in them.
    expect(html).not.toContain('viewer-prefetch.js');
    // A map too small to cluster preloads the canvas's code, not the clustering code; each file is there.
    const preloads = [...html.matchAll(/<link rel="modulepreload" crossorigin href="(\/assets\/[^"]+\.js)">/g)].map((match) => match[1]!);
    expect(preloads.some((href) => href.includes('/interactive-'))).toBe(true);
    expect(preloads.some((href) => /\/(cluster-control|clustering)-/.test(href))).toBe(false);
    for (const href of preloads) expect((await fetch(`${server.url}${href}`)).status, href).toBe(200);
  });

  it('with JavaScript off, shows the map and its directory', async () => {
    for (const width of [1280, 375]) {
      const { context, page } = await open(`/m/${mapId}`, { javaScript: false, width });
      const floor = page.locator('.mf-static__floor');
      await expect.poll(() => floor.evaluate((image) => (image as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
      const box = (await floor.boundingBox())!;
      expect(box.width).toBeGreaterThan(width < 500 ? 300 : 600);
      // Every marker inside the floor's box, on screen.
      for (const marker of await page.locator('.mf-static__marker').all()) {
        const at = (await marker.boundingBox())!;
        expect(at.x + at.width / 2).toBeGreaterThan(box.x - 1);
        expect(at.x + at.width / 2).toBeLessThan(box.x + box.width + 1);
      }
      await expect.poll(() => page.locator('.mf-item__title').allTextContents()).toEqual(['Bäckerei </script> Müller', 'Blossom Florist', 'Café Lumière', 'Page Turner Books', 'Sakura Sushi']);
      expect(await page.getByText('Sakura Sushi').isVisible()).toBe(true);
      // The bookshop's region in its group's tint, drawn by the server over the floor's image
      // where the drawing has it (x 40 to 240 of 1000).
      const region = page.locator('.mf-static__regions rect');
      expect(await region.getAttribute('fill')).toBe(tint('#2563eb', REGION_TINT.fill));
      const drawn = (await region.boundingBox())!;
      expect(Math.abs(drawn.x - (box.x + box.width * 0.04))).toBeLessThan(2);
      expect(Math.abs(drawn.width - box.width * 0.2)).toBeLessThan(2);
      await shoot(page, `viewer-ssr-nojs-${width}`);
      await context.close();
    }
  });

  it('with JavaScript on, hydrates the server’s nodes without a mismatch, and works', async () => {
    for (const width of [1280, 375]) {
      const { context, page, problems } = await open(`/m/${mapId}`, { javaScript: true, width });
      await page.waitForFunction(() => (window as { __mapfoldViewerReady?: number }).__mapfoldViewerReady);
      // Hydrated: the server's elements are the ones on the page (a mismatch re-renders them).
      expect(await page.evaluate(() => (window as { __ssrNodes?: Element[] }).__ssrNodes!.length)).toBeGreaterThan(3);
      // (On a phone the sidebar then gives way to the top bar and its sheet: checked on the desktop.)
      if (width === 1280) expect(await page.evaluate(() => (window as { __ssrNodes?: Element[] }).__ssrNodes!.every((node) => node.isConnected))).toBe(true);
      // The canvas took over from the HTML markers.
      await expect.poll(() => page.locator('.mf-static').count()).toBe(0);
      await shoot(page, `viewer-ssr-js-${width}`);

      if (width === 1280) {
        // Search filters the directory; a pick opens the details with the description sanitised.
        await page.getByRole('searchbox', { name: 'Search locations' }).fill('lumiere');
        await expect.poll(() => page.locator('.mf-item__title').allTextContents()).toEqual(['Café Lumière']);
        await page.locator('.mf-item').first().click();
        const dialog = page.getByRole('dialog', { name: 'Café Lumière' });
        await dialog.waitFor();
        await expect.poll(() => dialog.locator('strong').textContent()).toBe('bread');
        await page.getByRole('searchbox', { name: 'Search locations' }).fill('');
        await dialog.getByRole('button', { name: 'Close' }).click();
        // A marker on the canvas, where the camera puts layer point (640, 300): Sakura Sushi.
        const point = await page.locator('.mf-world').evaluate((world, [x, y]) => {
          const match = /translate\(([-\d.e]+)px, ([-\d.e]+)px\) scale\(([\d.e-]+)\)/.exec((world as HTMLElement).style.transform)!;
          const viewport = world.parentElement!.getBoundingClientRect();
          return { x: viewport.left + Number(match[1]) + x! * Number(match[3]), y: viewport.top + Number(match[2]) + y! * Number(match[3]) };
        }, [640, 300]);
        await page.mouse.click(point.x, point.y - 16);
        await page.getByRole('dialog', { name: 'Sakura Sushi' }).waitFor();
      } else {
        // The phone's layout follows hydration: the directory is behind the top bar.
        await page.getByRole('button', { name: /Search 5 locations/ }).click();
        await page.getByRole('dialog', { name: 'Directory' }).getByRole('button', { name: /Sakura Sushi/ }).click();
        await page.getByRole('dialog', { name: 'Sakura Sushi' }).waitFor();
      }
      expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned ?? null)).toBeNull();
      expect(problems).toEqual([]);
      await context.close();
    }
  });

  it('applies a group chip pressed before the directory hydrated', async () => {
    // Given the page with its directory's chunk held back (the rest hydrates), as on a slow line
    const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
    });
    let asked!: () => void;
    const held = new Promise<void>((resolve) => (asked = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/hydrated-later-[^/]+\.js$/, async (route) => {
      asked();
      await released;
      await route.continue();
    });
    await page.goto(`/m/${mapId}`);
    // (The viewer's entry has run, listening for chips, once it asks for the directory's chunk.)
    await held;
    const chips = page.getByRole('group', { name: 'Filter by group' });
    const shops = chips.getByRole('button', { name: 'Shops' });
    // When the visitor presses "Shops" before the directory hydrated
    await shops.click();
    // Then the chip shows it pressed at once
    expect(await shops.getAttribute('aria-pressed')).toBe('true');
    expect(await page.locator('.mf-item__title').count()).toBe(5);
    // And once the directory's chunk arrives, the filter applies: the shops alone, the chip still pressed
    release();
    await expect.poll(() => page.locator('.mf-item__title').allTextContents()).toEqual(['Blossom Florist', 'Page Turner Books']);
    expect(await shops.getAttribute('aria-pressed')).toBe('true');
    expect(await chips.getByRole('button', { name: 'Food & drink' }).getAttribute('aria-pressed')).toBe('false');
    // And from then on the viewer has the chips: pressing it again shows everything
    await shops.click();
    await expect.poll(() => page.locator('.mf-item__title').count()).toBe(5);
    expect(await shops.getAttribute('aria-pressed')).toBe('false');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('opens the location the address names once hydrated', async () => {
    const { context, page, problems } = await open(`/m/${mapId}?location=sushi`, { javaScript: true, width: 1280 });
    await page.getByRole('dialog', { name: 'Sakura Sushi' }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('renders 2,000 locations readable without JavaScript, as clusters with their counts, and hydrates them', async () => {
    const html = await (await fetch(`${server.url}/m/${bigMapId}`)).text();
    // Many points: their clusters at the opening view and the markers left alone, every location counted once.
    // The hydration's first chunks come with the page's own: the canvas's and the clustering code.
    // A chunk's file is its name, '-' and an 8-character hash that may itself start with '-' (interactive--Mz2WZ8s.js).
    const preloads = [...html.matchAll(/<link rel="modulepreload" crossorigin href="\/assets\/([a-z-]+?)-[\w-]{8}\.js">/g)].map((match) => match[1]);
    expect(preloads).toEqual(expect.arrayContaining(['preact', 'viewer-core', 'interactive', 'marker-layer', 'cluster-control', 'clustering']));
    const alone = html.match(/class="mf-static__marker /g)?.length ?? 0;
    const clustered = [...html.matchAll(/class="mf-static__cluster"[^>]* data-count="(\d+)"/g)].map((match) => Number(match[1]));
    expect(clustered.length).toBeGreaterThan(5);
    expect(alone + clustered.reduce((sum, count) => sum + count, 0)).toBe(2000);
    // The directory's first rows; without JavaScript, the first 500 and how many more.
    expect(html).toContain('<span class="mf-item__title">Unit 0001</span>');
    // (Counts as the page's language writes them: English groups thousands, Spanish not below 10,000.)
    expect(html).toContain('… and 1,500 more');
    const spanish = await (await fetch(`${server.url}/m/${bigMapId}?lang=es`)).text();
    expect(spanish).toContain('… y 1500 más');
    expect(spanish).toMatch(/class="mf-static__cluster"[^>]* title="\d+ lugares">/);
    for (const javaScript of [false, true]) {
      for (const width of [1280, 375]) {
        const { context, page, problems } = await open(`/m/${bigMapId}`, { javaScript, width, countMarkerDraws: true });
        if (javaScript) {
          await page.waitForFunction(() => (window as { __mapfoldViewerReady?: number }).__mapfoldViewerReady);
          // The canvas's first drawing is the clusters, as the server's page showed them: never
          // its 2,000 markers unclustered first (each drawn by drawImage from its sprite).
          const drawnBeforeReady = await page.evaluate(() => (window as { __drawsAtReady?: number }).__drawsAtReady ?? -1);
          expect(drawnBeforeReady).toBeGreaterThan(0);
          expect(drawnBeforeReady).toBeLessThan(clustered.length + alone + 50);
        } else await page.locator('.mf-list--long .mf-item__title').first().waitFor();
        await shoot(page, `viewer-ssr-2000-${javaScript ? 'js' : 'nojs'}-${width}`);
        expect(problems).toEqual([]);
        await context.close();
      }
    }
  }, 120_000);
  it('before its script: opens at the map\'s own view, offers no button that needs the script, and leaves out labels with no room on a phone', async () => {
    // Given a map that opens zoomed in twice on the café, on two floors, with labels side by side
    const owner = await registerUser(server);
    const base = documentWith(planUrl);
    const crowded = ['Sunrise Pharmacy', 'Tech Repair Hub', 'Green Basket Market'].map((title, i) => ({ id: `shop${i}`, title, layer: 'ground', marker: 'label', groups: ['shops'], position: { x: 330 + i * 40, y: 330 } }));
    const viewId = await publish(server, owner, 'Harbour Market, upstairs too', {
      ...base,
      settings: { ...base.settings, initialView: { x: 400, y: 300, zoom: 2 } },
      layers: [...base.layers, { id: 'upper', name: 'Upper floor', file: null }],
      locations: [...base.locations, ...crowded],
    });
    for (const width of [375, 1280]) {
      // When its page is shown without JavaScript
      const { context, page } = await open(`/m/${viewId}`, { javaScript: false, width });
      try {
        const stage = (await page.locator('.mf-static').boundingBox())!;
        const box = (await page.locator('.mf-static__box').boundingBox())!;
        const fitted = Math.min(stage.width, (stage.height * 1000) / 600);
        // Then the layer is shown at twice its fitted size, the café (400, 300) in the middle
        // where the layer is larger than the stage, the layer's edge kept at the stage's edge
        expect(box.width).toBeCloseTo(fitted * 2, 0);
        const cafe = { x: box.x + (400 / 1000) * box.width, y: box.y + (300 / 600) * box.height };
        if (box.width > stage.width) expect(Math.abs(cafe.x - (stage.x + stage.width / 2))).toBeLessThan(2);
        if (box.height > stage.height) expect(Math.abs(cafe.y - (stage.y + stage.height / 2))).toBeLessThan(2);
        expect(box.x).toBeLessThanOrEqual(stage.x + 1);
        // And the floor and zoom buttons, which need the script, are not offered
        expect(await page.getByRole('group', { name: 'Layers' }).count()).toBe(0);
        expect(await page.getByRole('button', { name: 'Zoom in' }).count()).toBe(0);
        await shoot(page, `first-paint-view-${width}-no-js`);
        // And on a phone no two labels shown overlap (some are left out for it, as the canvas does)
        if (width !== 375) continue;
        const labels = await page.locator('.mf-static__marker--label').evaluateAll((nodes) =>
          nodes.filter((node) => node.getBoundingClientRect().width > 0).map((node) => {
            const { left, top, right, bottom } = node.getBoundingClientRect();
            return { text: node.textContent, left, top, right, bottom };
          }),
        );
        for (const [i, a] of labels.entries()) {
          for (const b of labels.slice(i + 1)) {
            const overlap = a.left < b.right && a.right > b.left && a.top < b.bottom && a.bottom > b.top;
            expect(overlap, `${width}: ${a.text} over ${b.text}`).toBe(false);
          }
        }
      } finally {
        await context.close();
      }
    }
    // And with JavaScript the buttons are there once hydrated
    const { context, page } = await open(`/m/${viewId}`, { javaScript: true, width: 1280 });
    try {
      await page.getByRole('group', { name: 'Layers' }).getByRole('button', { name: 'Upper floor' }).waitFor();
      await page.getByRole('button', { name: 'Zoom in' }).waitFor();
    } finally {
      await context.close();
    }
  }, 120_000);
});
