/**
 * A whole server for integration tests: the real app, event store and projections on a real
 * database (PGlite or PostgreSQL), listening on a free port.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import WebSocket from 'ws';
import { allProjections } from '../../projections/index.js';
import { LIVE_CHANNEL, type LiveNotice } from '../../projections/live-notices.js';
import { ProjectionRunner } from '../../projections/runner.js';
import { parsePosition } from '../../events/position.js';
import type { ServerMessage } from '../../events/live-messages.js';
import { buildApp, type AppOptions } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import type { AuthLimits } from '../../server/security/auth-limits.js';
import { openServices, type Services } from '../../server/services.js';
import type { Database } from '../../ports/database.js';
import type { Clock } from '../../server/clock.js';
import { WorkerPlaceSearcher } from '../../server/geocoding/place-search-pool.js';
import type { DatabaseTarget, TestDatabase } from './databases.js';

export interface TestServer {
  app: FastifyInstance;
  services: Services;
  runner: ProjectionRunner;
  database: TestDatabase;
  url: string;
  close(): Promise<void>;
}

export interface TestServerOptions {
  env?: Record<string, string>;
  /** The app's logger (default: none), e.g. to read what a 500 was about. */
  loggerInstance?: AppOptions['loggerInstance'];
  /** Listen on a port chosen up front and make it PUBLIC_URL, so mailed links point here. */
  linksToThisServer?: boolean;
  authLimits?: AuthLimits;
  liveRecheckMs?: number;
  /** Presence's keepalive, expiry and throttle (server/live/presence.ts). */
  presenceTimings?: AppOptions['presenceTimings'];
  /** How `POST /api/files/from-url` fetches (a test allows its own local server). */
  remoteFiles?: AppOptions['remoteFiles'];
  /** Told of every route the app adds (server/app.ts). */
  onRoute?: AppOptions['onRoute'];
  /** How the billing reactor retries before parking an event (quick in tests that poison it). */
  reactorRetry?: AppOptions['reactorRetry'];
  /** The database as the app sees it (the projections keep the real one), e.g. to count the app's queries. */
  appDatabase?: (db: Database) => Database;
  /** Renders `/m/{id}` for published maps (server/public-maps/viewer-page.ts). */
  viewerPage?: AppOptions['viewerPage'];
  /** The services' clock (default: the system's), e.g. to count visits on another day. */
  clock?: Clock;
  /** Calls to `POST /api/fn/*` per account and window (server/security/function-call-limits.ts). */
  functionCallLimit?: AppOptions['functionCallLimit'];
}

const quietLogger = { info: () => {}, error: () => {} };

/**
 * One place searcher for all the test servers of a process (a vitest worker runs many files,
 * one after the other): its worker thread builds the embedded gazetteer (130 MB, some 5 s of a
 * core) on its first "near …" search, which every test server that answered one did again
 * (the authorization matrix on each database, the place search's and the store locator's
 * files; issue 26 item 9). A server does not close it (the app closes only a searcher it made);
 * its thread ends after its idle time, or with the process.
 */
let sharedPlaceSearcher: WorkerPlaceSearcher | null = null;

export async function startTestServer(target: DatabaseTarget, options: TestServerOptions = {}): Promise<TestServer> {
  // With the app's tables already made: what starting the app made here is the same each time.
  const database = await target.open({ schema: true });
  const fixedPort = options.linksToThisServer ? await freePort() : 0;
  // A DATA_DIR of its own (files, the local test Stripe's keys), unless the test gives one.
  const ownDataDir = options.env?.DATA_DIR ? null : mkdtempSync(path.join(tmpdir(), 'mapfold-test-'));
  const config = loadConfig({
    ...(ownDataDir ? { DATA_DIR: ownDataDir } : {}),
    ADMIN_EMAILS: 'admin@example.com',
    BODY_LIMIT: String(64 * 1024),
    // Passwords hashed at scrypt N=2^12 instead of production's 2^17 (server/auth/password-hash.ts):
    // the suites register and sign in hundreds of accounts, and at full cost each took 0.3 s to
    // seconds of a busy CI machine. What the hash costs is login-work.test.ts's and config.test.ts's
    // question; a test may still set PASSWORD_HASH_COST itself. A server started as production
    // keeps production's cost (config.ts refuses less there).
    ...(options.env?.NODE_ENV === 'production' ? {} : { PASSWORD_HASH_COST: '12' }),
    ...(fixedPort ? { PUBLIC_URL: `http://127.0.0.1:${fixedPort}` } : {}),
    ...options.env,
  });
  const services = await openServices(config, {
    db: options.appDatabase ? options.appDatabase(database.db) : database.db,
    logger: quietLogger,
    ...(options.authLimits ? { authLimits: options.authLimits } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const app = await buildApp(services, false, {
    placeSearcher: (sharedPlaceSearcher ??= new WorkerPlaceSearcher()),
    ...(options.liveRecheckMs ? { liveRecheckMs: options.liveRecheckMs } : {}),
    ...(options.presenceTimings ? { presenceTimings: options.presenceTimings } : {}),
    ...(options.remoteFiles ? { remoteFiles: options.remoteFiles } : {}),
    ...(options.reactorRetry ? { reactorRetry: options.reactorRetry } : {}),
    ...(options.loggerInstance ? { loggerInstance: options.loggerInstance } : {}),
    ...(options.onRoute ? { onRoute: options.onRoute } : {}),
    ...(options.viewerPage ? { viewerPage: options.viewerPage } : {}),
    ...(options.functionCallLimit ? { functionCallLimit: options.functionCallLimit } : {}),
  });
  const runner = new ProjectionRunner(database.db, services.store, allProjections);
  await runner.start();
  await app.listen({ port: fixedPort, host: '127.0.0.1' });
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
      if (ownDataDir) rmSync(ownDataDir, { recursive: true, force: true });
    },
  };
}

export interface TestUser {
  uid: string;
  cookie: string;
}

/** A port nothing listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

let userCount = 0;

/** The newest link to `path` mailed to `email`, read from the embedded outbox. */
export async function linkFromOutbox(server: TestServer, email: string, path: '/verify-email' | '/reset'): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const messages = await server.services.outbox!.list(200);
    for (const message of messages) {
      const link = message.to === email ? new RegExp(`https?://\\S+${path}\\?token=[\\w-]+`).exec(message.text)?.[0] : undefined;
      if (link) return link;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`No ${path} link mailed to ${email}`);
}

