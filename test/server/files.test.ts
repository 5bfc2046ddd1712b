/**
 * Uploads over HTTP against a real server: the type comes from the content (never the name or
 * the client's content type), SVGs are stored sanitised, refusals say why and store nothing,
 * and stored files are served with the headers that keep them inert.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteTarget } from '../support/databases.js';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

// ---- Small, real images made from bytes -------------------------------------------------

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
/** A valid RGBA PNG of one colour. */
export function png(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 4, 0x80)]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', pixels),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
/** A JPEG's frame header (SOI, JFIF, SOF0) and end: enough for any reader to measure it. */
function jpeg(width: number, height: number): Buffer {
  const jfif = Buffer.from([0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]);
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), jfif, sof, Buffer.from([0xff, 0xd9])]);
}
/** An extended-format WebP (VP8X) header with its canvas size. */
function webp(width: number, height: number): Buffer {
  const vp8x = Buffer.alloc(18);
  vp8x.write('VP8X', 0, 'ascii');
  vp8x.writeUInt32LE(10, 4);
  vp8x.writeUIntLE(width - 1, 12, 3);
  vp8x.writeUIntLE(height - 1, 15, 3);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(4 + vp8x.length);
  return Buffer.concat([Buffer.from('RIFF', 'ascii'), size, Buffer.from('WEBP', 'ascii'), vp8x]);
}

const FLOOR_PLAN = `<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 300" onload="alert(1)">
  <script>alert('stored')</script>
  <g id="rooms"><rect id="room-1" width="100" height="100" onclick="steal()"/><path id="room-2" d="M200 0h100v100h-100z"/></g>
</svg>`;

const UNSUPPORTED = 'This type of file is not supported. Upload an SVG, PNG, JPEG or WebP file.';

