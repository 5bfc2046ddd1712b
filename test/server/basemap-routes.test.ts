/**
 * The basemap served by the app (issue 29 item 2), over real HTTP: the embedded archive with
 * Range requests and its CDN and CORS headers, read back by the `pmtiles` package's own HTTP
 * reader as MapLibre's protocol would; the style, valid by MapLibre's style spec, in each theme
 * and language; BASEMAP_URL pointing at another archive or at a style.
 */
import { readFileSync } from 'node:fs';
import { VectorTile } from '@mapbox/vector-tile';
import { validateStyleMin, type StyleSpecification, type VectorSourceSpecification } from '@maplibre/maplibre-gl-style-spec';
import { PbfReader } from 'pbf';
import { FetchSource, PMTiles } from 'pmtiles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBEDDED_ARCHIVE_FILE } from '../../server/basemap/embedded-archive.js';
import { BASEMAP_FONTS_DIR } from '../../server/basemap/basemap-assets.js';
import { basemapOrigins } from '../../server/basemap/basemap-style.js';
import { parseBasemapUrl, loadConfig } from '../../server/config.js';
import { pgliteTarget } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { featuresAt, readArchive, tileAt } from '../support/basemap-tiles.js';

const archive = readFileSync(EMBEDDED_ARCHIVE_FILE);
const SIZE = archive.length;

