import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import type { Database, NotificationHandler, Queryable, QueryResult } from '../../ports/database.js';
import { QueryGate } from './query-gate.js';

/**
 * PostgreSQL's settings for one embedded backend. PGlite keeps initdb's defaults, sized for a
 * server of its own: 128 MB of shared buffers, which PGlite's WebAssembly allocator zeroes at
 * start, so all of it is resident from the first second. 16 MB (2,048 pages) holds the hot
 * pages of an embedded installation (a fresh one's whole database, catalogs and seeded maps
 * included, is 8 MB), and a page not in them is one read of a file the operating system has
 * cached anyway.
 * One backend needs no room for a hundred connections' locks and process slots either.
 */
export const START_PARAMS: readonly string[] = [
  ...PGlite.defaultStartParams,
  ...['shared_buffers=16MB', 'max_connections=8'].flatMap((setting) => ['-c', setting]),
];

const run = promisify(execFile);

/** Where PGlite's share directory is (pglite.data, read at each start unless given as `fsBundle`). */
export const pgliteFsBundlePath = () => fileURLToPath(new URL('./pglite.data', import.meta.resolve('@electric-sql/pglite')));

/**
 * PostgreSQL compiled to WebAssembly: compiled once per process and shared by every PGlite in
 * it (tests open dozens), instead of once per instance.
 */
let compiled: Promise<WebAssembly.Module> | null = null;
function pgliteWasmModule(): Promise<WebAssembly.Module> {
  compiled ??= readFile(fileURLToPath(new URL('./pglite.wasm', import.meta.resolve('@electric-sql/pglite')))).then((bytes) => WebAssembly.compile(bytes));
  return compiled;
}

/**
 * Creates the database files in `directory` unless they are there, in a child process (see
 * pglite-initdb.mjs for why): on the first start only, while this process compiles its own
 * module.
 */
async function createDatabaseFiles(directory: string): Promise<void> {
  mkdirSync(directory, { recursive: true });
  if (existsSync(path.join(directory, 'PG_VERSION'))) return;
  try {
    // Resolved here, not at import: under a browser-like test environment (jsdom) this module's
    // URL is not a file: URL, and only an on-disk database needs the script.
    const initdbEntry = fileURLToPath(new URL('./pglite-initdb.mjs', import.meta.url));
    await run(process.execPath, [initdbEntry, directory, JSON.stringify(START_PARAMS)], { maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new Error(`Could not create the embedded database in ${directory}${stderr ? `: ${stderr}` : ''}`, { cause: error });
  }
}

export interface PGliteOptions {
  /**
   * The files to start from (a tar, as PGlite's dumpDataDir writes it) instead of running
   * initdb, for an in-memory database or a directory holding none yet: tests load one made
   * once per run.
   */
  template?: Blob;
  /** PostgreSQL settings over START_PARAMS' (`name=value`), e.g. the tests' smaller buffers. */
  settings?: readonly string[];
  /**
   * PGlite's own files (its pglite.data: PostgreSQL's share directory), which it otherwise reads
   * from disk at each start: tests that open a few hundred databases read them once.
   */
  fsBundle?: Blob;
}

/**
 * The embedded database: PGlite (PostgreSQL compiled to WebAssembly) keeping its files in
 * `directory`, or in memory when `directory` is undefined (tests).
 *
 * PGlite runs one backend, so its transactions are serialised by PGlite itself; LISTEN/NOTIFY
 * works within this process, which is all the embedded mode has. Queries and transactions take
 * turns through a {@link QueryGate}: the event loop between two, and requests in turn with the
 * service's own work.
 */
export async function openPGliteDatabase(directory: string | undefined, options: PGliteOptions = {}): Promise<Database> {
  const module = pgliteWasmModule();
  // Awaited below unless creating the files fails first, which is then the error to report.
  module.catch(() => undefined);
  const fromTemplate = options.template && (!directory || !existsSync(path.join(directory, 'PG_VERSION'))) ? options.template : null;
  if (directory && fromTemplate) mkdirSync(directory, { recursive: true });
  else if (directory) await createDatabaseFiles(directory);
  const pglite = await PGlite.create({
    ...(directory ? { dataDir: directory } : {}),
    ...(fromTemplate ? { loadDataDir: fromTemplate } : {}),
    startParams: [...START_PARAMS, ...(options.settings ?? []).flatMap((setting) => ['-c', setting])],
    pgliteWasmModule: await module,
    ...(options.fsBundle ? { fsBundle: options.fsBundle } : {}),
  });

  const wrap = (runner: Pick<PGlite, 'query'>): Queryable => ({
    async query<Row>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<Row>> {
      const result = await runner.query<Row>(sql, params as unknown[]);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
  });
  const base = wrap(pglite);
  const gate = new QueryGate();

  const database: Database = {
    kind: 'pglite',
    query<Row>(sql: string, params?: readonly unknown[]) {
      return gate.run(() => base.query<Row>(sql, params));
    },
    async exec(sql: string) {
      await gate.run(() => pglite.exec(sql));
    },
    // The transaction's own queries go straight to it: it holds PGlite until it ends.
    transaction: (work) => gate.run(() => pglite.transaction((tx) => work(wrap(tx)))),
    async listen(channel: string, handler: NotificationHandler) {
      const unlisten = await pglite.listen(channel, handler);
      return async () => {
        if (!pglite.closed) await unlisten();
      };
    },
    // One process owns PGlite's files, so it is always the only contender for any lock.
    async openLockSession() {
      return { tryLock: async () => true, unlock: async () => {}, onLost: () => {}, close: async () => {} };
    },
    async close() {
      if (!pglite.closed) await pglite.close();
    },
  };
  instances.set(database, pglite);
  return database;
}

/** The PGlite behind each database openPGliteDatabase opened (for dumpPGliteFiles). */
const instances = new WeakMap<Database, PGlite>();

/**
 * The files of a database openPGliteDatabase opened, as a tar (what `template` takes), written
 * out first: the tests make their databases' templates so.
 */
export async function dumpPGliteFiles(db: Database): Promise<Blob> {
  const pglite = instances.get(db);
  if (!pglite) throw new Error('Not a PGlite database opened by openPGliteDatabase');
  await pglite.query('CHECKPOINT');
  return pglite.dumpDataDir('none');
}
