/**
 * The real server, in process, for client tests that talk to it over HTTP and websockets:
 * the app, event store and projections on an in-memory PGlite database, on a free port.
 */
import type { FastifyInstance } from 'fastify';
import { allProjections } from '../../../projections/index.js';
import { ProjectionRunner } from '../../../projections/runner.js';
import { buildApp } from '../../../server/app.js';
import { loadConfig } from '../../../server/config.js';
import { openPGliteDatabase } from '../../../server/db/pglite-database.js';
import { openServices } from '../../../server/services.js';

export interface AppServer {
  app: FastifyInstance;
  url: string;
  wsUrl: string;
  close(): Promise<void>;
}

export async function startAppServer(): Promise<AppServer> {
  const config = loadConfig({});
  const db = await openPGliteDatabase(undefined);
  const services = await openServices(config, { db });
  const app = await buildApp(services);
  const runner = new ProjectionRunner(db, services.store, allProjections);
  await runner.start();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    app,
    url: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}/api/live`,
    async close() {
      await app.close();
      await runner.stop();
      await services.close();
    },
  };
}

let count = 0;

/** Registers a new account; returns its uid and the session cookie to send as a header. */
export async function registerUser(server: AppServer, displayName = 'Test User'): Promise<{ uid: string; cookie: string }> {
  const email = `client-${++count}-${Date.now()}@example.com`;
  const response = await fetch(`${server.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ data: { email, password: 'a long enough password', displayName } }),
  });
  if (!response.ok) throw new Error(`register failed: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as { result: { uid: string } };
  const cookie = response.headers.get('set-cookie')?.split(';')[0];
  if (!cookie) throw new Error('register set no cookie');
  return { uid: body.result.uid, cookie };
}
