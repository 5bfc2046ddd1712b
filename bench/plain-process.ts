/**
 * Starts the plain comparison process (bench/plain-server.ts) with the real server's captured
 * answers, written to a temporary file it reads at start.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { encodingOf, type CapturedResponse } from './captured-response.js';
import type { StoredRoute } from './plain-server.js';
import { freePort, stopChild, waitForOk, type ServerProcess } from './processes.js';

export interface PlainRoute {
  path: string;
  /** The same answer in each encoding the real server sent it in (identity among them). */
  variants: CapturedResponse[];
  /** The real server's 304 to its ETag, if it sends one. */
  notModified: { etag: string; response: CapturedResponse } | null;
}

/** Starts the plain process serving `routes`; it is ready when the first path answers. */
export async function startPlainServer(routes: PlainRoute[]): Promise<ServerProcess> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mapfold-bench-plain-'));
  const file = path.join(dir, 'routes.json');
  const stored: StoredRoute[] = routes.map((route) => ({
    path: route.path,
    variants: route.variants.map((variant) => ({ encoding: encodingOf(variant), headers: variant.headers, body: variant.body.toString('base64') })),
    notModified: route.notModified ? { etag: route.notModified.etag, headers: route.notModified.response.headers } : null,
  }));
  writeFileSync(file, JSON.stringify(stored));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'plain-server.ts'), file], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = async () => {
    await stopChild(child);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitForOk(`${url}${routes[0]!.path}`, child, 60_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, pid: child.pid!, stop };
}
