/**
 * The server's resident memory when nobody uses it (issue 18: an idle embedded server under
 * 300 MB). The real server in its own process, started as `npm start` starts it minus the build
 * (`node dist/node/server/main.js`, test/support/compiled-server.ts; the environment's defaults, a
 * temporary DATA_DIR and a free port), on PGlite and on PostgreSQL. Printed: VmRSS once
 * /api/ready answers and after 30 s without a request, VmHWM (the peak so far), and how long
 * the start took. PGlite runs twice: a first start (initdb, seeding) and a restart on the same
 * DATA_DIR (what a self-hoster's server does every other time). Nothing else is asked of it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createPostgresDatabase } from '../test/support/databases.js';
import { compiledServerArgs } from '../test/support/compiled-server.js';
import { freePort, stopChild, waitForOk } from './processes.js';

const IDLE_MS = Number(process.env.MEMORY_BENCH_IDLE_MS ?? 30_000);

interface Memory {
  rss: number;
  peak: number;
}

/** VmRSS and VmHWM of a process, in bytes (Linux). */
function memoryOf(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

async function measure(name: string, dataDir: string, databaseUrl: string | null, print: (line: string) => void): Promise<void> {
  const port = await freePort();
  const env = { ...process.env };
  delete env.DATABASE_URL;
  delete env.NODE_ENV;
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, await compiledServerArgs(), {
    env: { ...env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: `http://127.0.0.1:${port}`, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitForOk(`http://127.0.0.1:${port}/api/ready`, child, 300_000);
    const startSeconds = (performance.now() - started) / 1000;
    const atStart = memoryOf(child.pid!);
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const idle = memoryOf(child.pid!);
    const mb = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MB`;
    print(
      `${name.padEnd(28)} ready in ${startSeconds.toFixed(1).padStart(5)} s   RSS ${mb(atStart.rss).padStart(7)} at ready, ${mb(idle.rss).padStart(7)} after ${IDLE_MS / 1000} s idle   peak ${mb(idle.peak)}`,
    );
  } finally {
    await stopChild(child);
  }
}

export async function benchServerMemory(print: (line: string) => void): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'mapfold-bench-memory-'));
  try {
    await measure('PGlite, first start', dataDir, null, print);
    await measure('PGlite, restart', dataDir, null, print);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  const scratch = await createPostgresDatabase(undefined, { durable: true });
  const pgDir = mkdtempSync(path.join(tmpdir(), 'mapfold-bench-memory-'));
  try {
    await measure('PostgreSQL, first start', pgDir, scratch.url, print);
    await measure('PostgreSQL, restart', pgDir, scratch.url, print);
  } finally {
    rmSync(pgDir, { recursive: true, force: true });
    await scratch.drop();
  }
}
