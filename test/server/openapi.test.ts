/**
 * Routes declare their schemas (issue 14): the OpenAPI document is generated from the zod
 * schemas every route states, so it lists every API route the app serves, with its params,
 * body and answers. A route added without a schema shows up here as undocumented.
 */
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { functionPayloads } from '../../events/functions.js';
import { databaseTargets } from '../support/databases.js';
import { routeTable } from '../support/fuzz/route-table.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** API routes that are not for API clients: the websocket, the document itself, the unknown-function fallback. */
const UNDOCUMENTED = new Set(['/api/live', '/api/openapi.json', '/api/fn/:name']);

/** Routes whose path parameters no zod schema states, and why. */
const PARAMS_UNDECLARED = new Map([
  // @fastify/static's catch-all: the file path is the plugin's to resolve (and refuse), not ours.
  ['/*', 'the static files of the client build'],
]);

interface OpenApiOperation {
  parameters?: { in: string; name: string }[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
  responses?: Record<string, unknown>;
}

describe('GET /api/openapi.json', () => {
  let server: TestServer;
  let document: { openapi: string; paths: Record<string, Record<string, OpenApiOperation>> };

  /** Every route as the app added it, with its options (the route tree does not keep schemas). */
  const added: RouteOptions[] = [];

  beforeAll(async () => {
    server = await startTestServer(databaseTargets[0]!, { env: { LOCAL_STRIPE: '1' }, onRoute: (route) => void added.push(route) });
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

  it('has every route the app serves, pages and the local test Stripe included, declare its schema and its path parameters', () => {
    // The route tree draws @fastify/static's catch-all (with the client built) as `*`.
    const served = routeTable(server.app).map((route) => ({ ...route, url: route.url.startsWith('/') ? route.url : `/${route.url}` }));
    // The pages, the local test Stripe and the outbox are served here too (not API routes).
    for (const url of ['/m/:id', '/sitemap.xml', '/robots.txt', '/dev/outbox', '/local-stripe/v1/checkout/sessions', '/local-stripe/billing/:id/subscriptions/:sub']) {
      expect(served.map((route) => route.url)).toContain(url);
    }
    const options = (method: string, url: string) => added.find((route) => route.url === url && [route.method].flat().includes(method as 'GET'));
    const withoutSchema = served.filter((route) => !options(route.method, route.url)?.schema);
    expect(withoutSchema).toEqual([]);
    const undeclared = served.filter((route) => {
      if (!route.url.includes(':') && !route.url.includes('*')) return false;
      if (PARAMS_UNDECLARED.has(route.url)) return false;
      const params = options(route.method, route.url)!.schema!.params as z.ZodObject | undefined;
      const declared = Object.keys(params?.shape ?? {}).sort();
      return declared.join() !== [...route.url.matchAll(/:(\w+)/g)].map((match) => match[1]).sort().join();
    });
    expect(undeclared).toEqual([]);
  });

  it('keeps the pages, the local test Stripe and the outbox out of the API document', () => {
    const paths = Object.keys(document.paths);
    expect(paths.filter((path) => /^\/(local-stripe|dev|m)\/|^\/(sitemap\.xml|robots\.txt)$/.test(path))).toEqual([]);
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