export function tokenOf(link: string): string {
  return new URL(link).searchParams.get('token')!;
}

/** The password registerUser gives every account (to sign in again as a second tab). */
export const TEST_PASSWORD = 'a long enough password';

/**
 * Registers an account and, unless told otherwise, verifies its address through the link in
 * the outbox, as a person would.
 */
export async function registerUser(
  server: TestServer,
  email = `user${++userCount}-${Date.now()}@example.com`,
  options: { verified?: boolean; displayName?: string } = {},
): Promise<TestUser> {
  const response = await fetch(`${server.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ data: { email, password: TEST_PASSWORD, displayName: options.displayName ?? 'Test User' } }),
  });
  if (!response.ok) throw new Error(`register failed: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as { result: { uid: string } };
  const cookie = response.headers.get('set-cookie')!.split(';')[0]!;
  if (options.verified !== false) {
    const token = tokenOf(await linkFromOutbox(server, email, '/verify-email'));
    const verified = await fetch(`${server.url}/api/auth/verify-email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ data: { token } }),
    });
    if (!verified.ok) throw new Error(`verify failed: ${verified.status} ${await verified.text()}`);
  }
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

/** Creates a map as `user` (from `mapData` when given), once the projections have it; its id. */
export async function createMapAs(server: TestServer, user: TestUser, title: string, mapData?: unknown): Promise<string> {
  const created = await call(server, 'createMap', mapData === undefined ? { title } : { title, mapData }, user);
  if (created.status !== 200) throw new Error(`createMap failed: ${created.status} ${JSON.stringify(created.body)}`);
  await projected(server, created.body.position);
  return created.body.result as string;
}

/** Waits until the projections (by default those reading the event's stream) have applied the event at this wire position. */
export function projected(server: TestServer, position: string, projections?: readonly string[]): Promise<void> {
  return server.runner.waitFor(parsePosition(position), projections);
}

/**
 * Waits until every live notice committed before now has reached the server's listeners (the
 * public map cache, the live hub). A projection's NOTIFY goes out at its commit but PostgreSQL
 * delivers it a moment later, after `projected` has returned: a map read into the public map
 * cache just then may be dropped again by its own creation's notice (CI's PostgreSQL run once).
 * Notices come in commit order on the one LISTEN connection (server/db/postgres-database.ts), so
 * once a notice sent now arrives, the earlier ones have been handled.
 */
export async function liveNoticesDelivered(server: TestServer, timeoutMs = 30_000): Promise<void> {
  const marker: LiveNotice = { projection: `test-barrier-${randomUUID()}`, position: '0:0', topics: [] };
  let arrived!: () => void;
  const seen = new Promise<void>((resolve) => (arrived = resolve));
  const { db } = server.database;
  const unlisten = await db.listen(LIVE_CHANNEL, (payload) => {
    if (payload.includes(marker.projection)) arrived();
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    await db.query('SELECT pg_notify($1, $2)', [LIVE_CHANNEL, JSON.stringify(marker)]);
    await Promise.race([seen, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`the live notice sent at ${marker.projection} did not arrive in ${timeoutMs} ms`)), timeoutMs)))]);
  } finally {
    clearTimeout(timer);
    await unlisten();
  }
}

/** A websocket client of /api/live that records every message. */
export async function openLive(server: TestServer, user?: TestUser) {
  const socket = new WebSocket(`${server.url.replace('http', 'ws')}/api/live?v=2`, {
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
