/**
 * Databases that already hold the app's schema, for the test servers to start from (issue 26
 * item 9: "PostgreSQL databases from a template"): made once per run by the global setup, by
 * starting the app and its projections on an empty database and stopping them again, as every
 * test server did on its own database (some 0.25 s of a core on PGlite, a second on PostgreSQL,
 * a few hundred times a run). A server started on one finds its tables there, as a restarted
 * server does. Bare test databases (the contract suites', which create what they need) stay
 * empty: only startTestServer asks for the schema (DatabaseTarget.open).
 *
 * PGlite's is a tar of its files; PostgreSQL's a database that CREATE DATABASE … TEMPLATE copies.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { Blob } from 'node:buffer';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Database } from '../../ports/database.js';
import { allProjections } from '../../projections/index.js';
import { ProjectionRunner } from '../../projections/runner.js';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { dumpPGliteFiles, openPGliteDatabase } from '../../server/db/pglite-database.js';
import { openPostgresDatabase } from '../../server/db/postgres-database.js';
import { openServices } from '../../server/services.js';
import { dropPostgresDatabase } from './databases.js';
import type { PlaceSearcher } from '../../server/geocoding/place-search-pool.js';

/** Nobody searches places here: no worker is started for it. */
const noPlaceSearcher: PlaceSearcher = { search: async () => [], close: async () => {} };

/** Starts the app and its projections on `db` (which makes their tables), then stops them. */
async function makeSchema(db: Database): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'mapfold-schema-template-'));
  try {
    const config = loadConfig({ DATA_DIR: dataDir, ADMIN_EMAILS: 'admin@example.com', PASSWORD_HASH_COST: '12' });
    const services = await openServices(config, { db, logger: { info: () => {}, error: () => {} } });
    const app = await buildApp(services, false, { placeSearcher: noPlaceSearcher });
    const runner = new ProjectionRunner(db, services.store, allProjections);
    await runner.start();
    await app.close();
    await runner.stop();
    await services.store.close();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The PGlite template (`emptyTar`, initdb's files) with the schema, written to `file`. */
export async function makePGliteSchemaTemplate(emptyTar: string, file: string, settings: readonly string[]): Promise<void> {
  const template = new Blob([await readFile(emptyTar)]) as unknown as globalThis.Blob;
  const db = await openPGliteDatabase(undefined, { template, settings });
  try {
    await makeSchema(db);
    await writeFile(file, Buffer.from(await (await dumpPGliteFiles(db)).arrayBuffer()));
  } finally {
    await db.close();
  }
}

/** A PostgreSQL database with the schema, named `name`, on the server `serverUrl`; returns how to drop it. */
export async function makePostgresSchemaTemplate(serverUrl: string, name: string): Promise<() => Promise<void>> {
  await dropPostgresDatabase(serverUrl, name);
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = await openPostgresDatabase(url.toString());
  try {
    await makeSchema(db);
  } finally {
    await db.close();
  }
  return () => dropPostgresDatabase(serverUrl, name);
}
