/**
 * The PostgreSQL event store's horizon watch (server/event-store/postgres-event-store.ts): a
 * subscription that has read everything reads the log again only when an append's notice or a
 * move of the snapshot's xmin says something may have become readable, instead of every 250 ms
 * each (an idle test server made some 46 reads a second, 6% of a core). That events an older
 * transaction held back come once it ends, with no notice, is the contract suite's
 * ("holds back events behind a transaction that stays open", on PostgreSQL).
 *
 * On PGlite only: a database of this process's own, which nothing else writes to, so its xmin
 * stays put while the subscriptions rest (a PostgreSQL server's moves with every other test
 * database's writes).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../ports/database.js';
import type { RecordedEvent } from '../../ports/event-store.js';
import { PostgresEventStore } from '../../server/event-store/postgres-event-store.js';
import { pgliteTarget, type TestDatabase } from '../support/databases.js';
import { newEvent } from '../support/events.js';
import { until } from '../support/until.js';

const when = (holds: () => boolean, what: string) => until(async () => holds(), (value) => value, what);

const tally = { logReads: 0, horizonReads: 0 };

/** The database, its log reads and horizon queries counted. */
function counted(db: Database): Database {
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property === 'query') {
        return (sql: string, params?: unknown[]) => {
          if (sql.includes('es_read_all')) tally.logReads++;
          if (sql.includes('pg_snapshot_xmin')) tally.horizonReads++;
          return target.query(sql, params);
        };
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

let database: TestDatabase;
let store: PostgresEventStore;
beforeAll(async () => {
  database = await pgliteTarget.open();
  store = await PostgresEventStore.open(counted(database.db));
});
afterAll(async () => {
  await store?.close();
  await database?.dispose();
});

it('subscriptions at rest read the log only when an append or the horizon says so', async () => {
  const received: RecordedEvent[][] = [[], [], []];
  const subscriptions = received.map((events, index) =>
    store.subscribeToAll({ ...(index === 2 ? { filter: { streamPrefixes: ['other-'] } } : {}) }, { onEvents: async (batch) => void events.push(...batch) }),
  );
  try {
    await store.append('shop-1', [newEvent('Opened')], 'no_stream');
    await when(() => received[0]!.length === 1 && received[1]!.length === 1, 'the first event with both unfiltered subscriptions');
    // The append's commit moved the horizon: let the watch see that, then count.
    const settled = tally.horizonReads + 2;
    await when(() => tally.horizonReads >= settled, 'two looks at the horizon');
    const [reads, ticks] = [tally.logReads, tally.horizonReads];
    await when(() => tally.horizonReads >= ticks + 4, 'four more looks at the horizon');
    expect(tally.logReads - reads, 'log reads while nothing changed, over four looks at the horizon').toBe(0);

    // An append still reaches the subscriptions that read its stream at once.
    await store.append('other-1', [newEvent('Opened')], 'no_stream');
    await when(() => received.every((events) => events.some((event) => event.stream === 'other-1')), 'the second event with all three');
    expect(received[2]!.map((event) => event.stream)).toEqual(['other-1']);
  } finally {
    await Promise.all(subscriptions.map((subscription) => subscription.stop()));
  }
});
