/**
 * A whole server for integration tests: the real app, event store and projections on a real
 * database (PGlite or PostgreSQL), listening on a free port.
 */
import type { FastifyInstance } from 'fastify';
import WebSocket from 'ws';
import { allProjections } from '../../projections/index.js';
import { ProjectionRunner } from '../../projections/runner.js';
import { parsePosition } from '../../events/position.js';
import type { ServerMessage } from '../../events/live-messages.js';
import { buildApp, type Services } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { openServices } from '../../server/services.js';
import type { DatabaseTarget, TestDatabase } from './databases.js';

export interface TestServer {
  app: FastifyInstance;
  services: Services;
  runner: ProjectionRunner;
  database: TestDatabase;
  url: string;
  close(): Promise<void>;
}

export async function startTestServer(target: DatabaseTarget, env: Record<string, string> = {}): Promise<TestServer> {
  const database = await target.open();
  const config = loadConfig({ ADMIN_EMAILS: 'admin@example.com', BODY_LIMIT: String(64 * 1024), ...env });
  const services = await openServices(config, { db: database.db });
  const app = await buildApp(services);
  const runner = new ProjectionRunner(database.db, services.store, allProjections);
  await runner.start();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    app,
    services,
    runner,
    database,
    url: `http://127.0.0.1:${port}`,
    async close() {
      await app.close();
      await runner.stop();
      await services.store.close();
      await database.dispose();
    },
  };
}

export interface TestUser {
  uid: string;
  cookie: string;
}

let userCount = 0;

export async function registerUser(server: TestServer, email = `user${++userCount}-${Date.now()}@example.com`): Promise<TestUser> {
  const response = await fetch(`${server.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ data: { email, password: 'a long enough password', displayName: 'Test User' } }),
  });
  if (!response.ok) throw new Error(`register failed: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as { result: { uid: string } };
  const cookie = response.headers.get('set-cookie')!.split(';')[0]!;
  return { uid: body.result.uid, cookie };
}

export async function call(server: TestServer, name: string, data: unknown, user?: TestUser) {
  const response = await fetch(`${server.url}/api/fn/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(user ? { cookie: user.cookie } : {}) },
    body: JSON.stringify({ data }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

/** Waits until the projections have applied the event at this wire position. */
export function projected(server: TestServer, position: string): Promise<void> {
  return server.runner.waitFor(parsePosition(position));
}

/** A websocket client of /api/live that records every message. */
export async function openLive(server: TestServer, user?: TestUser) {
  const socket = new WebSocket(`${server.url.replace('http', 'ws')}/api/live`, {
    headers: user ? { cookie: user.cookie } : {},
  });
  const messages: ServerMessage[] = [];
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  socket.on('message', (raw) => messages.push(JSON.parse(raw.toString()) as ServerMessage));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    socket,
    messages,
    closed,
    send: (message: unknown) => socket.send(JSON.stringify(message)),
    async next(predicate: (message: ServerMessage) => boolean, timeoutMs = 10_000): Promise<ServerMessage> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.find(predicate);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`No matching live message; got ${JSON.stringify(messages)}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    close: () => socket.close(),
  };
}
