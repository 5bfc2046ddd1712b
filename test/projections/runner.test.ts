/**
 * The projection runner on real databases: events and checkpoint in one transaction, so a
 * runner stopped (or failing) mid-stream resumes with no duplicate and no gap; rebuilds replay
 * from zero; changes are announced after commit; an event that keeps failing sets its stream
 * aside (its later events skipped, every other stream going on) instead of wedging or stopping
 * the projection, until a repair applies the stream again; transient failures never set aside.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyMapDocument, MapDocument } from '../../events/map-document.js';
import { comparePositions, maxPosition, START } from '../../events/position.js';
import { streams } from '../../events/streams.js';
import { LIVE_CHANNEL, LiveNotice } from '../../projections/live-notices.js';
import { getMapData, mapDataProjection } from '../../projections/map-data.js';
import { listMapsByOwner, mapsListProjection } from '../../projections/maps-list.js';
import { readCheckpoint } from '../../projections/checkpoints.js';
import type { Projection } from '../../projections/projection.js';
import { ProjectionRunner, type RunnerLogger } from '../../projections/runner.js';
import { listSetAsideStreams } from '../../projections/set-aside-streams.js';
import { PostgresEventStore } from '../../server/event-store/postgres-event-store.js';
import { databaseTargets, type TestDatabase } from '../support/databases.js';
import { newEvent } from '../support/events.js';

interface FailOn {
  type: string;
  /** How many times it fails on that event type (forever when unset). */
  times?: number;
  /** What it throws; a plain Error by default. */
  error?: () => Error;
  /** Runs inside the transaction instead of throwing (to break the real connection). */
  sql?: string;
}

/** Records every event it applies under a primary key: a duplicate fails, a gap shows in the count. */
function ledgerProjection(failOn?: FailOn): Projection {
  let failures = 0;
  return {
    name: 'test_ledger',
    version: 1,
    schema: 'CREATE TABLE IF NOT EXISTS test_ledger (event_id uuid PRIMARY KEY, seq bigserial)',
    tables: ['test_ledger'],
    streamPrefixes: ['ledger-'],
    async apply(tx, events) {
      for (const event of events) {
        if (failOn && event.type === failOn.type && failures < (failOn.times ?? Infinity)) {
          failures++;
          if (failOn.sql) await tx.query(failOn.sql);
          else throw failOn.error?.() ?? new Error(`projection bug on ${event.type}`);
        }
        await tx.query('INSERT INTO test_ledger (event_id) VALUES ($1)', [event.id]);
      }
    },
  };
}

/** Quick retries, so a poisoned event is reached in milliseconds. */
const quickRetry = { retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 5 } };

/** A logger that keeps what the runner logs at error level. */
function recordingLogger(): RunnerLogger & { errors: string[] } {
  const errors: string[] = [];
  return { errors, error: (_details, message) => errors.push(message), warn: () => {}, info: () => {} };
}

