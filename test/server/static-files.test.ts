/**
 * The client's built files as browsers and CDNs get them: content-hashed bundles compressed
 * once at build time (brotli or gzip by Accept-Encoding, the same bytes once decompressed) and
 * kept for a year; pages and unhashed files revalidated on each use. Needs the built client
 * (`npm run build`, which `npm test` runs first).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMMUTABLE, REVALIDATE, staticCacheControl } from '../../server/http/static-cache.js';
import { pgliteTarget } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const DIST = path.resolve(import.meta.dirname, '../../dist/client');

/**
 * A GET with exactly these headers and this path, its body as sent (Node's fetch would
 * decompress it). The path is sent as written: a URL string would have `/files/..` folded to `/`.
 */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  const [, origin = '', rawPath = '/'] = /^(https?:\/\/[^/]+)(.*)$/.exec(url) ?? [];
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    request({ hostname, port, path: rawPath, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

describe('the cache rule', () => {
  it('keeps content-hashed bundles a year and revalidates everything else', () => {
    expect(staticCacheControl('assets/index-B2LMfoLA.js')).toBe(IMMUTABLE);
    expect(staticCacheControl('/assets/comments-f073-Xn1.css')).toBe(IMMUTABLE);
    expect(staticCacheControl('assets/inter-latin-wght-normal-Dx4kXJAl.woff2')).toBe(IMMUTABLE);
    expect(staticCacheControl('assets/index-B2LMfoLA.js.br')).toBe(IMMUTABLE);
    expect(staticCacheControl('index.html')).toBe(REVALIDATE);
    expect(staticCacheControl('viewer-prefetch.js')).toBe(REVALIDATE);
    expect(staticCacheControl('favicon.svg')).toBe(REVALIDATE);
    // The demo's drawings keep their names across releases.
    expect(staticCacheControl('assets/demo/riverside-ground.svg')).toBe(REVALIDATE);
    expect(staticCacheControl('assets/img/case-geographic@2x.webp')).toBe(REVALIDATE);
  });
});

describe('built files over HTTP', () => {
  let server: TestServer;
  let bundle: string;
  beforeAll(async () => {
    expect(existsSync(path.join(DIST, 'index.html')), 'build the client first: npm run build').toBe(true);
    bundle = readdirSync(path.join(DIST, 'assets')).find((name) => name.endsWith('.js') && existsSync(path.join(DIST, 'assets', `${name}.br`)))!;
    expect(bundle).toBeDefined();
    server = await startTestServer(pgliteTarget);
  });
  afterAll(() => server?.close());

  it('sends a bundle brotli-compressed, gzip-compressed or plain by Accept-Encoding, the same bytes each way, kept a year', async () => {
    const original = readFileSync(path.join(DIST, 'assets', bundle));
    const url = `${server.url}/assets/${bundle}`;
    const brotli = await rawGet(url, { 'accept-encoding': 'gzip, deflate, br' });
    expect(brotli.status).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['content-type']).toMatch(/javascript/);
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);
    expect(brotli.headers['cache-control']).toBe(IMMUTABLE);
    expect(brotli.body.length).toBeLessThan(original.length);
    expect(brotliDecompressSync(brotli.body).equals(original)).toBe(true);

    const gzip = await rawGet(url, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).equals(original)).toBe(true);

    const plain = await rawGet(url, {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.equals(original)).toBe(true);
    expect(plain.headers['cache-control']).toBe(IMMUTABLE);
  });

  it('revalidates the app page, the viewer’s prefetch script and the demo’s drawings on each use', async () => {
    for (const file of ['/', '/viewer-prefetch.js', '/favicon.svg', '/assets/demo/riverside-ground.svg']) {
      const answer = await rawGet(`${server.url}${file}`, { 'accept-encoding': 'br' });
      expect(answer.status, file).toBe(200);
      expect(answer.headers['cache-control'], file).toBe(REVALIDATE);
    }
  });

  it('sends the landing page whatever Accept-Encoding says, or none (curl and uptime probes send none; it answered 403)', async () => {
    const page = readFileSync(path.join(DIST, 'pages', 'index.html'));
    const cases: { header: string | undefined; coding: string | undefined }[] = [
      { header: undefined, coding: undefined },
      { header: 'identity', coding: undefined },
      { header: 'gzip;q=0', coding: undefined },
      { header: '*', coding: 'gzip' },
      { header: 'br', coding: 'br' },
    ];
    for (const { header, coding } of cases) {
      for (const url of ['/', '/?utm_source=monitor']) {
        const answer = await rawGet(`${server.url}${url}`, header === undefined ? {} : { 'accept-encoding': header });
        const label = `${url} with ${header ?? 'no Accept-Encoding'}`;
        expect(answer.status, label).toBe(200);
        expect(answer.headers['content-type'], label).toMatch(/^text\/html/);
        expect(answer.headers['content-encoding'], label).toBe(coding);
        const body = coding === 'br' ? brotliDecompressSync(answer.body) : coding === 'gzip' ? gunzipSync(answer.body) : answer.body;
        expect(body.equals(page), label).toBe(true);
      }
    }
  });

  it('answers a path that climbs out of the files with a 4xx in the catalogue’s shape, never a 500 (the fuzz suite found GET /files/.. answered 500)', async () => {
    for (const url of ['/files/..', '/assets/..', '/files/%2e%2e']) {
      const answer = await rawGet(`${server.url}${url}`, {});
      expect(answer.status, url).toBeGreaterThanOrEqual(400);
      expect(answer.status, url).toBeLessThan(500);
      if (String(answer.headers['content-type']).startsWith('application/json')) {
        expect(JSON.parse(answer.body.toString()), url).toMatchObject({ error: { status: expect.any(String), message: expect.any(String) } });
      }
    }
  });
});
