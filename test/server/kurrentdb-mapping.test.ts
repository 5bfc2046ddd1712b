/**
 * The KurrentDB adapter without a KurrentDB server: the pure translations (expected
 * revisions, errors, recorded events, exclusive starts, filters), the batching and
 * resubscribing subscription over fake sources, and the adapter itself over a fake client
 * that answers the way `@kurrent/kurrentdb-client` 1.3 documents (readAll starts AT its
 * position, subscribeToAll after it, a missing stream reads as StreamNotFoundError).
 * The live suite is test/contract with EVENTSTORE_URL set.
 */
import { createServer } from 'node:net';
import { PassThrough } from 'node:stream';
import {
  AccessDeniedError,
  KurrentDBClient,
  CancelledError,
  MaxAppendSizeExceededError,
  StreamDeletedError,
  StreamNotFoundError,
  UnavailableError,
  WrongExpectedVersionError,
  type AppendStreamState,
  type Filter,
  type ReadPosition,
} from '@kurrent/kurrentdb-client';
import { describe, expect, it } from 'vitest';
import { comparePositions, START, type Position } from '../../events/position.js';
import {
  InvalidAppendError,
  WrongExpectedRevisionError,
  type RecordedEvent,
} from '../../ports/event-store.js';
import { KurrentDBEventStore, openKurrentDBEventStore } from '../../server/event-store/kurrentdb-event-store.js';
import {
  isTransientError,
  keepAfter,
  retryDelayMs,
  toActualRevision,
  toAllFilter,
  toAppendError,
  toAppendResult,
  toReadPosition,
  toRecordedEvent,
  toStreamState,
  type ClientRecordedEvent,
} from '../../server/event-store/kurrentdb-mapping.js';
import {
  BatchPump,
  runCatchUpSubscription,
  type OpenedSource,
} from '../../server/event-store/kurrentdb-subscription.js';
import { newEvent } from '../support/events.js';

const at = (n: number): Position => ({ commit: BigInt(n), prepare: BigInt(n) });

function record(overrides: Partial<ClientRecordedEvent> = {}): ClientRecordedEvent {
  const metadata = newEvent().metadata;
  return {
    streamId: 'map-1',
    id: '0b6a8f4e-1d2c-4e5f-8a9b-0c1d2e3f4a5b',
    revision: 3n,
    type: 'LocationAdded',
    created: new Date('2025-01-02T03:04:05.000Z'),
    data: { id: 'loc-1' },
    metadata,
    isJson: true,
    position: { commit: 1200n, prepare: 1200n },
    ...overrides,
  };
}

