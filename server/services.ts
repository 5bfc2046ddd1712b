/** Opens everything the app needs from the configuration: database, event store, auth. */
import type { Services } from './app.js';
import { LocalAccounts } from './auth/local-accounts.js';
import { randomIds, systemClock, type Clock, type IdGenerator } from './clock.js';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { openDatabase } from './db/open-database.js';
import { PostgresEventStore } from './event-store/postgres-event-store.js';

export async function openServices(
  config: Config,
  options: { db?: Database; clock?: Clock; ids?: IdGenerator } = {},
): Promise<Services & { close(): Promise<void> }> {
  const db = options.db ?? (await openDatabase(config));
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? randomIds;
  const store = await PostgresEventStore.open(db);
  const localAccounts = await LocalAccounts.open(db, clock, ids, config.adminEmails);
  return {
    config,
    db,
    store,
    auth: localAccounts,
    localAccounts,
    clock,
    ids,
    async close() {
      await store.close();
      await db.close();
    },
  };
}
