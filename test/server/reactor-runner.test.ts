/**
 * The reactor runner on real databases follows the projections' rule: a handler that keeps
 * failing on one event, with the database answering, gets that event parked under the
 * reactor's name (checkpoint moved past it, logged at error level), and the reactor goes on
 * with the events after it; transient failures (a dropped connection) are retried as long as
 * they last and never park anything.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatPosition } from '../../events/position.js';
import { readCheckpoint } from '../../projections/checkpoints.js';
import { listDeadLetters } from '../../projections/dead-letters.js';
import { ReactorRunner, type Reactor } from '../../server/billing/reactor-runner.js';
import { PostgresEventStore } from '../../server/event-store/postgres-event-store.js';
import type { RecordedEvent } from '../../ports/event-store.js';
import { databaseTargets, type TestDatabase } from '../support/databases.js';
import { newEvent } from '../support/events.js';

/** Quick retries, so a poisoned event is reached in milliseconds. */
const quickRetry = { retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 5 } };

/** A reactor that records every event it handles and fails on events of one type (up to `times`). */
function ledgerReactor(failOn: { type: string; times?: number; error?: () => Error }) {
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

  it('parks the event its handler keeps failing on, and handles the events after it', async () => {
    const { before, poison, after, later, last } = await givenPoisonAmongTicks();
    const ledger = ledgerReactor({ type: 'Poison' });
    const logger = recordingLogger();
    runner = new ReactorRunner(database.db, store, ledger.reactor, logger, quickRetry);
    await runner.start();

    await runner.waitFor(last);

    // Each event before and after it handled once; the poisoned one tried `attempts` times, then parked.
    expect(ledger.handled).toEqual([before.id, after.id, later.id]);
    expect(ledger.failures()).toBe(3);
    const [recordedPoison] = (await store.readStream('ledger-a')).filter((event) => event.id === poison.id);
    expect(await listDeadLetters(database.db, 'test-reactor')).toEqual([
      expect.objectContaining({ projection: 'test-reactor', eventId: poison.id, type: 'Poison', stream: 'ledger-a', error: 'Error: reactor bug on Poison', attempts: 3, position: formatPosition(recordedPoison!.position) }),
    ]);
    expect(logger.errors).toContain('reactor parked a poisoned event and goes on');
    expect((await readCheckpoint(database.db, 'test-reactor'))?.position).toEqual(last);

    // A restart resumes after it: nothing is handled again, nothing parked twice.
    await runner.stop();
    runner = new ReactorRunner(database.db, store, ledger.reactor, logger, quickRetry);
    await runner.start();
    const next = await store.append('ledger-c', [newEvent('Tick')], 'no_stream');
    await runner.waitFor(next.position);
    expect(ledger.handled).toHaveLength(4);
    expect(ledger.failures()).toBe(3);
    expect(await listDeadLetters(database.db, 'test-reactor')).toHaveLength(1);
  });

  it('retries a transient failure (a dropped connection) past the bound and never parks the event', async () => {
    const { before, poison, after, later, last } = await givenPoisonAmongTicks();
    const dropped = () => Object.assign(new Error('Connection terminated unexpectedly'), { code: '08006' });
    // Ten failures, more than three times the bound of three.
    const ledger = ledgerReactor({ type: 'Poison', times: 10, error: dropped });
    runner = new ReactorRunner(database.db, store, ledger.reactor, recordingLogger(), quickRetry);
    await runner.start();

    await runner.waitFor(last);

    expect(ledger.failures()).toBe(10);
    expect(ledger.handled).toEqual([before.id, poison.id, after.id, later.id]);
    expect(await listDeadLetters(database.db, 'test-reactor')).toEqual([]);
  });

  it('a failure that goes away before the bound is retried in place and parks nothing', async () => {
    const { before, poison, after, later, last } = await givenPoisonAmongTicks();
    const ledger = ledgerReactor({ type: 'Poison', times: 2 });
    runner = new ReactorRunner(database.db, store, ledger.reactor, recordingLogger(), quickRetry);
    await runner.start();

    await runner.waitFor(last);

    // Retried on the event itself: the tick before it is not handled again.
    expect(ledger.handled).toEqual([before.id, poison.id, after.id, later.id]);
    expect(await listDeadLetters(database.db, 'test-reactor')).toEqual([]);
  });
});
