/**
 * The event stores the contract suite runs against: PostgresEventStore on an in-memory
 * PGlite always, on a real PostgreSQL server when `DATABASE_URL` is set, and the KurrentDB
 * adapter when `EVENTSTORE_URL` is set (e.g. `kurrentdb://localhost:2113?tls=false`).
 *
 * A PostgreSQL target gets a database of its own; a KurrentDB server keeps every stream of
 * every earlier run, so each `open()` gives a prefix of its own for stream names, and a test
 * must find where the log ends by appending rather than by reading it all.
 */
import { randomUUID } from 'node:crypto';
import type { EventStore } from '../../ports/event-store.js';
import { openKurrentDBEventStore } from '../../server/event-store/kurrentdb-event-store.js';
import { PostgresEventStore } from '../../server/event-store/postgres-event-store.js';
import { databaseTargets, type DatabaseTarget, type TestDatabase } from './databases.js';

export interface TestEventStore {
  store: EventStore;
  /** Put before every stream name: unique to this `open()`. */
  prefix: string;
  /** The PostgreSQL database under the store, for raw SQL (PostgreSQL targets only). */
  database: TestDatabase | null;
  dispose(): Promise<void>;
}

export interface EventStoreTarget {
  name: 'pglite' | 'postgres' | 'kurrentdb';
  open(): Promise<TestEventStore>;
}

export const eventStoreUrl = process.env.EVENTSTORE_URL || null;

function uniquePrefix(): string {
  return `t${randomUUID().replace(/-/g, '').slice(0, 12)}-`;
}

function onDatabase(target: DatabaseTarget): EventStoreTarget {
  return {
    name: target.name,
    async open() {
      const database = await target.open();
      const store = await PostgresEventStore.open(database.db);
      return {
        store,
        prefix: uniquePrefix(),
        database,
        async dispose() {
          await store.close();
          await database.dispose();
        },
      };
    },
  };
}

export const kurrentdbTarget: EventStoreTarget = {
  name: 'kurrentdb',
  async open() {
    if (!eventStoreUrl) throw new Error('EVENTSTORE_URL is not set');
    const store = await openKurrentDBEventStore(eventStoreUrl);
    return { store, prefix: uniquePrefix(), database: null, dispose: () => store.close() };
  },
};

/** PGlite; PostgreSQL when `DATABASE_URL` is set; KurrentDB when `EVENTSTORE_URL` is set. */
export const eventStoreTargets: EventStoreTarget[] = [
  ...databaseTargets.map(onDatabase),
  ...(eventStoreUrl ? [kurrentdbTarget] : []),
];