describe('the embedded basemap over HTTP', () => {
  let server: TestServer;
  let hashedUrl: string;
  beforeAll(async () => {
    server = await startTestServer(pgliteTarget);
    const style = (await (await fetch(`${server.url}/basemap/style.json`)).json()) as StyleSpecification;
    const source = style.sources.protomaps as VectorSourceSpecification;
    // The style names the archive by PUBLIC_URL; the test server listens elsewhere.
    hashedUrl = `${server.url}${new URL(source.url!.replace(/^pmtiles:\/\//, '')).pathname}`;
  });
  afterAll(() => server?.close());

  it('names the archive by its content hash, and serves it whole with CDN and CORS headers', async () => {
    expect(hashedUrl).toMatch(/\/basemap\/world\.[0-9a-f]{12}\.pmtiles$/);
    const response = await fetch(hashedUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(response.headers.get('content-type')).toBe('application/vnd.pmtiles');
    expect(response.headers.get('content-length')).toBe(String(SIZE));
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('etag')).toMatch(/^"[0-9a-f]{12}"$/);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-expose-headers')).toMatch(/Content-Range/);
    expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(Buffer.from(await response.arrayBuffer()).equals(archive)).toBe(true);
  });

  it('answers a byte range with 206 and Content-Range, a suffix range with the last bytes', async () => {
    const header = await fetch(hashedUrl, { headers: { range: 'bytes=0-126' } });
    expect(header.status).toBe(206);
    expect(header.headers.get('content-range')).toBe(`bytes 0-126/${SIZE}`);
    expect(header.headers.get('content-length')).toBe('127');
    const bytes = Buffer.from(await header.arrayBuffer());
    expect(bytes.subarray(0, 7).toString('latin1')).toBe('PMTiles');
    expect(bytes[7]).toBe(3);

    const tail = await fetch(hashedUrl, { headers: { range: 'bytes=-10' } });
    expect(tail.status).toBe(206);
    expect(tail.headers.get('content-range')).toBe(`bytes ${SIZE - 10}-${SIZE - 1}/${SIZE}`);
    expect(Buffer.from(await tail.arrayBuffer()).equals(archive.subarray(SIZE - 10))).toBe(true);

    const open = await fetch(hashedUrl, { headers: { range: `bytes=${SIZE - 5}-` } });
    expect(open.status).toBe(206);
    expect((await open.arrayBuffer()).byteLength).toBe(5);

    const past = await fetch(hashedUrl, { headers: { range: `bytes=100-${SIZE + 1000}` } });
    expect(past.status).toBe(206);
    expect(past.headers.get('content-range')).toBe(`bytes 100-${SIZE - 1}/${SIZE}`);
    // Its 8 MB unread would keep the server writing, and the server's close waiting for it
    // (a fresh-clone CI run's afterAll timed out so): the body is let go.
    await past.body?.cancel();
  });

  it('answers 416 with the size for a range past the end or a malformed one', async () => {
    for (const range of [`bytes=${SIZE}-`, `bytes=${SIZE + 10}-${SIZE + 20}`, 'bytes=abc', 'bytes=9-3', 'bytes=0-1,5-9', 'bytes=-0']) {
      const response = await fetch(hashedUrl, { headers: { range } });
      expect(response.status, range).toBe(416);
      expect(response.headers.get('content-range'), range).toBe(`bytes */${SIZE}`);
    }
    // A unit other than bytes is ignored (RFC 9110): the whole file.
    const lines = await fetch(hashedUrl, { method: 'HEAD', headers: { range: 'lines=1-2' } });
    expect(lines.status).toBe(200);
  });

  it('revalidates by ETag (304) and sends the whole file when If-Range names another version', async () => {
    const etag = (await fetch(hashedUrl, { method: 'HEAD' })).headers.get('etag')!;
    const notModified = await fetch(hashedUrl, { headers: { 'if-none-match': etag } });
    expect(notModified.status).toBe(304);
    const stale = await fetch(hashedUrl, { headers: { range: 'bytes=0-9', 'if-range': '"000000000000"' } });
    expect(stale.status).toBe(200);
    expect(stale.headers.get('content-length')).toBe(String(SIZE));
    await stale.arrayBuffer();
    const current = await fetch(hashedUrl, { headers: { range: 'bytes=0-9', 'if-range': etag } });
    expect(current.status).toBe(206);
    await current.arrayBuffer();
  });

  it('serves the stable name with a short cache, refuses other hashes and names, and answers the preflight', async () => {
    const stable = await fetch(`${server.url}/basemap/world.pmtiles`, { headers: { range: 'bytes=0-6' } });
    expect(stable.status).toBe(206);
    expect(stable.headers.get('cache-control')).toBe('public, max-age=300');
    await stable.arrayBuffer();
    for (const path of ['/basemap/world.000000000000.pmtiles', '/basemap/other.pmtiles', '/basemap/world.json', '/basemap/..%2Fpackage.json']) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(404);
      await response.arrayBuffer();
    }
    const preflight = await fetch(hashedUrl, { method: 'OPTIONS', headers: { origin: 'https://shop.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'range' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Range/);
  });

  it('is read by the pmtiles package over HTTP, as MapLibre reads it: Paris at zoom 8', async () => {
    const reader = new PMTiles(new FetchSource(hashedUrl));
    const header = await reader.getHeader();
    expect([header.minZoom, header.maxZoom]).toEqual([0, 8]);
    const [z, x, y] = tileAt(2.3522, 48.8566, 8);
    const tile = await reader.getZxy(z, x, y);
    const layers = new VectorTile(new PbfReader(new Uint8Array(tile!.data))).layers;
    expect(Object.keys(layers).sort()).toEqual(['earth', 'places']);
    const names = Array.from({ length: layers.places!.length }, (_, i) => layers.places!.feature(i).properties.name);
    expect(names).toContain('Paris');
  });
});

describe('the basemap style', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(pgliteTarget, { env: { PUBLIC_URL: 'https://maps.example.com' } });
  });
  afterAll(() => server?.close());

  async function styleOf(query: string): Promise<{ response: Response; style: StyleSpecification }> {
    const response = await fetch(`${server.url}/basemap/style.json${query}`);
    expect(response.status).toBe(200);
    return { response, style: (await response.json()) as StyleSpecification };
  }

  it('is a valid MapLibre style in light and dark, over the embedded archive at PUBLIC_URL, with Natural Earth credited', async () => {
    const backgrounds = new Set<unknown>();
    for (const theme of ['light', 'dark']) {
      const { response, style } = await styleOf(`?theme=${theme}&lang=en`);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.headers.get('cache-control')).toBe('public, max-age=300');
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(validateStyleMin(style)).toEqual([]);
      const source = style.sources.protomaps as VectorSourceSpecification;
      expect(source.url).toMatch(/^pmtiles:\/\/https:\/\/maps\.example\.com\/basemap\/world\.[0-9a-f]{12}\.pmtiles$/);
      expect(source.attribution).toContain('Made with Natural Earth');
      // Fonts and icons are this server's own (nothing fetched from a third party).
      expect(style.glyphs).toBe('https://maps.example.com/basemap/fonts/{fontstack}/{range}.pbf');
      expect(style.sprite).toBe(`https://maps.example.com/basemap/sprites/v4/${theme}`);
      const layerIds = style.layers.map((layer) => layer.id);
      for (const id of ['background', 'earth', 'boundaries_country', 'places_country', 'places_locality']) expect(layerIds).toContain(id);
      backgrounds.add(style.layers.find((layer) => layer.id === 'background')?.paint);
    }
    expect(backgrounds.size).toBe(2);
  });

  it("labels in the viewer's language: country names from name:fr, then name:en", async () => {
    const french = JSON.stringify((await styleOf('?theme=light&lang=fr')).style.layers.find((layer) => layer.id === 'places_country'));
    expect(french).toContain('name:fr');
    const japanese = JSON.stringify((await styleOf('?lang=ja')).style.layers.find((layer) => layer.id === 'places_country'));
    expect(japanese).toContain('name:ja');
    const regional = JSON.stringify((await styleOf('?lang=pt-BR')).style.layers.find((layer) => layer.id === 'places_country'));
    expect(regional).toContain('name:pt');
  });

  it('refuses an unknown theme or a language that is no language tag', async () => {
    for (const query of ['?theme=neon', '?lang=%3Cscript%3E', '?lang=english-language-please']) {
      const response = await fetch(`${server.url}/basemap/style.json${query}`);
      expect(response.status, query).toBe(400);
      await response.arrayBuffer();
    }
  });
});

