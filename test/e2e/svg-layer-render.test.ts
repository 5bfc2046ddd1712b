/**
 * A floor's SVG as the editor and the viewer draw it (client/src/components/map/svg-layer.ts,
 * DOMPurify in a shadow root under the app's Content-Security-Policy), in Chromium: shapes
 * drawn with `<use>` and areas filled with a `<pattern>` (tiled with a `<use>` or an embedded
 * picture) have painted pixels. They used to vanish: DOMPurify's SVG profile drops `<use>`.
 */
import { build } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sanitizeSvg } from '../../server/files/sanitize-svg.js';
import { CHROMIUM } from '../support/browser.js';

const RED_PIXEL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** Four squares of 100 × 100, left to right: a <use> of a symbol, a <use> of a shape, a pattern of <use>s, a pattern of a picture. */
const DRAWING = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 400 100">
  <defs>
    <symbol id="dot" viewBox="0 0 10 10"><circle cx="5" cy="5" r="5" fill="#0000ff"/></symbol>
    <rect id="tile" width="100" height="100" fill="#00aa00"/>
    <pattern id="dots" width="20" height="20" patternUnits="userSpaceOnUse"><use href="#dot" width="20" height="20"/></pattern>
    <pattern id="picture" width="10" height="10" patternUnits="userSpaceOnUse"><image width="10" height="10" href="${RED_PIXEL}"/></pattern>
  </defs>
  <use id="by-symbol" href="#dot" x="0" y="0" width="100" height="100"/>
  <use id="by-shape" xlink:href="#tile" x="100" y="0"/>
  <rect id="dotted" x="200" y="0" width="100" height="100" fill="url(#dots)"/>
  <rect id="pictured" x="300" y="0" width="100" height="100" fill="url(#picture)"/>
</svg>`;

/** The pages' own policy (server/security/security-headers.ts), as far as a drawing is concerned. */
const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; img-src 'self' data:";

describe('SVG layers in Chromium', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    const bundle = await build({ entryPoints: ['client/src/components/map/svg-layer.ts'], bundle: true, format: 'iife', globalName: 'SvgLayer', write: false, logLevel: 'silent' });
    const script = bundle.outputFiles[0]!.text;
    // Stored as an upload is: through the server's sanitiser first.
    const stored = sanitizeSvg(DRAWING).svg;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
    page = await browser.newPage({ viewport: { width: 400, height: 100 } });
    await page.route('http://mapfold.test/**', (route) => {
      const url = route.request().url();
      if (url.endsWith('/files/plan')) return route.fulfill({ body: stored, contentType: 'image/svg+xml' });
      if (url.endsWith('/svg-layer.js')) return route.fulfill({ body: script, contentType: 'text/javascript' });
      return route.fulfill({
        contentType: 'text/html',
        headers: { 'content-security-policy': CSP },
        body: '<!doctype html><html><body style="margin:0;background:#fff"><div id="host" style="width:400px;height:100px"></div><script src="/svg-layer.js"></script></body></html>',
      });
    });
    await page.goto('http://mapfold.test/');
    await page.evaluate(async () => {
      const layer = (window as unknown as { SvgLayer: typeof import('../../client/src/components/map/svg-layer.js') }).SvgLayer;
      const drawing = await layer.fetchSvg('/files/plan');
      layer.mountSvg(document.getElementById('host')!, drawing, { width: 400, height: 100 }, [], { base: '#eeeeee', hover: '#dddddd', active: '#cccccc', accent: '#4f46e5' });
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  /** How many pixels of the square at `x` are close to the colour. */
  async function painted(x: number, [r, g, b]: [number, number, number]): Promise<number> {
    const png = await page.screenshot({ clip: { x, y: 0, width: 100, height: 100 } });
    return page.evaluate(
      async ({ data, colour }) => {
        // Decoded here, not fetched: the page's policy allows no data: fetches.
        const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
        const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
        const context = canvas.getContext('2d')!;
        context.drawImage(bitmap, 0, 0);
        const pixels = context.getImageData(0, 0, bitmap.width, bitmap.height).data;
        let count = 0;
        for (let i = 0; i < pixels.length; i += 4) {
          if (Math.abs(pixels[i]! - colour[0]!) + Math.abs(pixels[i + 1]! - colour[1]!) + Math.abs(pixels[i + 2]! - colour[2]!) < 60) count++;
        }
        return count;
      },
      { data: png.toString('base64'), colour: [r, g, b] },
    );
  }

  it('keeps <use> that points inside the drawing, and drops one that points outside', async () => {
    const drawing = await page.evaluate(async () => {
      const layer = (window as unknown as { SvgLayer: typeof import('../../client/src/components/map/svg-layer.js') }).SvgLayer;
      const local = await layer.fetchSvg('/files/plan');
      return local.markup;
    });
    expect(drawing.match(/<use/g)).toHaveLength(3);
  });

  it('paints a shape drawn with <use> of a symbol and of a shape', async () => {
    expect(await painted(0, [0, 0, 255])).toBeGreaterThan(5000); // a circle of r 50: 7,854 px
    expect(await painted(100, [0, 170, 0])).toBeGreaterThan(9000);
  });

  it('paints areas filled with a pattern tiled with <use>, and with an embedded picture', async () => {
    expect(await painted(200, [0, 0, 255])).toBeGreaterThan(5000); // 25 dots of r 10: 7,854 px
    expect(await painted(300, [255, 0, 0])).toBeGreaterThan(9000);
  });
});
