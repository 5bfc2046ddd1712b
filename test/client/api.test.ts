/**
 * The API module against a real local HTTP server: every row of the spec's error catalogue
 * (§8), network failure, malformed answers, the server's message, and the timeout.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ApiError,
  createApiClient,
  FUNCTION_TIMEOUT_MS,
  MISSING_DATA_MESSAGE,
  NOT_JSON_OBJECT_MESSAGE,
  type ApiClient,
} from '../../client/src/lib/api';

type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void;

let server: Server;
let baseUrl: string;
let handler: Handler;
let received: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = [];

function send(response: ServerResponse, status: number, body: string, type = 'application/json') {
  response.writeHead(status, { 'content-type': type });
  response.end(body);
}

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      handler(request, body, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  received = [];
  handler = (_request, _body, response) => send(response, 200, JSON.stringify({ result: 'ok', position: '12:3' }));
});

const client = (): ApiClient => createApiClient({ baseUrl });

async function failureOf(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected the call to fail');
}

describe('callFunction', () => {
  it('POSTs {data} as JSON to /api/fn/{name} and answers {result, position}', async () => {
    handler = (_request, _body, response) => send(response, 200, JSON.stringify({ result: 'map-1', position: '41:7' }));

    const answer = await client().callFunction('createMap', { title: 'Head office' });

    expect(answer).toEqual({ result: 'map-1', position: { commit: 41n, prepare: 7n } });
    expect(received).toHaveLength(1);
    expect(received[0]!.method).toBe('POST');
    expect(received[0]!.url).toBe('/api/fn/createMap');
    expect(received[0]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(received[0]!.body)).toEqual({ data: { title: 'Head office' } });
  });

  it('accepts the {data} answer shape too, and a null result', async () => {
    handler = (_request, _body, response) => send(response, 200, JSON.stringify({ data: 'legacy' }));
    expect(await client().callFunction('createMap', { title: 'x' })).toEqual({ result: 'legacy', position: null });

    handler = (_request, _body, response) => send(response, 200, JSON.stringify({ result: null, position: '1:1' }));
    expect(await client().callFunction('deleteMap', { id: 'abc' })).toEqual({ result: null, position: { commit: 1n, prepare: 1n } });
  });

  describe('maps each HTTP status of the error catalogue to its code', () => {
    const catalogue: [number, string][] = [
      [400, 'invalid-argument'],
      [401, 'unauthenticated'],
      [403, 'permission-denied'],
      [404, 'not-found'],
      [409, 'aborted'],
      [429, 'resource-exhausted'],
      [499, 'cancelled'],
      [500, 'internal'],
      [501, 'unimplemented'],
      [503, 'unavailable'],
      [504, 'deadline-exceeded'],
    ];

    it.each(catalogue)('HTTP %i is %s, with the server message', async (status, code) => {
      handler = (_request, _body, response) =>
        send(response, status, JSON.stringify({ error: { status: code.toUpperCase(), message: `The server says ${status}.` } }));

      const error = await failureOf(client().callFunction('createMap', { title: 'x' }));

      expect(error.code).toBe(code);
      expect(error.status).toBe(status);
      expect(error.message).toBe(`The server says ${status}.`);
    });

    it.each(catalogue)('HTTP %i is %s, with a default message when the server gives none', async (status, code) => {
      handler = (_request, _body, response) => send(response, status, '', 'text/plain');

      const error = await failureOf(client().callFunction('createMap', { title: 'x' }));

      expect(error.code).toBe(code);
      expect(error.status).toBe(status);
      expect(error.message.length).toBeGreaterThan(0);
    });

    it.each([402, 405, 418, 422, 502, 505])('any other status (%i) is unknown', async (status) => {
      handler = (_request, _body, response) => send(response, status, JSON.stringify({ error: { message: 'Odd.' } }));

      const error = await failureOf(client().callFunction('createMap', { title: 'x' }));

      expect(error.code).toBe('unknown');
      expect(error.status).toBe(status);
      expect(error.message).toBe('Odd.');
    });
  });

  it("uses the server's message for the free-slot error", async () => {
    const message = 'No free test slot: you already have 2 test maps. Subscribe or delete a test map first.';
    handler = (_request, _body, response) => send(response, 429, JSON.stringify({ error: { status: 'RESOURCE_EXHAUSTED', message } }));

    const error = await failureOf(client().callFunction('createMap', { title: 'x' }));

    expect(error).toMatchObject({ code: 'resource-exhausted', message, status: 429 });
  });

  it('a network failure (nothing listening) is internal', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));

    const error = await failureOf(createApiClient({ baseUrl: `http://127.0.0.1:${port}` }).callFunction('createMap', { title: 'x' }));

    expect(error.code).toBe('internal');
    expect(error.status).toBe(0);
  });

  it.each([
    ['text', 'hello, I am not JSON'],
    ['an array', '[1, 2, 3]'],
    ['a string', '"result"'],
    ['null', 'null'],
  ])('a 2xx answer that is %s is internal: not a valid JSON object', async (_kind, body) => {
    handler = (_request, _body, response) => send(response, 200, body);

    const error = await failureOf(client().callFunction('createMap', { title: 'x' }));

    expect(error).toMatchObject({ code: 'internal', message: NOT_JSON_OBJECT_MESSAGE });
  });

  it('a JSON object without result or data is internal: missing data field', async () => {
    handler = (_request, _body, response) => send(response, 200, JSON.stringify({ position: '1:2', something: 'else' }));

    const error = await failureOf(client().callFunction('createMap', { title: 'x' }));

    expect(error).toMatchObject({ code: 'internal', message: MISSING_DATA_MESSAGE });
  });

  it('gives up after the timeout with deadline-exceeded', async () => {
    expect(FUNCTION_TIMEOUT_MS).toBe(70_000);
    handler = () => {
      // Never answers.
    };

    const started = Date.now();
    const error = await failureOf(createApiClient({ baseUrl, timeoutMs: 150 }).callFunction('createMap', { title: 'x' }));

    expect(error.code).toBe('deadline-exceeded');
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('a request the caller aborts is cancelled', async () => {
    handler = () => {
      // Never answers.
    };
    const controller = new AbortController();
    const call = client().callFunction('createMap', { title: 'x' }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);

    const error = await failureOf(call);

    expect(error.code).toBe('cancelled');
  });
});

describe('queries and auth calls share the same handling', () => {
  it('GET answers {result, position}, checked by a schema', async () => {
    handler = (_request, _body, response) => send(response, 200, JSON.stringify({ result: [{ id: 'a' }], position: '3:4' }));

    const answer = await client().get('/api/maps', z.array(z.object({ id: z.string() })));

    expect(received[0]!.method).toBe('GET');
    expect(answer).toEqual({ result: [{ id: 'a' }], position: { commit: 3n, prepare: 4n } });
  });

  it('an answer that does not match the schema is internal', async () => {
    handler = (_request, _body, response) => send(response, 200, JSON.stringify({ result: { id: 7 } }));

    const error = await failureOf(client().get('/api/maps/x/data', z.object({ id: z.string() })));

    expect(error.code).toBe('internal');
  });

  it('GET errors map through the catalogue with the server message', async () => {
    handler = (_request, _body, response) => send(response, 403, JSON.stringify({ error: { status: 'PERMISSION_DENIED', message: 'You do not have access to this map.' } }));

    const error = await failureOf(client().get('/api/maps/x/data'));

    expect(error).toMatchObject({ code: 'permission-denied', status: 403, message: 'You do not have access to this map.' });
  });

  it('auth POSTs send {data} and map errors the same way', async () => {
    handler = (_request, _body, response) =>
      send(response, 409, JSON.stringify({ error: { status: 'ABORTED', message: 'An account with this email already exists. Log in instead.' } }));

    const error = await failureOf(client().post('/api/auth/register', { email: 'a@b.c', password: 'x', displayName: 'A' }));

    expect(JSON.parse(received[0]!.body)).toEqual({ data: { email: 'a@b.c', password: 'x', displayName: 'A' } });
    expect(error).toMatchObject({ code: 'aborted', status: 409, message: 'An account with this email already exists. Log in instead.' });
  });
});