/** A glyphs file's range and glyph count (the `fontstack` message of MapLibre's glyph protobuf). */
function glyphStack(bytes: Uint8Array): { name: string; range: string; glyphs: number } {
  const stack = { name: '', range: '', glyphs: 0 };
  new PbfReader(bytes).readFields((tag, _result, outer) => {
    if (tag !== 1) return;
    outer.readMessage((field, _stack, inner) => {
      if (field === 1) stack.name = inner.readString();
      else if (field === 2) stack.range = inner.readString();
      else if (field === 3) stack.glyphs++; // left unread: readFields skips it
    }, stack);
  }, stack);
  return stack;
}

describe("the basemap's own label fonts and icons", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(pgliteTarget);
  });
  afterAll(() => server?.close());

  const rangeOf = (char: string): string => {
    const start = Math.floor(char.codePointAt(0)! / 256) * 256;
    return `${start}-${start + 255}`;
  };

  function expectShareable(response: Response, what: string): void {
    expect(response.headers.get('cache-control'), what).toBe('public, max-age=86400');
    expect(response.headers.get('access-control-allow-origin'), what).toBe('*');
    expect(response.headers.get('cross-origin-resource-policy'), what).toBe('cross-origin');
    expect(response.headers.get('etag'), what).toMatch(/^"[0-9a-f]{16}"$/);
  }

  it("serves the glyphs of the archive's names: Paris's Latin and Japan's Japanese name, from the stack's first kept font", async () => {
    const japan = (await featuresAt(readArchive(EMBEDDED_ARCHIVE_FILE), tileAt(138, 36, 2))).places!.find((place) => place.properties.iso_a2 === 'JP')!;
    const japanese = String(japan.properties['name:ja']);
    expect(japanese).toBe('日本');
    for (const [stack, range, font] of [
      ['Noto Sans Regular', rangeOf('P'), 'Noto Sans Regular'],
      ['Noto Sans Medium', rangeOf(japanese[0]!), 'Noto Sans Medium'],
      // A stack's first member that is kept; the Devanagari stack is Regular's files (as upstream).
      ['Arial Unicode MS Bold,Noto Sans Medium', '0-255', 'Noto Sans Medium'],
      ['Noto Sans Devanagari Regular v1', '2304-2559', null],
      ['Noto Sans Devanagari Regular v1', rangeOf('ا'), 'Noto Sans Regular'],
    ] as const) {
      const response = await fetch(`${server.url}/basemap/fonts/${encodeURIComponent(stack)}/${range}.pbf`);
      if (font === null) {
        expect(response.status, `${stack} ${range}`).toBe(404);
        continue;
      }
      expect(response.status, `${stack} ${range}`).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/x-protobuf');
      expectShareable(response, `${stack} ${range}`);
      const body = new Uint8Array(await response.arrayBuffer());
      expect(Number(response.headers.get('content-length'))).toBe(body.length);
      expect(glyphStack(body).range).toBe(range);
      expect(Buffer.from(body).equals(readFileSync(`${BASEMAP_FONTS_DIR}/${font}/${range}.pbf`))).toBe(true);
      const again = await fetch(`${server.url}/basemap/fonts/${encodeURIComponent(stack)}/${range}.pbf`, { headers: { 'if-none-match': response.headers.get('etag')! } });
      expect(again.status).toBe(304);
    }
    // Latin letters are really there (Japanese ideographs are the browser's own fonts' in MapLibre).
    const latin = new Uint8Array(await (await fetch(`${server.url}/basemap/fonts/Noto%20Sans%20Regular/0-255.pbf`)).arrayBuffer());
    expect(glyphStack(latin).glyphs).toBeGreaterThan(150);
  });

  it('answers 404 with an empty body for a range not kept, a malformed range, an unknown stack and any path trick', async () => {
    for (const path of [
      '/basemap/fonts/Noto%20Sans%20Regular/3584-3839.pbf', // Thai: no name in the archive is Thai
      '/basemap/fonts/Noto%20Sans%20Regular/0-511.pbf',
      '/basemap/fonts/Noto%20Sans%20Regular/1-256.pbf',
      '/basemap/fonts/Noto%20Sans%20Regular/0-255.json',
      '/basemap/fonts/Comic%20Sans/0-255.pbf',
      '/basemap/fonts/..%2F..%2Fpackage.json/0-255.pbf',
      '/basemap/fonts/..%2Fsprites%2Fv4%2Flight.json/0-255.pbf',
      '/basemap/fonts/Noto%20Sans%20Regular/..%2F..%2Fworld.pmtiles',
      '/basemap/fonts/Noto%20Sans%20Regular/%2E%2E%2F0-255.pbf',
      '/basemap/sprites/v4/..%2F..%2Fworld.pmtiles',
      '/basemap/sprites/v4/..%2F..%2F..%2Fpackage.json',
      '/basemap/sprites/v4/grayscale.json',
      '/basemap/sprites/v4/light.svg',
    ]) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).toBe('');
    }
    // A ../ the client does not normalise away: the router answers, never a file outside.
    const raw = await fetch(`${server.url}/basemap/sprites/v4/%2e%2e/%2e%2e/package.json`);
    expect(raw.status).toBe(404);
  });

  it("serves the light and dark icons at 1x and 2x, naming the icons the style's layers use", async () => {
    const style = (await (await fetch(`${server.url}/basemap/style.json?theme=dark`)).json()) as StyleSpecification;
    expect(style.layers.some((layer) => layer.type === 'symbol' && JSON.stringify(layer.layout?.['icon-image'] ?? '').includes('townspot'))).toBe(true);
    for (const theme of ['light', 'dark']) {
      for (const scale of ['', '@2x']) {
        const json = await fetch(`${server.url}/basemap/sprites/v4/${theme}${scale}.json`);
        expect(json.status).toBe(200);
        expect(json.headers.get('content-type')).toMatch(/^application\/json/);
        expectShareable(json, `${theme}${scale}.json`);
        const icons = (await json.json()) as Record<string, { width: number; height: number; pixelRatio: number }>;
        for (const icon of ['capital', 'townspot', 'arrow']) expect(icons[icon]?.pixelRatio, `${theme}${scale} ${icon}`).toBe(scale ? 2 : 1);
        const png = await fetch(`${server.url}/basemap/sprites/v4/${theme}${scale}.png`);
        expect(png.status).toBe(200);
        expect(png.headers.get('content-type')).toBe('image/png');
        expectShareable(png, `${theme}${scale}.png`);
        expect(Buffer.from(await png.arrayBuffer()).subarray(1, 4).toString('latin1')).toBe('PNG');
      }
    }
  });
});

