/**
 * The databases every contract and integration suite runs against: an in-memory PGlite always,
 * and a real PostgreSQL server whenever `DATABASE_URL` is set (CI sets it). Each `open()` gets
 * a database of its own, dropped again by `dispose()`.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import type { Database } from '../../ports/database.js';
import { openPostgresDatabase } from '../../server/db/postgres-database.js';
import { openTestPGlite } from './pglite-template.js';

export interface TestDatabase {
  db: Database;
  /** Connection string of the database (PostgreSQL only), for opening more connections. */
  url: string | null;
  dispose(): Promise<void>;
}

export interface DatabaseTarget {
  name: 'pglite' | 'postgres';
  /** `schema`: with the app's tables already made (test servers; schema-templates.ts). */
  open(options?: { schema?: boolean }): Promise<TestDatabase>;
}

export const postgresUrl = process.env.DATABASE_URL ?? null;

/**
 * Databases being dropped: a DROP DATABASE waits for a checkpoint (about a second), which no
 * test needs to wait for, so it runs while the next test does; the file's last hook waits for
 * them all (setup-node.ts).
 */
const pendingDrops = new Set<Promise<void>>();

/** Waits until every database this process dropped is gone; throws if a drop failed. */
export async function droppedDatabases(): Promise<void> {
  await Promise.all([...pendingDrops]);
}

/**
 * Creates an empty PostgreSQL database and returns its connection string. Its commits do not
 * wait for the disk (synchronous_commit off, for its connections only): a test database is
 * thrown away, and waiting for each flush made commits several times slower. Benchmarks pass
 * `{ durable: true }`: their figures must be those of a server that waits for the disk, as a
 * production one does, and stay comparable with the figures before this setting.
 */
export async function createPostgresDatabase(
  serverUrl = process.env.DATABASE_URL,
  options: { durable?: boolean; template?: string | null } = {},
): Promise<{ url: string; drop(): Promise<void> }> {
  if (!serverUrl) throw new Error('DATABASE_URL is not set');
  const postgresUrl = serverUrl;
  const name = `mapfold_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}${options.template ? ` TEMPLATE ${options.template}` : ''}`);
  if (!options.durable) await admin.query(`ALTER DATABASE ${name} SET synchronous_commit TO off`);
  await admin.end();
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop() {
      const dropping = dropPostgresDatabase(postgresUrl, name);
      pendingDrops.add(dropping);
      // Removed once done; a failure stays for droppedDatabases() to report.
      void dropping.then(() => pendingDrops.delete(dropping), () => {});
      return Promise.resolve();
    },
  };
}

/** Drops the database `name` of the PostgreSQL server at `serverUrl`, its sessions ended first. */
export async function dropPostgresDatabase(serverUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

export const pgliteTarget: DatabaseTarget = {
  name: 'pglite',
  async open(options = {}) {
    const db = await openTestPGlite(undefined, options);
    return { db, url: null, dispose: () => db.close() };
  },
};

/** The PostgreSQL database with the app's schema that the global setup made, if it did. */
function postgresSchemaTemplate(): string | null {
  return process.env.VITEST ? inject('postgresSchemaTemplate') : null;
}

export const postgresTarget: DatabaseTarget = {
  name: 'postgres',
  async open(options = {}) {
    const created = await createPostgresDatabase(undefined, { template: options.schema ? postgresSchemaTemplate() : null });
    const db = await openPostgresDatabase(created.url);
    return {
      db,
      url: created.url,
      async dispose() {
        await db.close();
        await created.drop();
      },
    };
  },
};

/** PGlite, plus PostgreSQL when `DATABASE_URL` is set. */
export const databaseTargets: DatabaseTarget[] = postgresUrl ? [pgliteTarget, postgresTarget] : [pgliteTarget];
