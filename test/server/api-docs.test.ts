/**
 * `/docs/api` (issue 30 item 1): the OpenAPI document as a readable page, with authentication
 * described and examples that work: every worked example on the page is run here, as curl
 * would send it, with a real token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_TOKEN_SCOPES } from '../../events/api-tokens.js';
import { API_EXAMPLES, sampleOf } from '../../server/http/api-docs.js';
import { databaseTargets } from '../support/databases.js';
import { call, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

describe.each(databaseTargets)('/docs/api on $name', (target) => {
  let server: TestServer;
  let owner: TestUser;

  beforeAll(async () => {
    server = await startTestServer(target);
    owner = await registerUser(server);
  }, 60_000);
  afterAll(() => server?.close());

  it('is a page with the authentication, scopes, limits and errors, and every operation of the OpenAPI document', async () => {
    const response = await fetch(`${server.url}/docs/api`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    for (const heading of ['Authentication', 'Scopes', 'Rate limits', 'Errors', 'Examples']) expect(html).toContain(`>${heading}</h2>`);
    expect(html).toContain('Authorization: Bearer $MAPFOLD_TOKEN');
    for (const scope of API_TOKEN_SCOPES) expect(html).toContain(`<code>${scope}</code>`);
    expect(html).toContain('href="/account#api-tokens"');
    const document = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.values(document.paths).reduce((sum, ops) => sum + Object.keys(ops).length, 0);
    expect(html.match(/<section class="op"/g)).toHaveLength(operations);
    // Account settings and billing say they are not for tokens.
    expect(html).toMatch(/id="post-api-auth-change-password"[\s\S]*?Signed in only: not with an API token/);
    expect(html).toMatch(/id="get-api-maps-id-data"[\s\S]*?Token scope <code>maps:read<\/code>/);
    // Its stylesheet is this site's (the app's Content-Security-Policy allows it).
    expect(html).toContain('<link rel="stylesheet" href="/docs/api.css">');
    expect(response.headers.get('content-security-policy')).toMatch(/style-src 'self'/);
    const css = await fetch(`${server.url}/docs/api.css`);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
  });

  it('its worked examples work, in order, with a token', async () => {
    const made = await call(server, 'createApiToken', { name: 'Docs examples', scopes: [...API_TOKEN_SCOPES] }, owner);
    await projected(server, made.body.position);
    const token = made.body.result.token as string;
    let mapId = '';
    for (const example of API_EXAMPLES) {
      const path = example.path.replace('MAP_ID', mapId);
      const json = example.json === undefined ? undefined : JSON.stringify(example.json).replaceAll('MAP_ID', mapId);
      const response = await fetch(`${server.url}${path}`, {
        method: example.method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(json ? { 'content-type': 'application/json' } : {}),
          ...(example.file ? { 'content-type': example.file.type } : {}),
        },
        ...(json ? { body: json } : example.file ? { body: example.file.content } : {}),
      });
      const text = await response.text();
      expect(response.status, `${example.title}: ${text}`).toBe(200);
      if (example.path === '/api/fn/createMap') mapId = (JSON.parse(text) as { result: string }).result;
      const position = response.headers.get('content-type')?.includes('json') ? (JSON.parse(text) as { position?: string }).position : undefined;
      if (position) await projected(server, position);
    }
    expect(mapId).not.toBe('');
    const data = (await (await fetch(`${server.url}/api/maps/${mapId}/data`, { headers: { cookie: owner.cookie } })).json()) as any;
    expect(data.result.data.locations.map((l: { title: string }) => l.title).sort()).toEqual(['Harbour store', 'Main Street store', 'Station store']);
  });

  it('makes examples from schemas: placeholders for ids, first values of enums', () => {
    expect(sampleOf({ type: 'object', required: ['mapId', 'role', 'email'], properties: { mapId: { type: 'string' }, role: { enum: ['editor', 'viewer'] }, email: { type: 'string' } } })).toEqual({
      mapId: 'MAP_ID',
      role: 'editor',
      email: 'someone@example.com',
    });
  });
});
