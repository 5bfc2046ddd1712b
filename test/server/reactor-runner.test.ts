/**
 * The reactor runner on real databases follows the projections' rule: a handler that keeps
 * failing on one event, with the database answering, gets that event's stream (one customer)
 * set aside under the reactor's name (checkpoint moved past it, logged at error level): the
 * stream's later events are skipped, every other stream goes on, and a start with the fix
 * hands the stream's events to the handler again in order. Transient failures (a dropped
 * connection) are retried as long as they last and never set anything aside.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatPosition } from '../../events/position.js';
import { readCheckpoint } from '../../projections/checkpoints.js';
import { listSetAsideStreams } from '../../projections/set-aside-streams.js';
import { ReactorRunner, type Reactor } from '../../server/billing/reactor-runner.js';
import { PostgresEventStore } from '../../server/event-store/postgres-event-store.js';
import type { RecordedEvent } from '../../ports/event-store.js';
import { databaseTargets, type TestDatabase } from '../support/databases.js';
import { newEvent } from '../support/events.js';

/** Quick retries, so a poisoned event is reached in milliseconds. */
const quickRetry = { retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 5 } };

/** A reactor that records every event it handles and fails on events of one type (up to `times`). */
function ledgerReactor(failOn: { type: string; times?: number; error?: () => Error }) {
  // Mutable: a test deploys the fix by changing `type`.
  const handled: string[] = [];
  let failures = 0;
  const reactor: Reactor = {
    name: 'test-reactor',
    streamPrefixes: ['ledger-'],
    async handle(event: RecordedEvent) {
      if (event.type === failOn.type && failures < (failOn.times ?? Infinity)) {
        failures++;
        throw failOn.error?.() ?? new Error(`reactor bug on ${event.type}`);
      }
      handled.push(event.id);
    },
  };
  return { reactor, handled, failures: () => failures };
}

function recordingLogger() {
  const errors: string[] = [];
  return { errors, error: (_details: object, message: string) => errors.push(message), warn: () => {} };
}

