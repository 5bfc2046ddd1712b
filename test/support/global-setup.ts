/**
 * Vitest's global setup (vitest.config.ts): runs once for the whole run, before any test file.
 *
 * It makes the PGlite template: an empty database's files, created by initdb once, which every
 * in-memory test database then starts from (test/support/pglite-template.ts) instead of running
 * initdb again. initdb is most of what opening a PGlite costs (it compiles its own WebAssembly
 * and builds the catalogs), and the suites open a few hundred.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
import { START_PARAMS } from '../../server/db/pglite-database.js';
import { postgresUrl } from './databases.js';
import { TEST_SETTINGS } from './pglite-template.js';
import { makePostgresSchemaTemplate } from './schema-templates.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The PGlite template's tar file (pglite-template.ts). */
    pgliteTemplate: string;
    /** The same with the app's schema made (schema-templates.ts), or null if it could not be made. */
    pgliteSchemaTemplate: string | null;
    /** The PostgreSQL database with the app's schema (schema-templates.ts), or null. */
    postgresSchemaTemplate: string | null;
  }
}

const run = promisify(execFile);

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The PostgreSQL template is made meanwhile: the PGlite ones are made in child processes, one
  // core's work, and this setup is all a run does until it ends.
  const postgresName = `mapfold_schema_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const postgresMade = postgresUrl ? makePostgresSchemaTemplate(postgresUrl, postgresName).catch((error: unknown) => warn('PostgreSQL', error)) : Promise.resolve(null);

  const directory = mkdtempSync(path.join(tmpdir(), 'mapfold-pglite-template-'));
  const file = path.join(directory, 'pgdata.tar');
  const script = fileURLToPath(new URL('./pglite-template.mjs', import.meta.url));
  try {
    await run(process.execPath, [script, file, JSON.stringify(START_PARAMS)], { maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    // The run stops here: the PostgreSQL template made meanwhile must not outlive it.
    await (await postgresMade)?.();
    throw error;
  }
  project.provide('pgliteTemplate', file);

  // The templates with the app's schema: a test server on either starts as on its own empty
  // database, only sooner. Should one not be made, the test servers make their tables as before.
  const schemaFile = path.join(directory, 'pgdata-schema.tar');
  const schemaScript = fileURLToPath(new URL('./pglite-schema-template-cli.ts', import.meta.url));
  const pgliteSchema = await run(process.execPath, ['--import', 'tsx', schemaScript, file, schemaFile, JSON.stringify(TEST_SETTINGS)], { maxBuffer: 16 * 1024 * 1024 }).then(
    () => schemaFile,
    (error: unknown) => warn('PGlite', error),
  );
  project.provide('pgliteSchemaTemplate', pgliteSchema);
  const dropPostgres = await postgresMade;
  project.provide('postgresSchemaTemplate', dropPostgres ? postgresName : null);

  return async () => {
    rmSync(directory, { recursive: true, force: true });
    await dropPostgres?.();
  };
}

function warn(database: string, error: unknown): null {
  console.warn(`The ${database} template with the app's schema could not be made; each test server makes its tables:`, error);
  return null;
}
