/**
 * The real server as its own process, started as production starts it minus the build (the
 * Docker image's `node dist/node/server/main.js`, test/support/compiled-server.ts, NODE_ENV=production, the default log
 * level): a temporary DATA_DIR (PGlite) or a scratch PostgreSQL database, a free port, ready
 * once `/api/ready` says so and the demo map is readable. Its pid is the node process itself
 * (no wrapper in between), whose resident memory bench/processes.ts reads.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createPostgresDatabase } from '../test/support/databases.js';
import { compiledServerArgs } from '../test/support/compiled-server.js';
import { freePort, stopChild, waitForOk, type ServerProcess } from './processes.js';

export type ServerDatabase = 'pglite' | 'postgres';

/** The real server, with where its data is and a way to stop it gracefully while keeping that data (read it, then `stop()`). */
export interface RealServer extends ServerProcess {
  dataDir: string;
  databaseUrl: string | null;
  /** SIGTERM and wait for the exit; the data stays until `stop()`. */
  stopProcess(): Promise<void>;
}

export async function startRealServer(database: ServerDatabase, env: Record<string, string> = {}): Promise<RealServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'mapfold-bench-server-'));
  const scratch = database === 'postgres' ? await createPostgresDatabase(undefined, { durable: true }) : null;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // The PostgreSQL run gets its scratch database; the PGlite run must not inherit one.
  const inherited = { ...process.env };
  delete inherited.DATABASE_URL;
  const child = spawn(process.execPath, await compiledServerArgs(), {
    env: {
      ...inherited,
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      ...(scratch ? { DATABASE_URL: scratch.url } : {}),
      ...env,
    },
    // Its logs (every request at the default level, as in production) go nowhere.
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const cleanUp = async () => {
    await stopChild(child);
    rmSync(dataDir, { recursive: true, force: true });
    await scratch?.drop();
  };
  try {
    await waitForOk(`${url}/api/ready`, child, 180_000);
    await waitForOk(`${url}/api/public/maps/demo`, child, 60_000);
  } catch (error) {
    await cleanUp();
    throw error;
  }
  return { url, pid: child.pid!, stop: cleanUp, dataDir, databaseUrl: scratch?.url ?? null, stopProcess: () => stopChild(child) };
}
