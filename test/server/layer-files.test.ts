/**
 * Floors take only the product's own files (issue 14, item 8). A floor's drawing on another
 * site would load in every viewer's browser, with its `@import`s and `<image>`s, past the
 * server's SVG sanitiser:
 *
 * - commands refuse it with invalid-argument naming the field;
 * - events recorded before still read, the foreign drawing as none, and no reader hands its
 *   address out (the public map, the editor's data, history);
 * - `POST /api/files/from-url` fetches a drawing once, checks and stores it exactly as an
 *   upload (the SVG sanitised), or refuses with a reason, and never reaches a non-public
 *   address. A local site serves the files: the tests need no internet, and the server under
 *   test allows 127.0.0.1 only through its injected address policy. The default policy is
 *   tested on a server without one.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../events/map-document.js';
import { streams } from '../../events/streams.js';
import { databaseTargets, pgliteTarget } from '../support/databases.js';
import { newEvent } from '../support/events.js';
import { call, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/hostile-svg');
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name));
const TRACKER = 'https://tracker.example/floor.svg';
/** A 1 × 1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const UPLOAD_LIMIT = 64 * 1024;

/** Another site on 127.0.0.1: floor plans, redirects, errors, a file too large, one that never comes. */
async function startOtherSite() {
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  let port = 0;
  const send = (response: ServerResponse, status: number, type: string, body: Buffer | string, headers: Record<string, string> = {}) => {
    response.writeHead(status, { 'content-type': type, ...headers });
    response.end(body);
  };
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = request.url ?? '/';
    requests.push(url);
    const hops = /^\/hops\/(\d+)$/.exec(url);
    if (hops) {
      const left = Number(hops[1]);
      if (left === 0) return send(response, 200, 'image/png', PNG);
      return send(response, 302, 'text/plain', '', { location: `/hops/${left - 1}` });
    }
    if (url.startsWith('/fixtures/')) return send(response, 200, 'image/svg+xml', fixture(path.basename(url)));
    switch (url) {
      case '/plan.png':
        return send(response, 200, 'image/png', PNG);
      case '/plan.svg.gz':
        return send(response, 200, 'image/svg+xml', gzipSync(fixture('benign-floor-plan.svg')), { 'content-encoding': 'gzip' });
      case '/to-private':
        return send(response, 302, 'text/plain', '', { location: 'http://10.0.0.1/plan.png' });
      case '/to-ipv6-loopback':
        return send(response, 301, 'text/plain', '', { location: `http://[::1]:${port}/plan.png` });
      case '/to-inside-name':
        return send(response, 307, 'text/plain', '', { location: `http://inside.test:${port}/plan.png` });
      case '/page.html':
        return send(response, 200, 'text/html', '<!doctype html><title>Not a floor</title><p>Hello</p>');
      case '/missing.svg':
        return send(response, 404, 'text/plain', 'no such file');
      case '/big.svg': {
        // No Content-Length: the limit must hold while reading.
        response.writeHead(200, { 'content-type': 'image/svg+xml' });
        response.write('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">');
        const comment = `<!-- ${'x'.repeat(16 * 1024)} -->`;
        for (let i = 0; i < 64; i++) response.write(comment);
        return response.end('</svg>');
      }
      case '/big-declared.png':
        return send(response, 200, 'image/png', Buffer.concat([PNG, Buffer.alloc(UPLOAD_LIMIT * 2)]));
      case '/never':
        return; // Never answers.
      default:
        return send(response, 404, 'text/plain', 'no such file');
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

type OtherSite = Awaited<ReturnType<typeof startOtherSite>>;

async function fromUrl(server: TestServer, url: unknown, user?: TestUser) {
  const response = await fetch(`${server.url}/api/files/from-url`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(user ? { cookie: user.cookie } : {}) },
    body: JSON.stringify({ data: { url } }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

async function upload(server: TestServer, bytes: Buffer, user: TestUser) {
  const response = await fetch(`${server.url}/api/files`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream', cookie: user.cookie },
    body: new Uint8Array(bytes),
  });
  return { status: response.status, body: (await response.json()) as any };
}

const download = async (server: TestServer, url: string) => (await fetch(`${server.url}${url}`)).text();

describe('a floor drawing from a web address: fetched once, stored like an upload', () => {
  let server: TestServer;
  let site: OtherSite;
  let dataDir: string;
  let ana: TestUser;

  beforeAll(async () => {
    site = await startOtherSite();
    dataDir = mkdtempSync(path.join(tmpdir(), 'mapfold-from-url-'));
    server = await startTestServer(pgliteTarget, {
      env: { DATA_DIR: dataDir, UPLOAD_LIMIT: String(UPLOAD_LIMIT) },
      remoteFiles: {
        // This test's own site is on 127.0.0.1: allowed here, and nothing else that is not public.
        isAllowedAddress: (address) => address === '127.0.0.1',
        // Names only this test knows: the connection must go to the address checked here.
        resolve: async (host) =>
          host === 'floors.test' ? [{ address: '127.0.0.1', family: 4 }] : host === 'inside.test' ? [{ address: '10.0.0.7', family: 4 }] : [],
        timeoutMs: 3_000,
      },
    });
    ana = await registerUser(server);
  });
  afterAll(async () => {
    await server?.close();
    await site?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it.each(['css-import.svg', 'external-image.svg', 'script-element.svg', 'event-handlers.svg'])(
    'stores a sanitised copy of a hostile SVG (%s), byte for byte what an upload of it stores',
    async (name) => {
      const answer = await fromUrl(server, `${site.url}/fixtures/${name}`, ana);
      expect(answer.status).toBe(200);
      expect(answer.body.result).toMatchObject({ url: expect.stringMatching(/^\/files\/[\w-]{22}$/), kind: 'svg', contentType: 'image/svg+xml' });
      const stored = await download(server, answer.body.result.url);
      expect(stored).not.toMatch(/evil\.example|@import|<script|onload|onclick/i);
      expect(stored).toContain('keep-me');
      const uploaded = await upload(server, fixture(name), ana);
      expect(await download(server, uploaded.body.result.url)).toBe(stored);
      expect({ ...answer.body.result, id: null, url: null }).toEqual({ ...uploaded.body.result, id: null, url: null });
    },
  );

  it('stores an image, measured, reached by a name through the address it was checked at', async () => {
    const answer = await fromUrl(server, `http://floors.test:${site.port}/plan.png`, ana);
    expect(answer.status).toBe(200);
    expect(answer.body.result).toMatchObject({ kind: 'image', contentType: 'image/png', width: 1, height: 1, size: PNG.length });
    expect(Buffer.from(await (await fetch(`${server.url}${answer.body.result.url}`)).arrayBuffer())).toEqual(PNG);
  });

  it('follows a few redirects, and reads a compressed answer', async () => {
    expect((await fromUrl(server, `${site.url}/hops/3`, ana)).body.result).toMatchObject({ kind: 'image', width: 1 });
    expect((await fromUrl(server, `${site.url}/plan.svg.gz`, ana)).body.result).toMatchObject({ kind: 'svg', width: 800, height: 500 });
  });

  async function refused(url: string, message: string | RegExp, user: TestUser | null = ana, status = 400) {
    const answer = await fromUrl(server, url, user ?? undefined);
    expect(answer.status).toBe(status);
    if (typeof message === 'string') expect(answer.body.error.message).toBe(message);
    else expect(answer.body.error.message).toMatch(message);
    if (status === 400) expect(answer.body.error.status).toBe('INVALID_ARGUMENT');
  }

  it('checks every hop: a redirect to a non-public address is refused before connecting', async () => {
    await refused(`${site.url}/to-private`, /^The address 10\.0\.0\.1 is not a public one/);
    await refused(`${site.url}/to-ipv6-loopback`, /^The address ::1 is not a public one/);
    await refused(`${site.url}/to-inside-name`, /^The address inside\.test is not a public one \(it points to 10\.0\.0\.7/);
  });

  it('refuses, saying why: too many redirects, not found, an error answer, not an image, too large, too slow, unreachable', async () => {
    await refused(`${site.url}/hops/4`, 'The address redirected more than 3 times.');
    await refused(`http://nowhere.test:${site.port}/plan.png`, 'The address nowhere.test could not be found.');
    await refused(`${site.url}/missing.svg`, `127.0.0.1:${site.port} answered 404 (Not Found) instead of the file.`);
    await refused(`${site.url}/page.html`, 'The file at that address is not an SVG, PNG, JPEG or WebP image.');
    await refused(`${site.url}/big.svg`, 'The file is too large (the limit is 64 KB).');
    await refused(`${site.url}/big-declared.png`, 'The file is too large (the limit is 64 KB).');
    await refused(`${site.url}/never`, `127.0.0.1:${site.port} did not send the file within 3 seconds.`);
    // A port nothing listens on (this one was just closed).
    const closed = await startOtherSite();
    await closed.close();
    await refused(`${closed.url}/plan.png`, new RegExp(`^127\\.0\\.0\\.1:${closed.port} could not be reached \\(ECONNREFUSED\\)\\.$`));
  });

  it('takes web addresses only', async () => {
    await refused('file:///etc/passwd', 'Only http:// and https:// addresses can be fetched.');
    await refused('ftp://example.com/plan.svg', 'Only http:// and https:// addresses can be fetched.');
    await refused('not an address', 'The address is not a web address (give one that starts with https:// or http://).');
    await refused(`http://user:secret@127.0.0.1:${site.port}/plan.png`, 'The address must not hold a user name or password.');
    await refused('', 'url: is required');
    expect((await fromUrl(server, 42, ana)).body.error.message).toBe('url: must be text');
  });

  it('is for signed-in, verified people only, asked before anything is fetched', async () => {
    const before = site.requests.length;
    await refused(`${site.url}/plan.png`, 'Unauthenticated', null, 401);
    const unverified = await registerUser(server, undefined, { verified: false });
    await refused(`${site.url}/plan.png`, 'Verify your email address first.', unverified, 403);
    expect(site.requests.length).toBe(before);
  });
});

const document = (file: unknown = null) => ({
  version: 2,
  settings: { ...defaultSettings(), defaultLayer: 'ground' },
  layers: [{ id: 'ground', name: 'Ground floor', file }],
  locations: [{ id: 'cafe', title: 'Café Noir', layer: 'ground', position: { x: 100, y: 200 } }],
  groups: [],
  styles: { regions: { base: '#e2e8f0', hover: '#c7d2fe', active: '#818cf8' } },
});

describe.each(databaseTargets)("floors take only the product's own files, on $name", (target) => {
  let server: TestServer;
  let site: OtherSite;
  let owner: TestUser;

  beforeAll(async () => {
    site = await startOtherSite();
    server = await startTestServer(target);
    owner = await registerUser(server);
  });
  afterAll(async () => {
    await server?.close();
    await site?.close();
  });

  const FOREIGN = 'must be a file stored by this site (/files/{id}): upload the drawing, or add it from its address with POST /api/files/from-url';
  const foreignFile = { kind: 'svg', url: TRACKER, width: 800, height: 600 };

  async function newMap(title = 'Harbour Market') {
    const created = await call(server, 'createMap', { title, mapData: document() }, owner);
    expect(created.status).toBe(200);
    await projected(server, created.body.position);
    const id = created.body.result as string;
    // Published, so it does not hold one of the owner's two free test slots.
    await server.database.db.query('UPDATE maps_list SET state = 1 WHERE id = $1', [id]);
    return id;
  }

  it('refuses a map whose floor names another site’s drawing, naming the field', async () => {
    const created = await call(server, 'createMap', { title: 'Tracked', mapData: document(foreignFile) }, owner);
    expect(created.status).toBe(400);
    expect(created.body.error).toEqual({ status: 'INVALID_ARGUMENT', message: `mapData.layers.0.file.url: ${FOREIGN}` });

    const id = await newMap();
    const saved = await call(server, 'saveMap', { id, mapData: document(foreignFile), revision: '0' }, owner);
    expect(saved.status).toBe(400);
    expect(saved.body.error).toEqual({ status: 'INVALID_ARGUMENT', message: `mapData.layers.0.file.url: ${FOREIGN}` });

    const edited = await call(server, 'editMap', { id, edits: [{ type: 'LayerFileReplaced', id: 'ground', file: foreignFile }] }, owner);
    expect(edited.status).toBe(400);
    expect(edited.body.error.message).toBe(`edits.0.file.url: ${FOREIGN}`);

    const added = await call(server, 'editMap', { id, edits: [{ type: 'LayerAdded', layer: { id: 'upper', name: 'Level 1', file: { ...foreignFile, url: '//tracker.example/x.svg' } } }] }, owner);
    expect(added.status).toBe(400);
    expect(added.body.error.message).toBe(`edits.0.layer.file.url: ${FOREIGN}`);
  });

  it("takes the product's own files: a stored upload, the demo mall's floors", async () => {
    const stored = await server.services.files.put(PNG, { kind: 'image', contentType: 'image/png', width: 1, height: 1, owner: owner.uid });
    const id = await newMap();
    const file = { kind: 'image', url: stored.url, width: 1, height: 1 };
    const edited = await call(server, 'editMap', { id, edits: [{ type: 'LayerFileReplaced', id: 'ground', file }] }, owner);
    expect(edited.status).toBe(200);
    const demo = await call(server, 'saveMap', { id, mapData: document({ kind: 'svg', url: '/assets/demo/riverside-ground.svg', width: 1200, height: 800 }), revision: edited.body.result.revision }, owner);
    expect(demo.status).toBe(200);
  });

  it('reads events recorded with another site’s drawing, and hands the address to no one', async () => {
    const id = await newMap('Recorded before');
    // As the code before this fix recorded them: a save and an edit naming a tracker's drawing.
    const edited = new Date().toISOString();
    const appended = await server.services.store.append(
      streams.map(id),
      [
        newEvent('MapSaved', { mapId: id, document: document(foreignFile), edited }, owner.uid),
        newEvent('LayerAdded', { mapId: id, edited, layer: { id: 'upper', name: 'Level 1', file: { kind: 'image', url: 'http://tracker.example/up.png', width: 10, height: 10 } } }, owner.uid),
        newEvent('LayerFileReplaced', { mapId: id, edited, id: 'upper', file: { kind: 'svg', url: 'https://tracker.example/again.svg', width: 10, height: 10 } }, owner.uid),
      ],
      'any',
    );
    await server.runner.waitFor(appended.position);

    const expectedLayers = [
      { id: 'ground', name: 'Ground floor', file: null },
      { id: 'upper', name: 'Level 1', file: null },
    ];
    const publicMap = await fetch(`${server.url}/api/public/maps/${id}`);
    expect(publicMap.status).toBe(200);
    const publicText = await publicMap.text();
    expect(publicText).not.toContain('tracker.example');
    expect(JSON.parse(publicText).result.data.layers).toEqual(expectedLayers);

    const get = async (url: string) => {
      const response = await fetch(`${server.url}${url}`, { headers: { cookie: owner.cookie } });
      expect(response.status).toBe(200);
      return response.text();
    };
    const data = await get(`/api/maps/${id}/data`);
    expect(data).not.toContain('tracker.example');
    expect(JSON.parse(data).result.data.layers).toEqual(expectedLayers);
    const revision = await get(`/api/maps/${id}/revisions/${appended.nextRevision}`);
    expect(JSON.parse(revision).result.document.layers).toEqual(expectedLayers);
    expect(await get(`/api/maps/${id}/export.json`)).not.toContain('tracker.example');
    await get(`/api/maps/${id}/timeline`);

    // The map goes on: its stream folds with those events in it.
    const renamed = await call(server, 'editMap', { id, edits: [{ type: 'LayerRenamed', id: 'upper', name: 'First floor' }] }, owner);
    expect(renamed.status).toBe(200);
  });

  it('does not hand out a drawing a read model row still names from before', async () => {
    const id = await newMap('Old row');
    await server.database.db.query(`UPDATE map_data SET data = jsonb_set(data, '{layers,0,file}', $2::jsonb) WHERE id = $1`, [id, JSON.stringify(foreignFile)]);
    const answer = await fetch(`${server.url}/api/public/maps/${id}`).then((response) => response.json() as Promise<any>);
    expect(answer.result.data.layers[0]).toEqual({ id: 'ground', name: 'Ground floor', file: null });
    expect(answer.result.data.locations[0]).toMatchObject({ id: 'cafe', layer: 'ground' });
  });

  it('never fetches from a non-public address by default: loopback, private, link-local, IPv6 loopback, IPv4-mapped', async () => {
    const before = site.requests.length;
    const port = site.port;
    for (const [url, address] of [
      [`http://127.0.0.1:${port}/plan.png`, '127.0.0.1'],
      [`http://10.0.0.1:${port}/plan.png`, '10.0.0.1'],
      ['http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
      [`http://[::1]:${port}/plan.png`, '::1'],
      [`http://[::ffff:127.0.0.1]:${port}/plan.png`, '::ffff:7f00:1'],
      [`http://localhost:${port}/plan.png`, 'localhost'],
    ] as const) {
      const answer = await fromUrl(server, url, owner);
      expect(answer.status, url).toBe(400);
      expect(answer.body.error.message, url).toMatch(new RegExp(`^The address ${address.replace(/[.[\]]/g, '\\$&')} is not a public one`));
    }
    expect(site.requests.length).toBe(before);
  });
});
