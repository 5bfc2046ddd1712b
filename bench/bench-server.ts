/**
 * A real server in the bench's process on a database the bench opened (PGlite on disk or
 * PostgreSQL, bench/run.ts): the tests' startTestServer (the app, its projections, a DATA_DIR
 * of its own, listening on a free port) with production's body limit and no log, and the
 * signed-in user through the tests' registerUser and call. The bench closes the database.
 */
import type { Database } from '../ports/database.js';
import type { DatabaseTarget } from '../test/support/databases.js';
import { call, startTestServer, type TestServer, type TestServerOptions, type TestUser } from '../test/support/test-server.js';

/** Production's body limit (server/config.ts), not the tests' 64 KB: benches send big maps. */
const BODY_LIMIT = String(2 * 1024 * 1024);

/** A target handing out a database opened already; closing the server leaves it open. */
export function openedDatabase(db: Database): DatabaseTarget {
  return { name: db.kind, open: async () => ({ db, url: null, dispose: async () => {} }) };
}

/** startTestServer on `db`; `env` adds to (or overrides) the bench's settings. */
export function startBenchServer(db: Database, env: Record<string, string> = {}, options: Omit<TestServerOptions, 'env'> = {}): Promise<TestServer> {
  return startTestServer(openedDatabase(db), { ...options, env: { BODY_LIMIT, LOG_LEVEL: 'silent', ...env } });
}

/** Calls `POST /api/fn/{name}` as `user`; anything but 200 throws. */
export async function callOk<T = unknown>(server: TestServer, user: TestUser, name: string, data: unknown): Promise<{ result: T; position: string | null }> {
  const answer = await call(server, name, data, user);
  if (answer.status !== 200) throw new Error(`${name} answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
  return { result: answer.body.result as T, position: (answer.body.position as string | null | undefined) ?? null };
}
