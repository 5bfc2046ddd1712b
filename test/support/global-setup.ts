/**
 * Vitest's global setup (vitest.config.ts): runs once for the whole run, before any test file.
 *
 * It makes the PGlite template: an empty database's files, created by initdb once, which every
 * in-memory test database then starts from (test/support/pglite-template.ts) instead of running
 * initdb again. initdb is most of what opening a PGlite costs (it compiles its own WebAssembly
 * and builds the catalogs), and the suites open a few hundred.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
import { START_PARAMS } from '../../server/db/pglite-database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The PGlite template's tar file (pglite-template.ts). */
    pgliteTemplate: string;
  }
}

const run = promisify(execFile);

export default async function setup(project: TestProject): Promise<() => void> {
  const directory = mkdtempSync(path.join(tmpdir(), 'mapfold-pglite-template-'));
  const file = path.join(directory, 'pgdata.tar');
  const script = fileURLToPath(new URL('./pglite-template.mjs', import.meta.url));
  await run(process.execPath, [script, file, JSON.stringify(START_PARAMS)], { maxBuffer: 16 * 1024 * 1024 });
  project.provide('pgliteTemplate', file);
  return () => rmSync(directory, { recursive: true, force: true });
}