describe('uploads and files', () => {
  let server: TestServer;
  let dataDir: string;
  let ana: TestUser;
  let unverified: TestUser;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'mapfold-files-'));
    server = await startTestServer(pgliteTarget, { env: { DATA_DIR: dataDir } });
    ana = await registerUser(server);
    unverified = await registerUser(server, undefined, { verified: false });
  });
  afterAll(async () => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const storedCount = () => {
    try {
      return readdirSync(path.join(dataDir, 'files')).length;
    } catch {
      return 0;
    }
  };

  async function upload(body: Uint8Array | string, options: { user?: TestUser | null; contentType?: string; headers?: Record<string, string> } = {}) {
    const user = options.user === undefined ? ana : options.user;
    const response = await fetch(`${server.url}/api/files`, {
      method: 'POST',
      headers: {
        'content-type': options.contentType ?? 'application/octet-stream',
        ...(user ? { cookie: user.cookie } : {}),
        ...options.headers,
      },
      body: typeof body === 'string' ? body : Buffer.from(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  }

  /** An upload that must be refused with this status and message, storing nothing. */
  async function refused(answer: () => Promise<{ status: number; body: any }>, status: number, name: string, message?: string | RegExp) {
    const before = storedCount();
    const { status: actual, body } = await answer();
    expect(actual).toBe(status);
    expect(body.error.status).toBe(name);
    if (message instanceof RegExp) expect(body.error.message).toMatch(message);
    else if (message) expect(body.error.message).toBe(message);
    expect(storedCount()).toBe(before);
  }

  async function download(url: string, headers: Record<string, string> = {}) {
    const response = await fetch(`${server.url}${url}`, { headers });
    return { response, bytes: Buffer.from(await response.arrayBuffer()) };
  }

  describe('what is accepted', () => {
    it('says what it takes: the limit and the types', async () => {
      const limits = await fetch(`${server.url}/api/files/limits`).then((r) => r.json());
      expect(limits.result).toEqual({ maxBytes: 10 * 1024 * 1024, types: ['image/svg+xml', 'image/png', 'image/jpeg', 'image/webp'] });
    });

    it.each([
      ['PNG', png(3, 2), 'image/png', 3, 2],
      ['JPEG', jpeg(640, 480), 'image/jpeg', 640, 480],
      ['WebP', webp(1024, 768), 'image/webp', 1024, 768],
    ])('a %s: kind image, its size, stored as sent and served back', async (_name, bytes, contentType, width, height) => {
      const answer = await upload(bytes);
      expect(answer.status).toBe(200);
      expect(answer.body.result).toEqual({
        id: expect.stringMatching(/^[\w-]{22}$/),
        url: `/files/${answer.body.result.id}`,
        kind: 'image',
        contentType,
        width,
        height,
        size: bytes.length,
        removed: [],
      });
      const { response, bytes: served } = await download(answer.body.result.url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(contentType);
      expect(served.equals(bytes)).toBe(true);
    });

    it('an SVG: kind svg, its viewBox size, stored sanitised', async () => {
      const answer = await upload(FLOOR_PLAN, { contentType: 'image/svg+xml' });
      expect(answer.status).toBe(200);
      expect(answer.body.result).toMatchObject({ kind: 'svg', contentType: 'image/svg+xml', width: 400, height: 300 });
      const { response, bytes } = await download(answer.body.result.url);
      expect(response.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
      const stored = bytes.toString('utf8');
      expect(stored).not.toMatch(/script|alert|onload|onclick|steal/);
      expect(stored).toContain('id="room-1"');
      expect(stored).toContain('id="room-2"');
      expect(answer.body.result.size).toBe(bytes.length);
      // What went is said, never silently.
      expect(answer.body.result.removed).toEqual([
        { what: 'scripts', count: 1, message: '1 script was removed: a drawing on a map cannot run code.' },
        { what: 'event handlers', count: 2, message: '2 event handlers (onclick and the like) were removed: a drawing on a map cannot run code.' },
      ]);
    });

    it('an SVG with width="100%" and no viewBox (an amCharts map) is measured by what it draws', async () => {
      const amcharts = `<svg xmlns="http://www.w3.org/2000/svg" width="100%" height="100%"><g><path id="US-CO" d="M524.26,297.34L522.11,332.21L393.21,351.89L406.05,262.04z"/><path id="US-CT" d="M1034.84,200.91L1038.24,212.85L1010.11,231.52z"/></g></svg>`;
      const answer = await upload(amcharts, { contentType: 'image/svg+xml' });
      expect(answer.status).toBe(200);
      expect(answer.body.result).toMatchObject({ kind: 'svg', removed: [] });
      expect(answer.body.result.width).toBeCloseTo(1038.24 - 393.21, 1);
      expect(answer.body.result.height).toBeCloseTo(351.89 - 200.91, 1);
      const stored = (await download(answer.body.result.url)).bytes.toString('utf8');
      expect(stored).toMatch(/viewBox="393\.21 200\.91 645\.03 150\.98"/);
    });

    it('the type comes from the content: SVG sent as a PNG is an SVG, a PNG sent as an SVG is a PNG', async () => {
      const svgAsPng = await upload(FLOOR_PLAN, { contentType: 'image/png', headers: { 'x-file-name': 'plan.png' } });
      expect(svgAsPng.body.result).toMatchObject({ kind: 'svg', contentType: 'image/svg+xml' });
      const pngAsSvg = await upload(png(5, 5), { contentType: 'image/svg+xml', headers: { 'x-file-name': 'plan.svg' } });
      expect(pngAsSvg.body.result).toMatchObject({ kind: 'image', contentType: 'image/png', width: 5, height: 5 });
      const asJson = await upload(png(6, 6), { contentType: 'application/json' });
      expect(asJson.body.result).toMatchObject({ kind: 'image', width: 6 });
      const untyped = await fetch(`${server.url}/api/files`, { method: 'POST', headers: { cookie: ana.cookie }, body: new Uint8Array(png(7, 7)) });
      expect((await untyped.json()).result).toMatchObject({ kind: 'image', width: 7 });
    });

    it('an SVG with a UTF-8 byte order mark, or in UTF-16, is read', async () => {
      const bom = await upload(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(FLOOR_PLAN)]));
      expect(bom.body.result).toMatchObject({ kind: 'svg', width: 400 });
      const utf16 = await upload(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(FLOOR_PLAN.replace('<?xml version="1.0"?>', ''), 'utf16le')]));
      expect(utf16.body.result).toMatchObject({ kind: 'svg', width: 400 });
    });
  });

  describe('what is refused', () => {
    it('an HTML page named .svg', async () => {
      const html = '<!DOCTYPE html><html><body><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg></body></html>';
      await refused(() => upload(html, { contentType: 'image/svg+xml', headers: { 'x-file-name': 'map.svg' } }), 400, 'INVALID_ARGUMENT', UNSUPPORTED);
    });

    it('a zip archive, an executable, a PDF, a GIF-less text file', async () => {
      const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(60, 1)]);
      const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]), Buffer.alloc(100)]);
      const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(100, 0x90)]);
      for (const bytes of [zip, elf, exe, Buffer.from('%PDF-1.7\n%...'), Buffer.from('just some notes')]) {
        await refused(() => upload(bytes, { contentType: 'image/png' }), 400, 'INVALID_ARGUMENT', UNSUPPORTED);
      }
    });

    it('an SVG whose XML is broken, or that declares entities, with a message that says so', async () => {
      await refused(() => upload('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><g></svg>'), 400, 'INVALID_ARGUMENT', /not well-formed XML/);
      const lol = '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa">]><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><text>&a;&a;</text></svg>';
      await refused(() => upload(lol), 400, 'INVALID_ARGUMENT', /entities/);
    });

    it('an SVG with too many elements, before any work is done on it', async () => {
      const shapes = Array.from({ length: 50_001 }, (_, i) => `<rect id="r${i}" width="1" height="1"/>`).join('');
      const huge = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">${shapes}</svg>`;
      await refused(() => upload(huge), 400, 'INVALID_ARGUMENT', /too many elements \(50,002; at most 50,000\)/);
    });

    it('a damaged image: a PNG signature with nothing after it', async () => {
      await refused(() => upload(png(2, 2).subarray(0, 12)), 400, 'INVALID_ARGUMENT', 'The PNG image could not be read; the file may be damaged.');
    });

    it('an image too big to draw (a decompression bomb)', async () => {
      await refused(() => upload(png(20_000, 1)), 400, 'INVALID_ARGUMENT', /at most 16384 pixels on a side/);
    });

    it('an empty body, and a multipart form', async () => {
      await refused(() => upload(Buffer.alloc(0)), 400, 'INVALID_ARGUMENT', 'The file is empty.');
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(png(1, 1))]), 'a.png');
      await refused(
        async () => {
          const response = await fetch(`${server.url}/api/files`, { method: 'POST', headers: { cookie: ana.cookie }, body: form });
          return { status: response.status, body: await response.json() };
        },
        400,
        'INVALID_ARGUMENT',
        /not as a form/,
      );
    });

    it('a file over the limit (10 MB), with the limit in the message', async () => {
      const big = Buffer.concat([png(1, 1), Buffer.alloc(10 * 1024 * 1024)]);
      await refused(() => upload(big), 400, 'INVALID_ARGUMENT', 'The file is too large (the limit is 10 MB).');
      // Sent without a length up front (chunked), it is cut off at the limit all the same.
      await refused(
        async () => {
          const response = await fetch(`${server.url}/api/files`, {
            method: 'POST',
            headers: { 'content-type': 'application/octet-stream', cookie: ana.cookie },
            body: new Blob([new Uint8Array(big)]).stream(),
            duplex: 'half',
          } as RequestInit);
          return { status: response.status, body: await response.json() };
        },
        400,
        'INVALID_ARGUMENT',
        'The file is too large (the limit is 10 MB).',
      );
    });

    it('signed out: 401; not verified: 403; from another site: 403', async () => {
      await refused(() => upload(png(1, 1), { user: null }), 401, 'UNAUTHENTICATED', 'Unauthenticated');
      await refused(() => upload(png(1, 1), { user: { uid: 'x', cookie: 'mapfold_session=forged' } }), 401, 'UNAUTHENTICATED');
      await refused(() => upload(png(1, 1), { user: unverified }), 403, 'PERMISSION_DENIED', 'Verify your email address first.');
      await refused(() => upload(png(1, 1), { headers: { origin: 'https://evil.example' } }), 403, 'PERMISSION_DENIED', 'Cross-site request refused.');
    });

    it('a stranger is refused before the body is read: even an oversized one gets 401', async () => {
      await refused(() => upload(Buffer.alloc(11 * 1024 * 1024), { user: null }), 401, 'UNAUTHENTICATED');
    });
  });

  it('keeps answering other requests while a large SVG is being checked (it is checked off the main thread)', async () => {
    const shapes = Array.from({ length: 15_000 }, (_, i) => `<path id="p${i}" class="unit" d="M${i % 900} ${i % 700}h10v10h-10z" onclick="x()"/>`).join('\n');
    const large = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1000 800">${shapes}</svg>`;
    const started = Date.now();
    const uploading = upload(large);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const timings: number[] = [];
    let finished = false;
    void uploading.then(() => (finished = true));
    while (!finished) {
      const asked = Date.now();
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
      timings.push(Date.now() - asked);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const answer = await uploading;
    expect(answer.status).toBe(200);
    expect(answer.body.result).toMatchObject({ kind: 'svg', width: 1000, height: 800 });
    // The check took a while; the health checks during it did not wait for it.
    expect(Date.now() - started).toBeGreaterThan(500);
    expect(timings.length).toBeGreaterThan(1);
    expect(Math.max(...timings)).toBeLessThan(400);
  });

  describe('serving files', () => {
    let svgUrl: string;
    let pngUrl: string;
    beforeAll(async () => {
      svgUrl = (await upload(FLOOR_PLAN)).body.result.url;
      pngUrl = (await upload(png(4, 4))).body.result.url;
    });

    it('an SVG with nosniff, a CSP that allows no script, and a year of caching', async () => {
      const { response } = await download(svgUrl);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      const csp = response.headers.get('content-security-policy')!;
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain('sandbox');
      expect(csp).not.toMatch(/script-src/);
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(response.headers.get('etag')).toBe(`"${svgUrl.split('/').pop()}"`);
    });

    it('an image with nosniff, its own type, and a CSP', async () => {
      const { response } = await download(pngUrl);
      expect(response.headers.get('content-type')).toBe('image/png');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    });

    it('answers 304 to a matching If-None-Match', async () => {
      const etag = (await download(svgUrl)).response.headers.get('etag')!;
      const { response } = await download(svgUrl, { 'if-none-match': etag });
      expect(response.status).toBe(304);
    });

    it('is open to anyone with the address (published maps show their files), and needs no cookie', async () => {
      expect((await fetch(`${server.url}${svgUrl}`)).status).toBe(200);
    });

    it('unknown ids and path traversal attempts are not found', async () => {
      for (const id of ['AAAAAAAAAAAAAAAAAAAAAA', 'nope', '..%2F..%2Fpackage.json', '%2e%2e%2f%2e%2e%2fpackage.json', '..%5C..%5Cpackage.json', `${svgUrl.split('/').pop()}.json`, '.tmp-x']) {
        const response = await fetch(`${server.url}/files/${id}`);
        expect(response.status, id).toBe(404);
        expect((await response.json()).error).toEqual({ status: 'NOT_FOUND', message: 'File not found.' });
      }
      // A raw `..` in the path never reaches a file outside the store either.
      const raw = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const request = httpRequest(`${server.url}/files/../../package.json`, { method: 'GET', path: '/files/../../package.json' }, (response) => {
          let body = '';
          response.on('data', (chunk) => (body += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        });
        request.on('error', reject);
        request.end();
      });
      expect(raw.body).not.toContain('"name": "mapfold"');
      expect(raw.body).not.toContain('dependencies');
    });
  });
});
