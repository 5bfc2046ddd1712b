import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import type { Database, NotificationHandler, Queryable, QueryResult } from './database.js';

/**
 * The embedded database: PGlite (PostgreSQL compiled to WebAssembly) keeping its files in
 * `directory`, or in memory when `directory` is undefined (tests).
 *
 * PGlite runs one backend, so its transactions are serialised by PGlite itself; LISTEN/NOTIFY
 * works within this process, which is all the embedded mode has.
 */
export async function openPGliteDatabase(directory: string | undefined): Promise<Database> {
  if (directory) mkdirSync(directory, { recursive: true });
  const pglite = directory ? await PGlite.create(directory) : await PGlite.create();

  const wrap = (runner: Pick<PGlite, 'query'>): Queryable => ({
    async query<Row>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<Row>> {
      const result = await runner.query<Row>(sql, params as unknown[]);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
  });
  const base = wrap(pglite);

  return {
    kind: 'pglite',
    query: base.query,
    async exec(sql: string) {
      await pglite.exec(sql);
    },
    transaction: (work) => pglite.transaction((tx) => work(wrap(tx))),
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
}
