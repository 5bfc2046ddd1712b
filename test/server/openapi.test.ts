/**
 * Routes declare their schemas (issue 14): the OpenAPI document is generated from the zod
 * schemas every route states, so it lists every API route the app serves, with its params,
 * body and answers. A route added without a schema shows up here as undocumented.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functionPayloads } from '../../events/functions.js';
import { databaseTargets } from '../support/databases.js';
import { routeTable } from '../support/fuzz/route-table.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** API routes that are not for API clients: the websocket, the document itself, the unknown-function fallback. */
const UNDOCUMENTED = new Set(['/api/live', '/api/openapi.json', '/api/fn/:name']);

interface OpenApiOperation {
  parameters?: { in: string; name: string }[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
  responses?: Record<string, unknown>;
}

describe('GET /api/openapi.json', () => {
  let server: TestServer;
  let document: { openapi: string; paths: Record<string, Record<string, OpenApiOperation>> };

  beforeAll(async () => {
    server = await startTestServer(databaseTargets[0]!);
    const response = await server.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    document = response.json();
  });
  afterAll(() => server?.close());

  it('is an OpenAPI 3.1 document', () => {
    expect(document.openapi).toBe('3.1.0');
  });

  it('documents every API route the app serves, with its path parameters', () => {
    const routes = routeTable(server.app).filter((route) => route.url.startsWith('/api/') && route.method !== 'HEAD' && !UNDOCUMENTED.has(route.url));
    expect(routes.length).toBeGreaterThan(30);
    const missing = routes.filter((route) => !document.paths[route.url.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()]);
    expect(missing).toEqual([]);
    for (const route of routes.filter((candidate) => candidate.url.includes(':'))) {
      const operation = document.paths[route.url.replace(/:(\w+)/g, '{$1}')]![route.method.toLowerCase()]!;
      const names = (operation.parameters ?? []).filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name);
      expect(names.sort(), route.url).toEqual([...route.url.matchAll(/:(\w+)/g)].map((match) => match[1]).sort());
    }
  });

  it('gives each callable function its own operation, with its payload under data and its answer', () => {
    for (const name of Object.keys(functionPayloads)) {
      const operation = document.paths[`/api/fn/${name}`]?.post;
      expect(operation, name).toBeDefined();
      expect(Object.keys(operation!.requestBody!.content['application/json']!.schema.properties!), name).toEqual(['data']);
      expect(Object.keys(operation!.responses!), name).toEqual(expect.arrayContaining(['200', '4XX']));
    }
  });
});