describe.each(databaseTargets)('reactor runner on $name', (target) => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  let runner: ReactorRunner | null = null;

  beforeEach(async () => {
    database = await target.open();
    store = await PostgresEventStore.open(database.db);
  });
  afterEach(async () => {
    await runner?.stop();
    runner = null;
    await store.close();
    await database.dispose();
  });

  /** Given a tick, a poisoned event and a tick in one batch, then a tick in a later append. */
  async function givenPoisonAmongTicks() {
    const before = newEvent('Tick');
    const poison = newEvent('Poison');
    const after = newEvent('Tick');
    await store.append('ledger-a', [before, poison, after], 'no_stream');
    const later = newEvent('Tick');
    const last = await store.append('ledger-b', [later], 'no_stream');
    return { before, poison, after, later, last: last.position };
  }

  const setAside = async () => (await listSetAsideStreams(database.db, ['test-reactor'])).map(({ stream, eventId, skipped }) => ({ stream, eventId, skipped }));

  it('passes batches of types it does not act on without a query, and writes its checkpoint past them a moment later', async () => {
    // A reactor acting on Tick only, on a database counting queries.
    const ledger = ledgerReactor({ type: 'Never' });
    const ticks: Reactor = { ...ledger.reactor, eventTypes: new Set(['Tick']) };
    let queries = 0;
    const db = database.db;
    const counting = { ...db, kind: db.kind, query: (sql: string, params?: readonly unknown[]) => (sql.includes('es_read_all') || queries++, db.query(sql, params)), exec: (sql: string) => db.exec(sql), transaction: db.transaction.bind(db), listen: db.listen.bind(db), openLockSession: db.openLockSession.bind(db), close: () => db.close() } as typeof db;
    runner = new ReactorRunner(counting, store, ticks, recordingLogger(), quickRetry);
    await runner.start();
    const first = await store.append('ledger-a', [newEvent('Tick')], 'no_stream');
    await runner.waitFor(first.position);
    expect(ledger.handled).toHaveLength(1);

    // When ten events it does not act on go by, one append each
    queries = 0;
    let passed = first.position;
    for (let i = 0; i < 10; i++) passed = (await store.append('ledger-a', [newEvent('Edited')], 'any')).position;
    await runner.waitFor(passed);
    // Then it passed them with no query (neither the set-aside streams nor its checkpoint), and handled nothing
    expect(queries).toBe(0);
    expect(ledger.handled).toHaveLength(1);
    // And a moment later its checkpoint is past them
    const deadline = Date.now() + 5_000;
    while (formatPosition((await readCheckpoint(database.db, 'test-reactor'))!.position) !== formatPosition(passed) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(formatPosition((await readCheckpoint(database.db, 'test-reactor'))!.position)).toBe(formatPosition(passed));

    // Events it acts on are handled as ever; a stop leaves the checkpoint where it is
    const second = newEvent('Tick');
    const tick = await store.append('ledger-a', [newEvent('Edited'), second], 'any');
    await runner.waitFor(tick.position);
    expect(ledger.handled).toContain(second.id);
    const last = await store.append('ledger-a', [newEvent('Edited')], 'any');
    await runner.waitFor(last.position);
    await runner.stop();
    runner = null;
    expect(formatPosition((await readCheckpoint(database.db, 'test-reactor'))!.position)).toBe(formatPosition(last.position));
  });

  it('sets aside the stream of the event its handler keeps failing on, skips that stream, handles the others, and a start with the fix repairs it', async () => {
    const { before, poison, after, later, last } = await givenPoisonAmongTicks();
    const failOn = { type: 'Poison' };
    const ledger = ledgerReactor(failOn);
    const logger = recordingLogger();
    runner = new ReactorRunner(database.db, store, ledger.reactor, logger, quickRetry);
    await runner.start();

    await runner.waitFor(last);

    // The tick before it handled once; the poisoned one tried `attempts` times, then its
    // stream set aside: the tick after it in that stream waits, the other stream's is handled.
    expect(ledger.handled).toEqual([before.id, later.id]);
    expect(ledger.failures()).toBe(3);
    const [recordedPoison] = (await store.readStream('ledger-a')).filter((event) => event.id === poison.id);
    expect(await listSetAsideStreams(database.db, ['test-reactor'])).toEqual([
      expect.objectContaining({ projection: 'test-reactor', eventId: poison.id, type: 'Poison', stream: 'ledger-a', error: 'Error: reactor bug on Poison', attempts: 3, position: formatPosition(recordedPoison!.position), skipped: 1 }),
    ]);
    expect(logger.errors).toContain('reactor set aside a stream it could not handle; the other streams go on');
    expect((await readCheckpoint(database.db, 'test-reactor'))?.position).toEqual(last);

    // A restart without a fix: still set aside, nothing handled again, later events of other streams handled.
    await runner.stop();
    runner = new ReactorRunner(database.db, store, ledger.reactor, logger, quickRetry);
    await runner.start();
    const next = await store.append('ledger-c', [newEvent('Tick')], 'no_stream');
    await runner.waitFor(next.position);
    expect(ledger.handled).toHaveLength(3);
    expect(await setAside()).toEqual([{ stream: 'ledger-a', eventId: poison.id, skipped: 1 }]);

    // The fix deployed, a start repairs the stream: its events handed over in order, once.
    await runner.stop();
    failOn.type = 'NothingFails';
    runner = new ReactorRunner(database.db, store, ledger.reactor, logger, quickRetry);
    await runner.start();
    const afterFix = await store.append('ledger-a', [newEvent('Tick')], 2n);
    await runner.waitFor(afterFix.position);
    expect(ledger.handled.slice(3, 5)).toEqual([poison.id, after.id]);
    expect(ledger.handled).toHaveLength(6);
    expect(await setAside()).toEqual([]);
  });

  it('retries a transient failure (a dropped connection) past the bound and never sets the stream aside', async () => {
    const { before, poison, after, later, last } = await givenPoisonAmongTicks();
    const dropped = () => Object.assign(new Error('Connection terminated unexpectedly'), { code: '08006' });
    // Ten failures, more than three times the bound of three.
    const ledger = ledgerReactor({ type: 'Poison', times: 10, error: dropped });
    runner = new ReactorRunner(database.db, store, ledger.reactor, recordingLogger(), quickRetry);
    await runner.start();

    await runner.waitFor(last);

    expect(ledger.failures()).toBe(10);
    expect(ledger.handled).toEqual([before.id, poison.id, after.id, later.id]);
    expect(await setAside()).toEqual([]);
  });

  it('a failure that goes away before the bound is retried in place and sets nothing aside', async () => {
    const { before, poison, after, later, last } = await givenPoisonAmongTicks();
    const ledger = ledgerReactor({ type: 'Poison', times: 2 });
    runner = new ReactorRunner(database.db, store, ledger.reactor, recordingLogger(), quickRetry);
    await runner.start();

    await runner.waitFor(last);

    // Retried on the event itself: the tick before it is not handled again.
    expect(ledger.handled).toEqual([before.id, poison.id, after.id, later.id]);
    expect(await setAside()).toEqual([]);
  });
});