describe('BASEMAP_URL', () => {
  it('is read as an archive (pmtiles:// or .pmtiles) or else a style; anything else is refused at start-up', () => {
    expect(parseBasemapUrl('pmtiles://https://cdn.example.com/planet.pmtiles')).toEqual({ kind: 'pmtiles', url: 'https://cdn.example.com/planet.pmtiles' });
    expect(parseBasemapUrl('https://cdn.example.com/region/20260101.pmtiles')).toEqual({ kind: 'pmtiles', url: 'https://cdn.example.com/region/20260101.pmtiles' });
    expect(parseBasemapUrl('https://tiles.openfreemap.org/styles/liberty')).toEqual({ kind: 'style', url: 'https://tiles.openfreemap.org/styles/liberty' });
    expect(parseBasemapUrl('https://api.maptiler.com/maps/streets-v2/style.json?key=abc')).toEqual({ kind: 'style', url: 'https://api.maptiler.com/maps/streets-v2/style.json?key=abc' });
    expect(parseBasemapUrl('ftp://example.com/x.pmtiles')).toBeNull();
    expect(parseBasemapUrl('pmtiles://not a url')).toBeNull();
    expect(loadConfig({}).basemap.source).toEqual({ kind: 'embedded' });
    expect(() => loadConfig({ BASEMAP_URL: 'file:///etc/passwd' })).toThrow(/BASEMAP_URL: must be a PMTiles archive/);
    expect(() => loadConfig({ BASEMAP_GLYPHS_URL: 'https://fonts.example.com/fonts.pbf' })).toThrow(/BASEMAP_GLYPHS_URL/);
  });

  it("names the origins a basemap page fetches from, for the viewer's Content-Security-Policy", () => {
    const site = 'https://maps.example.com';
    expect(basemapOrigins(loadConfig({}).basemap, site)).toEqual([]);
    expect(basemapOrigins(loadConfig({ BASEMAP_URL: 'pmtiles://https://tiles.example.net/planet.pmtiles' }).basemap, site)).toEqual(['https://tiles.example.net']);
    expect(basemapOrigins(loadConfig({ BASEMAP_GLYPHS_URL: 'https://fonts.example.org/{fontstack}/{range}.pbf', BASEMAP_SPRITE_URL: 'https://icons.example.org/v4/light' }).basemap, site)).toEqual([
      'https://fonts.example.org',
      'https://icons.example.org',
    ]);
    const own = loadConfig({ BASEMAP_GLYPHS_URL: 'https://maps.example.com/fonts/{fontstack}/{range}.pbf', BASEMAP_URL: 'https://tiles.openfreemap.org/styles/liberty' });
    expect(basemapOrigins(own.basemap, site)).toEqual(['https://tiles.openfreemap.org']);
  });

  it('an archive: the style draws it, credited to OpenStreetMap unless BASEMAP_ATTRIBUTION says otherwise', async () => {
    const server = await startTestServer(pgliteTarget, { env: { BASEMAP_URL: 'https://cdn.example.com/planet.pmtiles' } });
    try {
      const style = (await (await fetch(`${server.url}/basemap/style.json?theme=dark&lang=de`)).json()) as StyleSpecification;
      expect(validateStyleMin(style)).toEqual([]);
      const source = style.sources.protomaps as VectorSourceSpecification;
      expect(source.url).toBe('pmtiles://https://cdn.example.com/planet.pmtiles');
      expect(source.attribution).toContain('© OpenStreetMap contributors');
    } finally {
      await server.close();
    }
    const credited = await startTestServer(pgliteTarget, {
      env: {
        BASEMAP_URL: 'pmtiles://https://cdn.example.com/eu.pmtiles',
        BASEMAP_ATTRIBUTION: '© Example Tiles',
        BASEMAP_GLYPHS_URL: 'https://fonts.example.org/{fontstack}/{range}.pbf',
        BASEMAP_SPRITE_URL: 'https://icons.example.org/v4/light',
      },
    });
    try {
      const style = (await (await fetch(`${credited.url}/basemap/style.json`)).json()) as StyleSpecification;
      expect((style.sources.protomaps as VectorSourceSpecification).attribution).toBe('© Example Tiles');
      expect(style.glyphs).toBe('https://fonts.example.org/{fontstack}/{range}.pbf');
      expect(style.sprite).toBe('https://icons.example.org/v4/light');
    } finally {
      await credited.close();
    }
  });

  it('a style: /basemap/style.json redirects to it', async () => {
    const server = await startTestServer(pgliteTarget, { env: { BASEMAP_URL: 'https://tiles.openfreemap.org/styles/liberty' } });
    try {
      const response = await fetch(`${server.url}/basemap/style.json?theme=light`, { redirect: 'manual' });
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe('https://tiles.openfreemap.org/styles/liberty');
    } finally {
      await server.close();
    }
  });
});