async function until(predicate: () => Promise<boolean> | boolean, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const mapCreated = (mapId: string, uid: string, title: string) =>
  newEvent('MapCreated', { mapId, uid, author: uid, title, state: 0, document: emptyMapDocument(), created: new Date().toISOString() }, uid);

describe.each(databaseTargets)('projection runner on $name', (target) => {
  let database: TestDatabase;
  let store: PostgresEventStore;

  beforeEach(async () => {
    database = await target.open();
    store = await PostgresEventStore.open(database.db);
  });
  afterEach(async () => {
    await store.close();
    await database.dispose();
  });

  const ledgerCount = async () =>
    Number((await database.db.query<{ n: string }>('SELECT count(*)::text AS n FROM test_ledger')).rows[0]!.n);
  const ledgerIds = async () =>
    (await database.db.query<{ event_id: string }>('SELECT event_id::text FROM test_ledger ORDER BY seq')).rows.map((row) => row.event_id);

  /** Given a stream of ticks with one Poison event in the middle (in one batch with them). */
  async function givenPoisonAmongTicks() {
    const before = newEvent('Tick');
    const poison = newEvent('Poison');
    const after = newEvent('Tick');
    await store.append('ledger-a', [before, poison], 'no_stream');
    const last = await store.append('ledger-b', [after], 'no_stream');
    return { before, poison, after, last: last.position };
  }

  it('given map events, then the maps list and map data rows exist', async () => {
    const runner = new ProjectionRunner(database.db, store, [mapsListProjection, mapDataProjection]);
    await runner.start();
    const document = { version: 1 as const, layers: [{ id: 'l1', name: 'Ground' }], locations: [{ id: 'a', title: 'Cafe' }, { id: 'b', title: 'Bank' }] };
    await store.append(streams.map('m1'), [newEvent('MapCreated', { mapId: 'm1', uid: 'ana', author: 'ana', title: 'Mall', state: 0, document, created: '2026-11-20T09:00:00.000Z' })], 'no_stream');
    const saved = await store.append(streams.map('m1'), [newEvent('MapSaved', { mapId: 'm1', title: 'Mall East', edited: '2026-11-21T09:00:00.000Z' })], 0n);
    await runner.waitFor(saved.position);
    expect(await listMapsByOwner(database.db, 'ana')).toEqual([
      {
        id: 'm1',
        title: 'Mall East',
        uid: 'ana',
        author: 'ana',
        created: '2026-11-20T09:00:00.000Z',
        edited: '2026-11-21T09:00:00.000Z',
        state: 0,
        subscribed: false,
        metrics: { layerCount: 1, locationCount: 2 },
        history: [],
      },
    ]);
    // The event holds a version 1 document: the read model keeps it migrated to today's model.
    const stored = await getMapData(database.db, 'm1');
    expect(stored).toEqual({ id: 'm1', uid: 'ana', title: 'Mall East', data: MapDocument.parse(document), revision: '1', history: [] });
    expect(stored!.data).toMatchObject({ version: 3, layers: [{ id: 'l1', name: 'Ground', file: null }], locations: [{ id: 'a', title: 'Cafe', layer: 'l1', marker: 'pin' }, { id: 'b', title: 'Bank', layer: 'l1' }] });

    const deleted = await store.append(streams.map('m1'), [newEvent('MapDeleted', { mapId: 'm1', deletedAt: new Date().toISOString() })], 1n);
    await runner.waitFor(deleted.position);
    expect(await listMapsByOwner(database.db, 'ana')).toEqual([]);
    expect(await getMapData(database.db, 'm1')).toBeNull();
    expect(await store.readStream(streams.map('m1'))).toHaveLength(3);
    await runner.stop();
  });

  it('stopped mid-stream and started again, it applies every event exactly once', async () => {
    const total = 600;
    let last = START;
    for (let i = 0; i < total / 6; i++) {
      const appended = await store.append(`ledger-${i % 7}`, Array.from({ length: 6 }, () => newEvent('Tick')), 'any');
      last = maxPosition(last, appended.position);
    }
    // Small batches, each a little slow, so the stop lands mid-stream.
    const slow = { ...ledgerProjection(), apply: async (...args: Parameters<Projection['apply']>) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return ledgerProjection().apply(...args);
    } };
    const first = new ProjectionRunner(database.db, store, [slow], undefined, { batchSize: 25 });
    await first.start();
    await until(async () => (await ledgerCount()) > 0);
    await first.stop();
    const appliedAtStop = await ledgerCount();
    expect(appliedAtStop).toBeGreaterThan(0);
    expect(appliedAtStop).toBeLessThan(total);
    expect(appliedAtStop % 25).toBe(0);

    const second = new ProjectionRunner(database.db, store, [ledgerProjection()], undefined, { batchSize: 25 });
    await second.start();
    await second.waitFor(last);
    await second.stop();
    expect(await ledgerCount()).toBe(total);
  });

  it('a batch that fails is rolled back with its checkpoint, and retried', async () => {
    const runner = new ProjectionRunner(database.db, store, [ledgerProjection({ type: 'Boom', times: 2 })]);
    await runner.start();
    await store.append('ledger-a', [newEvent('Tick'), newEvent('Tick')], 'no_stream');
    const boom = await store.append('ledger-a', [newEvent('Tick'), newEvent('Boom'), newEvent('Tick')], 1n);
    await runner.waitFor(boom.position);
    await runner.stop();
    expect(await ledgerCount()).toBe(5);
  });

  const setAside = async () => (await listSetAsideStreams(database.db, ['test_ledger'])).map(({ stream, eventId, skipped }) => ({ stream, eventId, skipped }));

  it('an event that keeps failing sets its stream aside past the checkpoint; its later events are skipped, the other streams go on', async () => {
    const { before, poison, after } = await givenPoisonAmongTicks();
    const logger = recordingLogger();
    const runner = new ProjectionRunner(database.db, store, [ledgerProjection({ type: 'Poison' })], logger, quickRetry);
    await runner.start();
    // The set-aside stream's next event is skipped (and recorded); another stream's is applied.
    const skipped = newEvent('Tick');
    await store.append('ledger-a', [skipped], 1n);
    const other = newEvent('Tick');
    const last = await store.append('ledger-c', [other], 'no_stream');
    await runner.waitFor(last.position);
    await runner.stop();
    expect(await ledgerIds()).toEqual([before.id, after.id, other.id]);
    const [record] = await listSetAsideStreams(database.db, ['test_ledger']);
    expect(record).toMatchObject({ projection: 'test_ledger', stream: 'ledger-a', eventId: poison.id, type: 'Poison', error: 'Error: projection bug on Poison', skipped: 1 });
    // Three failures in its batch, three more alone.
    expect(record!.attempts).toBe(6);
    expect((await readCheckpoint(database.db, 'test_ledger'))!.position).toEqual(last.position);
    expect(logger.errors).toContain('projection set aside a stream it could not apply; its later events are skipped until a repair, the other streams go on');
  });

  it('a restart keeps the set-aside stream and goes on; once fixed, a start or a repair applies its events in log order and clears it', async () => {
    const { before, poison, after } = await givenPoisonAmongTicks();
    const failOn: FailOn = { type: 'Poison' };
    const first = new ProjectionRunner(database.db, store, [ledgerProjection(failOn)], undefined, quickRetry);
    await first.start();
    const skipped = newEvent('Tick');
    await first.waitFor((await store.append('ledger-a', [skipped], 1n)).position);
    await first.stop();

    // Restarted without a fix: still set aside (tried again at start), and still following.
    const second = new ProjectionRunner(database.db, store, [ledgerProjection(failOn)], undefined, quickRetry);
    await second.start();
    const more = newEvent('Tick');
    await second.waitFor((await store.append('ledger-b', [more], 0n)).position);
    expect(await setAside()).toEqual([{ stream: 'ledger-a', eventId: poison.id, skipped: 1 }]);
    expect(await ledgerIds()).toEqual([before.id, after.id, more.id]);

    // The fix is deployed in the running process: a repair applies the stream from its failed event on.
    failOn.type = 'NothingFails';
    const report = await second.repair();
    expect(report.repaired.map((record) => record.stream)).toEqual(['ledger-a']);
    expect(report.stillFailing).toEqual([]);
    expect(await setAside()).toEqual([]);
    expect(await ledgerIds()).toEqual([before.id, after.id, more.id, poison.id, skipped.id]);
    // Its next events are applied as any other stream's.
    const next = newEvent('Tick');
    await second.waitFor((await store.append('ledger-a', [next], 2n)).position);
    await second.stop();
    expect((await ledgerIds()).at(-1)).toBe(next.id);
  });

  it('a start with the fix deployed repairs the set-aside streams; one still failing stays set aside', async () => {
    const { before, poison, after, last } = await givenPoisonAmongTicks();
    const broken = new ProjectionRunner(database.db, store, [ledgerProjection({ type: 'Poison' })], undefined, quickRetry);
    await broken.start();
    await broken.waitFor(last);
    await broken.stop();
    const stillBroken = new ProjectionRunner(database.db, store, [ledgerProjection({ type: 'Poison' })], undefined, quickRetry);
    expect((await stillBroken.repair()).stillFailing.map((record) => record.eventId)).toEqual([poison.id]);
    expect((await listSetAsideStreams(database.db))[0]).toMatchObject({ eventId: poison.id, attempts: 7 });

    const fixed = new ProjectionRunner(database.db, store, [ledgerProjection()], undefined, quickRetry);
    await fixed.start();
    await fixed.stop();
    expect(await setAside()).toEqual([]);
    expect(await ledgerIds()).toEqual([before.id, after.id, poison.id]);
  });

  it('catching up (the rebuild command) sets streams aside by the same rule instead of failing, and a reset clears them', async () => {
    const { before, poison, after, last } = await givenPoisonAmongTicks();
    const runner = new ProjectionRunner(database.db, store, [ledgerProjection({ type: 'Poison' })], undefined, quickRetry);
    // On PostgreSQL the log's visible end waits for other databases' open transactions on the
    // server (postgres-event-store.ts): catch up again until the last event was read.
    await until(async () => {
      await runner.catchUp();
      return comparePositions(runner.positionOf('test_ledger'), last) >= 0;
    });
    expect(runner.positionOf('test_ledger')).toEqual(last);
    expect(await ledgerIds()).toEqual([before.id, after.id]);
    expect(await setAside()).toEqual([{ stream: 'ledger-a', eventId: poison.id, skipped: 0 }]);

    await runner.resetAll();
    expect(await setAside()).toEqual([]);
    expect(await ledgerCount()).toBe(0);
  });

  it('a transient failure (a dropped connection) is retried past the bound and never sets the stream aside', async () => {
    const { before, poison, after, last } = await givenPoisonAmongTicks();
    const dropped = () => Object.assign(new Error('Connection terminated unexpectedly'), { code: '08006' });
    // Ten failures, more than three times the bound of three.
    const runner = new ProjectionRunner(database.db, store, [ledgerProjection({ type: 'Poison', times: 10, error: dropped })], undefined, quickRetry);
    await runner.start();
    await runner.waitFor(last);
    await runner.stop();
    expect(await ledgerIds()).toEqual([before.id, poison.id, after.id]);
    expect(await setAside()).toEqual([]);
  });

  it.runIf(target.name === 'postgres')('a connection killed under the projection is retried and never sets the stream aside', async () => {
    const { before, poison, after, last } = await givenPoisonAmongTicks();
    // The server ends the transaction's connection (57P01, "terminating connection"), five times over.
    const killer = { type: 'Poison', times: 5, sql: 'SELECT pg_terminate_backend(pg_backend_pid())' };
    const runner = new ProjectionRunner(database.db, store, [ledgerProjection(killer)], undefined, quickRetry);
    await runner.start();
    await runner.waitFor(last);
    await runner.stop();
    expect(await ledgerIds()).toEqual([before.id, poison.id, after.id]);
    expect(await setAside()).toEqual([]);
  });

  it('rebuilds every read model from zero, and on a version change', async () => {
    const runner = new ProjectionRunner(database.db, store, [mapsListProjection]);
    await runner.start();
    await store.append(streams.map('r1'), [mapCreated('r1', 'ana', 'One')], 'no_stream');
    const second = await store.append(streams.map('r2'), [mapCreated('r2', 'ana', 'Two')], 'no_stream');
    await runner.waitFor(second.position);
    await runner.stop();
    await database.db.query(`UPDATE maps_list SET title = 'corrupted'`);

    const rebuild = new ProjectionRunner(database.db, store, [mapsListProjection]);
    await rebuild.resetAll();
    expect(rebuild.positionOf('maps_list')).toEqual(START);
    await rebuild.catchUp();
    expect((await listMapsByOwner(database.db, 'ana')).map((m) => m.title)).toEqual(['One', 'Two']);

    await database.db.query(`UPDATE maps_list SET title = 'corrupted'`);
    const bumped = new ProjectionRunner(database.db, store, [{ ...mapsListProjection, version: mapsListProjection.version + 1 }]);
    await bumped.catchUp();
    expect((await listMapsByOwner(database.db, 'ana')).map((m) => m.title)).toEqual(['One', 'Two']);
  });

  it('announces changed topics after commit', async () => {
    const notices: LiveNotice[] = [];
    const unlisten = await database.db.listen(LIVE_CHANNEL, (payload) => notices.push(LiveNotice.parse(JSON.parse(payload))));
    const runner = new ProjectionRunner(database.db, store, [mapsListProjection, mapDataProjection]);
    await runner.start();
    const result = await store.append(streams.map('n1'), [mapCreated('n1', 'ben', 'Notice')], 'no_stream');
    await runner.waitFor(result.position);
    await until(() => notices.length >= 2);
    // map_data names the map; so does maps_list, whose row decides who may see it (its state).
    expect(notices.flatMap((n) => n.topics).sort()).toEqual(['billing:ben', 'map:n1', 'map:n1', 'maps:ben']);
    expect(notices.find((n) => n.projection === 'maps_list')?.topics.sort()).toEqual(['billing:ben', 'map:n1', 'maps:ben']);
    for (const notice of notices) expect(notice.position).toBe(`${result.position.commit}:${result.position.prepare}`);
    await runner.stop();
    await unlisten();
  });

  it('passes events of types a projection does not read without a transaction, and its checkpoint row follows a moment later', async () => {
    // A projection that reads Tick only, on a database that counts transactions.
    let transactions = 0;
    const counted: typeof database.db = { ...database.db, kind: database.db.kind, query: (sql, params) => database.db.query(sql, params), exec: (sql) => database.db.exec(sql), transaction: (work) => (transactions++, database.db.transaction(work)), listen: (c, h, o) => database.db.listen(c, h, o), openLockSession: () => database.db.openLockSession(), close: () => database.db.close() };
    const ticks = { ...ledgerProjection(), eventTypes: new Set(['Tick']) };
    const runner = new ProjectionRunner(counted, store, [ticks]);
    await runner.start();
    const first = await store.append('ledger-a', [newEvent('Tick')], 'no_stream');
    await runner.waitFor(first.position);
    expect(await ledgerCount()).toBe(1);

    // When 20 events it does not read go by, one append each
    transactions = 0;
    let passed = first.position;
    for (let i = 0; i < 20; i++) passed = (await store.append('ledger-a', [newEvent('Edited')], 'any')).position;
    await runner.waitFor(passed, ['test_ledger']);
    // Then it is past them without a transaction, nothing applied, its row still at the Tick
    expect(transactions).toBe(0);
    expect(comparePositions(runner.positionOf('test_ledger'), passed)).toBe(0);
    expect(await ledgerCount()).toBe(1);
    // And a moment later the row is moved past them, in one write (no transaction)
    await until(async () => comparePositions((await readCheckpoint(database.db, 'test_ledger'))!.position, passed) === 0, 5_000);
    expect(transactions).toBe(0);

    // Events it reads are applied as ever, after more passed ones: the row is locked where it stands
    await store.append('ledger-a', [newEvent('Edited')], 'any');
    const tick = await store.append('ledger-a', [newEvent('Edited'), newEvent('Tick')], 'any');
    await runner.waitFor(tick.position, ['test_ledger']);
    expect(await ledgerCount()).toBe(2);
    expect((await readCheckpoint(database.db, 'test_ledger'))!.position).toEqual(tick.position);
    expect(transactions).toBe(1);

    // Passed events at a stop leave the row where the runner was, so a restart reads nothing twice
    const last = await store.append('ledger-a', [newEvent('Edited')], 'any');
    await runner.waitFor(last.position, ['test_ledger']);
    await runner.stop();
    expect((await readCheckpoint(database.db, 'test_ledger'))!.position).toEqual(last.position);
    const again = new ProjectionRunner(database.db, store, [ticks]);
    await again.start();
    const more = await store.append('ledger-b', [newEvent('Tick')], 'no_stream');
    await again.waitFor(more.position);
    await again.stop();
    expect(await ledgerCount()).toBe(3);
  });

  it('two runners on one database never apply a batch twice', async () => {
    const a = new ProjectionRunner(database.db, store, [ledgerProjection()]);
    const b = new ProjectionRunner(database.db, store, [ledgerProjection()]);
    await a.start();
    await b.start();
    let last = START;
    for (let i = 0; i < 50; i++) {
      last = maxPosition(last, (await store.append(`ledger-${i % 5}`, [newEvent('Tick'), newEvent('Tick')], 'any')).position);
    }
    await until(() => comparePositions(a.positionOf('test_ledger'), last) >= 0 || comparePositions(b.positionOf('test_ledger'), last) >= 0);
    await a.stop();
    await b.stop();
    expect(await ledgerCount()).toBe(100);
  });
});