function recorded(n: number, stream = 'map-1'): RecordedEvent {
  const event = newEvent('E', { n });
  return {
    id: event.id,
    stream,
    revision: BigInt(n),
    position: at(n * 10),
    type: 'E',
    data: { n },
    metadata: event.metadata,
    recordedAt: new Date(),
  };
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

async function until(predicate: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('Timed out waiting for condition');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** A promise with its resolve and reject outside. */
function gate() {
  let open!: () => void;
  let fail!: (error: unknown) => void;
  const promise = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}

describe('expected revisions and append answers', () => {
  it('maps each expected revision to the client stream state', () => {
    expect(toStreamState('any')).toBe('any');
    expect(toStreamState('no_stream')).toBe('no_stream');
    expect(toStreamState('stream_exists')).toBe('stream_exists');
    expect(toStreamState(0n)).toBe(0n);
    expect(toStreamState(41n)).toBe(41n);
    expect(() => toStreamState(-1n)).toThrow(InvalidAppendError);
    expect(() => toStreamState('latest' as never)).toThrow(InvalidAppendError);
  });

  it('reads the actual revision the client reports, negative markers as no stream', () => {
    expect(toActualRevision(7n)).toBe(7n);
    expect(toActualRevision(0n)).toBe(0n);
    expect(toActualRevision('no_stream')).toBe('no_stream');
    expect(toActualRevision(-1n)).toBe('no_stream');
    expect(toActualRevision(-6n)).toBe('no_stream');
    expect(toActualRevision(undefined)).toBe('no_stream');
  });

  it('takes revision and position from the answer, and looks the position up when it is missing', async () => {
    const lookups: bigint[] = [];
    const find = async (revision: bigint) => {
      lookups.push(revision);
      return at(99);
    };
    expect(await toAppendResult({ nextExpectedRevision: 4n, position: { commit: 500n, prepare: 400n } }, find)).toEqual({
      nextRevision: 4n,
      position: { commit: 500n, prepare: 400n },
    });
    expect(lookups).toEqual([]);
    expect(await toAppendResult({ nextExpectedRevision: 2n, position: undefined }, find)).toEqual({ nextRevision: 2n, position: at(99) });
    expect(lookups).toEqual([2n]);
    await expect(toAppendResult({ nextExpectedRevision: -1n, position: undefined }, find)).rejects.toThrow(/without a revision/);
  });
});

describe('client errors', () => {
  it('maps WrongExpectedVersionError to the port conflict with the actual revision', () => {
    const error = toAppendError(
      new WrongExpectedVersionError(undefined, { streamName: 'map-1', expected: 0n, current: 3n }),
      'map-1',
      0n,
    );
    expect(error).toBeInstanceOf(WrongExpectedRevisionError);
    expect(error).toMatchObject({ stream: 'map-1', expected: 0n, actual: 3n });

    const missing = toAppendError(
      new WrongExpectedVersionError(undefined, { streamName: 'map-2', expected: 'stream_exists', current: 'no_stream' }),
      'map-2',
      'stream_exists',
    );
    expect(missing).toMatchObject({ name: 'WrongExpectedRevisionError', expected: 'stream_exists', actual: 'no_stream' });
  });

  it('maps other failures to clear errors that keep the client error as cause', () => {
    const deleted = StreamDeletedError.fromStreamName('map-1');
    const deletedError = toAppendError(deleted, 'map-1', 'any');
    expect(deletedError).not.toBeInstanceOf(WrongExpectedRevisionError);
    expect(deletedError.message).toMatch(/map-1 was deleted/);
    expect(deletedError.cause).toBe(deleted);

    expect(toAppendError(MaxAppendSizeExceededError.fromMaxAppendSize(1024), 'map-1', 'any')).toBeInstanceOf(InvalidAppendError);

    const unavailable = new UnavailableError();
    const unreachable = toAppendError(unavailable, 'map-1', 'any');
    expect(unreachable.message).toMatch(/unreachable \(append to map-1\)/);
    expect(unreachable.cause).toBe(unavailable);
    // The client lets a raw gRPC error through when it cannot connect at all.
    const raw = Object.assign(new Error('14 UNAVAILABLE: No connection established'), { code: 14 });
    expect(toAppendError(raw, 'map-1', 'any').message).toMatch(/unreachable.*14 UNAVAILABLE/);

    expect(toAppendError(new AccessDeniedError(), 'map-1', 'any').message).toMatch(/refused access/);
    const other = toAppendError(new Error('boom'), 'map-1', 'any');
    expect(other.message).toBe('KurrentDB append to map-1 failed: boom');
  });

  it('tells transient failures (resubscribe) from permanent ones', () => {
    expect(isTransientError(new UnavailableError())).toBe(true);
    expect(isTransientError(new CancelledError())).toBe(true);
    expect(isTransientError(Object.assign(new Error('13 INTERNAL: RST_STREAM'), { code: 13 }))).toBe(true);
    expect(isTransientError(Object.assign(new Error('14 UNAVAILABLE'), { code: 14 }))).toBe(true);
    expect(isTransientError(new AccessDeniedError())).toBe(false);
    expect(isTransientError(Object.assign(new Error('16 UNAUTHENTICATED'), { code: 16 }))).toBe(false);
    expect(isTransientError(new Error('Event has no JSON metadata'))).toBe(false);
  });

  it('backs off from 250 ms up to 10 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map(retryDelayMs)).toEqual([250, 500, 1000, 2000, 4000, 8000, 10_000, 10_000]);
  });
});

describe('recorded events', () => {
  it('maps a resolved event to the port event', () => {
    const source = record();
    expect(toRecordedEvent({ event: source })).toEqual({
      id: source.id,
      stream: 'map-1',
      revision: 3n,
      position: { commit: 1200n, prepare: 1200n },
      type: 'LocationAdded',
      data: { id: 'loc-1' },
      metadata: source.metadata,
      recordedAt: new Date('2025-01-02T03:04:05.000Z'),
    });
  });

  it('parses metadata left as bytes, and refuses an event without metadata', () => {
    const metadata = newEvent().metadata;
    const bytes = new TextEncoder().encode(JSON.stringify(metadata));
    expect(toRecordedEvent({ event: record({ metadata: bytes }) })!.metadata).toEqual(metadata);
    expect(() => toRecordedEvent({ event: record({ metadata: undefined }) })).toThrow(/no JSON metadata/);
    expect(() => toRecordedEvent({ event: record({ metadata: new TextEncoder().encode('not json') }) })).toThrow(/no JSON metadata/);
  });

  it('skips system records, links and streams outside the prefixes', () => {
    expect(toRecordedEvent({ event: record({ type: '$metadata', streamId: '$$map-1' }) })).toBeNull();
    expect(toRecordedEvent({ event: record({ type: '$statsCollected' }) })).toBeNull();
    expect(toRecordedEvent({ event: record({ streamId: '$ce-map', type: 'LocationAdded' }) })).toBeNull();
    expect(toRecordedEvent({ event: record({ type: '$>', data: new Uint8Array([1]) }) })).toBeNull();
    expect(toRecordedEvent({ event: record(), link: record({ type: '$>', streamId: '$ce-map' }) })).toBeNull();
    expect(toRecordedEvent({})).toBeNull();
    expect(toRecordedEvent({ event: record({ streamId: 'customer-1' }) }, ['map-'])).toBeNull();
    expect(toRecordedEvent({ event: record({ streamId: 'customer-1' }) }, ['map-', 'customer-'])).not.toBeNull();
  });

  it('takes the commit position when the record has none, and refuses an event with no position at all', () => {
    expect(toRecordedEvent({ event: record({ position: undefined }), commitPosition: 77n })!.position).toEqual(at(77));
    expect(() => toRecordedEvent({ event: record({ position: undefined }) })).toThrow(/no log position/);
  });
});

describe('positions and filters', () => {
  it('starts reads at the client START for the port START, else at the position', () => {
    expect(toReadPosition(START)).toBe('start');
    expect(toReadPosition(undefined)).toBe('start');
    expect(toReadPosition(at(0))).toEqual(at(0));
    expect(toReadPosition({ commit: 20n, prepare: 10n })).toEqual({ commit: 20n, prepare: 10n });
  });

  it('keeps only the events strictly after the exclusive start', () => {
    const events = [recorded(1), recorded(2), recorded(3)];
    expect(keepAfter(events, at(20)).map((e) => e.position)).toEqual([at(30)]);
    expect(keepAfter(events, at(15)).map((e) => e.position)).toEqual([at(20), at(30)]);
    expect(keepAfter(events, START)).toHaveLength(3);
    expect(keepAfter(events, undefined)).toHaveLength(3);
    expect(keepAfter(events, at(30))).toEqual([]);
  });

  it('filters server-side on the stream prefixes, else leaves $-typed events out', () => {
    expect(toAllFilter(['map-', 'customer-'])).toMatchObject({ filterOn: 'streamName', prefixes: ['map-', 'customer-'] });
    expect(toAllFilter(undefined)).toMatchObject({ filterOn: 'eventType', regex: '^[^$].*' });
    expect(toAllFilter([])).toMatchObject({ filterOn: 'eventType' });
  });
});

describe('BatchPump', () => {
  it('delivers everything in order, in batches of at most batchSize, one delivery at a time', async () => {
    let running = 0;
    let maxRunning = 0;
    const batches: number[][] = [];
    async function* source() {
      for (let i = 0; i < 10; i++) yield i;
    }
    const pump = new BatchPump(source(), {
      batchSize: 4,
      maxBuffered: 4,
      deliver: async (batch) => {
        running += 1;
        maxRunning = Math.max(maxRunning, running);
        await tick();
        batches.push(batch);
        running -= 1;
      },
    });
    expect(await pump.done).toEqual({ kind: 'ended' });
    expect(batches.flat()).toEqual([...Array(10).keys()]);
    expect(Math.max(...batches.map((b) => b.length))).toBeLessThanOrEqual(4);
    expect(batches.length).toBeLessThan(10); // batched, not one by one
    expect(maxRunning).toBe(1);
  });

  it('stops reading the source while a delivery is running and the buffer is full', async () => {
    let pulled = 0;
    async function* source() {
      for (let i = 0; i < 1000; i++) {
        pulled += 1;
        yield i;
      }
    }
    const first = gate();
    const delivered: number[] = [];
    const pump = new BatchPump(source(), {
      batchSize: 5,
      maxBuffered: 5,
      deliver: async (batch) => {
        if (delivered.length === 0) await first.promise;
        delivered.push(...batch);
      },
    });
    for (let i = 0; i < 20; i++) await tick();
    // One batch in delivery, one buffered, and the item whose `next()` found the buffer full.
    expect(pulled).toBeLessThanOrEqual(11);
    expect(delivered).toEqual([]);
    first.open();
    expect(await pump.done).toEqual({ kind: 'ended' });
    expect(delivered).toEqual([...Array(1000).keys()]);
  });

  it('delivers what came before a source failure, then reports it', async () => {
    const failure = new Error('connection lost');
    async function* source() {
      yield 1;
      yield 2;
      throw failure;
    }
    const delivered: number[] = [];
    const pump = new BatchPump(source(), { batchSize: 10, maxBuffered: 10, deliver: async (b) => void delivered.push(...b) });
    expect(await pump.done).toEqual({ kind: 'source-error', error: failure });
    expect(delivered).toEqual([1, 2]);
  });

  it('stops at a rejected delivery: nothing more is delivered', async () => {
    const refusal = new Error('projection failed');
    async function* source() {
      for (let i = 0; ; i++) {
        yield i;
        await tick();
      }
    }
    const calls: number[][] = [];
    const pump = new BatchPump(source(), {
      batchSize: 2,
      maxBuffered: 2,
      deliver: async (batch) => {
        calls.push(batch);
        if (calls.length === 2) throw refusal;
      },
    });
    expect(await pump.done).toEqual({ kind: 'deliver-error', error: refusal });
    for (let i = 0; i < 10; i++) await tick();
    expect(calls).toHaveLength(2);
  });

  it('stop() settles only after the running delivery has', async () => {
    async function* source() {
      for (let i = 0; ; i++) {
        yield i;
        await tick();
      }
    }
    const slow = gate();
    let finished = false;
    let calls = 0;
    const pump = new BatchPump(source(), {
      batchSize: 1,
      maxBuffered: 1,
      deliver: async () => {
        calls += 1;
        await slow.promise;
        finished = true;
      },
    });
    await until(() => calls === 1);
    pump.stop();
    let settled = false;
    void pump.done.then(() => (settled = true));
    for (let i = 0; i < 10; i++) await tick();
    expect(settled).toBe(false);
    slow.open();
    expect(await pump.done).toEqual({ kind: 'stopped' });
    expect(finished).toBe(true);
    expect(calls).toBe(1);
  });
});

describe('runCatchUpSubscription', () => {
  /** A log of events and a source that replays it from a position, optionally dropping. */
  function fakeLog(count: number) {
    const log = Array.from({ length: count }, (_, i) => recorded(i + 1));
    const opened: Position[] = [];
    let dropAfter: number[] = [];
    let failWith: unknown = new UnavailableError();
    const open = (after: Position): OpenedSource => {
      opened.push(after);
      const drop = dropAfter.shift();
      let closed = false;
      const closing = gate();
      return {
        events: (async function* () {
          // Inclusive, like a read: the event at `after` comes again.
          let given = 0;
          for (const event of log) {
            if (comparePositions(event.position, after) < 0) continue;
            if (closed) return;
            if (drop !== undefined && given === drop) throw failWith;
            given += 1;
            yield event;
            await tick();
          }
          // Live now: nothing more until closed, as a subscription does.
          await closing.promise;
        })(),
        async close() {
          closed = true;
          closing.open();
        },
      };
    };
    return {
      log,
      opened,
      open,
      dropAfter(...counts: number[]) {
        dropAfter = counts;
      },
      failWith(error: unknown) {
        failWith = error;
      },
    };
  }

  const options = (log: ReturnType<typeof fakeLog>, after: Position = START) => ({
    after,
    batchSize: 7,
    open: log.open,
    shouldRetry: isTransientError,
    retryDelayMs: () => 1,
  });

  it('resubscribes after a dropped connection from the last delivered event: every event once, in order', async () => {
    const log = fakeLog(100);
    log.dropAfter(13, 30, 0);
    const received: RecordedEvent[] = [];
    const errors: unknown[] = [];
    const subscription = runCatchUpSubscription(options(log), {
      onEvents: async (events) => void received.push(...events),
      onError: (error) => errors.push(error),
    });
    await until(() => received.length >= 100);
    await subscription.stop();
    expect(received.map((e) => e.id)).toEqual(log.log.map((e) => e.id));
    expect(errors).toEqual([]);
    expect(log.opened.length).toBeGreaterThanOrEqual(4);
    expect(log.opened[0]).toEqual(START);
    // Each reopening starts at the last event delivered before it.
    for (const position of log.opened.slice(1)) {
      expect(received.some((e) => comparePositions(e.position, position) === 0)).toBe(true);
    }
  });

  it('starts after an exclusive position', async () => {
    const log = fakeLog(30);
    const received: RecordedEvent[] = [];
    const subscription = runCatchUpSubscription(options(log, log.log[9]!.position), {
      onEvents: async (events) => void received.push(...events),
    });
    await until(() => received.length >= 20);
    await subscription.stop();
    expect(received.map((e) => e.id)).toEqual(log.log.slice(10).map((e) => e.id));
  });

  it('ends on a permanent failure and reports it, without reopening', async () => {
    const log = fakeLog(10);
    const denied = new AccessDeniedError();
    log.failWith(denied);
    log.dropAfter(3);
    const errors: unknown[] = [];
    const received: RecordedEvent[] = [];
    const subscription = runCatchUpSubscription(options(log), {
      onEvents: async (events) => void received.push(...events),
      onError: (error) => errors.push(error),
    });
    await until(() => errors.length === 1);
    expect(errors[0]).toBe(denied);
    expect(received).toHaveLength(3);
    expect(log.opened).toHaveLength(1);
    await subscription.stop();
  });

  it('a rejected onEvents ends the subscription with that very error', async () => {
    const log = fakeLog(50);
    const refusal = new Error('projection failed');
    const errors: unknown[] = [];
    let calls = 0;
    const subscription = runCatchUpSubscription(options(log), {
      onEvents: async () => {
        calls += 1;
        if (calls === 2) throw refusal;
      },
      onError: (error) => errors.push(error),
    });
    await until(() => errors.length === 1);
    expect(errors[0]).toBe(refusal);
    for (let i = 0; i < 20; i++) await tick();
    expect(calls).toBe(2);
    expect(log.opened).toHaveLength(1);
    await subscription.stop();
  });

  it('stop() resolves only once no onEvents call is running, and none starts after', async () => {
    const log = fakeLog(50);
    const slow = gate();
    let calls = 0;
    let running = false;
    const subscription = runCatchUpSubscription(options(log), {
      onEvents: async () => {
        calls += 1;
        running = true;
        await slow.promise;
        running = false;
      },
    });
    await until(() => calls === 1);
    let stopped = false;
    const stopping = subscription.stop().then(() => (stopped = true));
    for (let i = 0; i < 10; i++) await tick();
    expect(stopped).toBe(false);
    slow.open();
    await stopping;
    expect(running).toBe(false);
    expect(calls).toBe(1);
  });

  it('stop() during the back-off wakes the wait instead of sitting it out, and opens nothing more', async () => {
    const log = fakeLog(5);
    log.dropAfter(0);
    const retries: number[] = [];
    // An hour's back-off: a stop() that waited for it would never resolve within the test.
    const subscription = runCatchUpSubscription(
      { ...options(log), retryDelayMs: () => 3_600_000, onRetry: (_error: unknown, attempt: number) => retries.push(attempt) },
      { onEvents: async () => {} },
    );
    await until(() => retries.length === 1);
    await subscription.stop();
    expect(log.opened).toHaveLength(1);
  });
});

// --- the adapter over a fake client --------------------------------------------------------

interface FakeRecord extends ClientRecordedEvent {
  position: Position;
}

/**
 * Answers like `@kurrent/kurrentdb-client` 1.3: readAll from a position INCLUDES the event
 * there, subscribeToAll starts after it, filters apply on the server, a read of a missing
 * stream fails with StreamNotFoundError, a wrong expected state with WrongExpectedVersionError.
 */
class FakeKurrentDB {
  readonly log: FakeRecord[] = [];
  readonly readAllCalls: { fromPosition: ReadPosition; maxCount: number }[] = [];
  private readonly live = new Set<(record: FakeRecord) => void>();
  private next = 1;
  disposed = false;

  write(stream: string, type: string, data: unknown = {}, metadata: unknown = newEvent().metadata): FakeRecord {
    const revision = BigInt(this.log.filter((r) => r.streamId === stream).length);
    const position = at(this.next++ * 100);
    const rec: FakeRecord = {
      streamId: stream,
      id: crypto.randomUUID(),
      revision,
      type,
      created: new Date(),
      data,
      metadata,
      isJson: true,
      position,
    };
    this.log.push(rec);
    for (const push of this.live) push(rec);
    return rec;
  }

  async appendToStream(
    stream: string,
    events: { id: string; type: string; data: unknown; metadata: unknown }[],
    { streamState }: { streamState: AppendStreamState },
  ) {
    const existing = this.log.filter((r) => r.streamId === stream);
    const current = existing.length ? BigInt(existing.length - 1) : 'no_stream';
    const ok =
      streamState === 'any' ||
      (streamState === 'no_stream' && current === 'no_stream') ||
      (streamState === 'stream_exists' && current !== 'no_stream') ||
      streamState === current;
    if (!ok) throw new WrongExpectedVersionError(undefined, { streamName: stream, expected: streamState, current });
    let last!: FakeRecord;
    for (const event of events) {
      last = this.write(stream, event.type, JSON.parse(JSON.stringify(event.data)), JSON.parse(JSON.stringify(event.metadata)));
      last.id = event.id;
    }
    return { success: true, nextExpectedRevision: last.revision, position: last.position };
  }

  readStream(stream: string, { fromRevision = 0n, maxCount = Number.MAX_SAFE_INTEGER }: { fromRevision?: bigint; maxCount?: number | bigint }) {
    const log = this.log;
    return (async function* () {
      const records = log.filter((r) => r.streamId === stream);
      if (records.length === 0) throw new StreamNotFoundError(undefined, stream);
      yield* records.filter((r) => r.revision >= fromRevision).slice(0, Number(maxCount)).map((event) => ({ event }));
    })();
  }

  private matches(filter: Filter | undefined, rec: FakeRecord): boolean {
    if (!filter) return true;
    const subject = filter.filterOn === 'streamName' ? rec.streamId : rec.type;
    return 'prefixes' in filter ? filter.prefixes.some((p) => subject.startsWith(p)) : new RegExp(filter.regex).test(subject);
  }

  readAll({ fromPosition, maxCount, filter }: { fromPosition: ReadPosition; maxCount: number; filter?: Filter }) {
    this.readAllCalls.push({ fromPosition, maxCount });
    const from = fromPosition === 'start' ? START : (fromPosition as Position);
    const records = this.log
      .filter((r) => comparePositions(r.position, from) >= 0 && this.matches(filter, r))
      .slice(0, maxCount)
      .map((event) => ({ event }));
    return (async function* () {
      yield* records;
    })();
  }

  readonly subscriptions: (PassThrough & { unsubscribe(): Promise<void> })[] = [];

  subscribeToAll({ fromPosition, filter }: { fromPosition: ReadPosition; filter?: Filter }) {
    const from = fromPosition === 'start' ? START : (fromPosition as Position);
    const stream = Object.assign(new PassThrough({ objectMode: true }), {
      unsubscribe: async () => {
        this.live.delete(push);
        stream.end();
      },
    });
    const push = (rec: FakeRecord) => {
      if (this.matches(filter, rec)) stream.write({ event: rec });
    };
    for (const rec of this.log) if (comparePositions(rec.position, from) > 0) push(rec);
    this.live.add(push);
    this.subscriptions.push(stream);
    return stream;
  }

  /** Every open subscription fails as a lost connection does. */
  dropSubscriptions(): void {
    for (const stream of this.subscriptions) if (!stream.destroyed && !stream.writableEnded) stream.destroy(new UnavailableError());
  }

  async dispose() {
    this.disposed = true;
  }
}

function adapter() {
  const fake = new FakeKurrentDB();
  const store = new KurrentDBEventStore(fake as unknown as KurrentDBClient);
  return { fake, store };
}

describe('KurrentDBEventStore over a fake client', () => {
  it('appends with the mapped stream state and answers with revision and position', async () => {
    const { fake, store } = adapter();
    const events = [newEvent('A', { n: 1 }), newEvent('B', { n: 2 })];
    const result = await store.append('map-1', events, 'no_stream');
    expect(result).toEqual({ nextRevision: 1n, position: fake.log[1]!.position });
    await expect(store.append('map-1', [newEvent()], 'no_stream')).rejects.toMatchObject({
      name: 'WrongExpectedRevisionError',
      actual: 1n,
      expected: 'no_stream',
    });
    await expect(store.append('map-1', [{ ...newEvent(), id: 'nope' }], 'any')).rejects.toBeInstanceOf(InvalidAppendError);
    const read = await store.readStream('map-1');
    expect(read.map((e) => [e.id, e.type, e.revision, e.data])).toEqual([
      [events[0]!.id, 'A', 0n, { n: 1 }],
      [events[1]!.id, 'B', 1n, { n: 2 }],
    ]);
    expect(read[0]!.metadata).toEqual(events[0]!.metadata);
  });

  it('reads a missing stream as empty, and from a revision with a limit', async () => {
    const { fake, store } = adapter();
    expect(await store.readStream('map-none')).toEqual([]);
    for (let i = 0; i < 5; i++) fake.write('map-1', 'E', { i });
    expect((await store.readStream('map-1', { fromRevision: 1n, maxCount: 2 })).map((e) => e.revision)).toEqual([1n, 2n]);
  });

  it('readAll is exclusive of `after`, though the client read includes it', async () => {
    const { fake, store } = adapter();
    const a = fake.write('map-1', 'A');
    fake.write('map-1', 'B');
    fake.write('customer-1', 'C');
    expect((await store.readAll()).map((e) => e.type)).toEqual(['A', 'B', 'C']);
    expect((await store.readAll({ after: a.position })).map((e) => e.type)).toEqual(['B', 'C']);
    expect((await store.readAll({ after: a.position, maxCount: 1 })).map((e) => e.type)).toEqual(['B']);
    expect(fake.readAllCalls.at(-1)!.fromPosition).toEqual(a.position);
    expect((await store.readAll({ filter: { streamPrefixes: ['customer-'] } })).map((e) => e.type)).toEqual(['C']);
    expect(await store.readAll({ after: fake.log.at(-1)!.position })).toEqual([]);
  });

  it('readAll leaves system records out and still returns maxCount events', async () => {
    const { fake, store } = adapter();
    fake.write('map-1', 'A');
    fake.write('$stats-node', '$statsCollected');
    // A non-$ type in a $ stream passes the server-side type filter: left out here.
    fake.write('$projections-x', 'ProjectionUpdated');
    fake.write('$projections-x', 'ProjectionUpdated');
    fake.write('map-1', 'B');
    fake.write('map-1', 'C');
    const events = await store.readAll({ maxCount: 2 });
    expect(events.map((e) => e.type)).toEqual(['A', 'B']);
    expect(fake.readAllCalls.length).toBeGreaterThan(1);
    expect((await store.readAll({ maxCount: 10 })).map((e) => e.type)).toEqual(['A', 'B', 'C']);
  });

  it('subscribeToAll delivers batches, filtered, and carries on after a dropped connection', async () => {
    const { fake, store } = adapter();
    const first = fake.write('map-1', 'Before');
    const received: RecordedEvent[] = [];
    const batchSizes: number[] = [];
    const subscription = store.subscribeToAll(
      { after: first.position, batchSize: 3, filter: { streamPrefixes: ['map-'] } },
      {
        onEvents: async (events) => {
          batchSizes.push(events.length);
          received.push(...events);
        },
      },
    );
    for (let i = 0; i < 5; i++) fake.write('map-1', 'M', { i });
    fake.write('customer-1', 'Other');
    await until(() => received.length >= 5);
    fake.dropSubscriptions();
    await new Promise((resolve) => setTimeout(resolve, 20));
    for (let i = 5; i < 10; i++) fake.write('map-2', 'M', { i });
    await until(() => received.length >= 10, 5000);
    await subscription.stop();
    expect(received.map((e) => (e.data as { i: number }).i)).toEqual([...Array(10).keys()]);
    expect(Math.max(...batchSizes)).toBeLessThanOrEqual(3);
    expect(fake.subscriptions.length).toBeGreaterThanOrEqual(2);
    await store.close();
    expect(fake.disposed).toBe(true);
  });
});

// --- the real client, with no server where it points ----------------------------------------

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('KurrentDBEventStore over the real client, with nothing listening', () => {
  it('fails to open, and maps read and append failures to clear errors', async () => {
    const url = `kurrentdb://127.0.0.1:${await closedPort()}?tls=false`;
    await expect(openKurrentDBEventStore(url)).rejects.toThrow(/KurrentDB is unreachable \(read of \$all\)/);

    const store = new KurrentDBEventStore(KurrentDBClient.connectionString(url));
    try {
      await expect(store.readStream('map-1')).rejects.toThrow(/KurrentDB is unreachable \(read of map-1\)/);
      await expect(store.readAll()).rejects.toThrow(/KurrentDB is unreachable/);
      await expect(store.append('map-1', [newEvent()], 'no_stream')).rejects.toThrow(/KurrentDB is unreachable \(append to map-1\)/);
    } finally {
      await store.close();
    }
  });

  it('keeps trying to subscribe, backing off, until stopped', async () => {
    const url = `kurrentdb://127.0.0.1:${await closedPort()}?tls=false`;
    const retries: { error: unknown; attempt: number; delayMs: number }[] = [];
    const errors: unknown[] = [];
    const store = new KurrentDBEventStore(KurrentDBClient.connectionString(url), {
      onSubscriptionRetry: (error, attempt, delayMs) => retries.push({ error, attempt, delayMs }),
    });
    const subscription = store.subscribeToAll(
      { filter: { streamPrefixes: ['map-'] } },
      { onEvents: async () => {}, onError: (error) => errors.push(error) },
    );
    await until(() => retries.length >= 2, 10_000);
    // Stopping wakes the back-off's wait rather than sitting it out (runCatchUpSubscription's
    // own test shows it with an hour's delay, without a clock).
    await subscription.stop();
    expect(errors).toEqual([]);
    expect(retries.slice(0, 2).map((r) => [r.attempt, r.delayMs])).toEqual([
      [1, 250],
      [2, 500],
    ]);
    expect(isTransientError(retries[0]!.error)).toBe(true);
    await store.close();
  });
});
