/**
 * A catch-up subscription to `$all`, in the port's terms, over any source of events that can
 * be opened from a position: batches with back-pressure, exclusive start, resubscription
 * after a dropped connection. The KurrentDB adapter plugs the client's `subscribeToAll` in;
 * the tests plug in fakes. No KurrentDB import here.
 */
import { comparePositions, type Position } from '../../events/position.js';
import type { AllSubscriber, RecordedEvent, Subscription } from '../../ports/event-store.js';

export type BatchOutcome =
  /** The source ended and everything it gave was delivered. */
  | { kind: 'ended' }
  /** The source failed; everything it gave before the failure was delivered. */
  | { kind: 'source-error'; error: unknown }
  /** A delivery was rejected; nothing more is delivered. */
  | { kind: 'deliver-error'; error: unknown }
  /** `stop()` was called; no delivery is running any more. */
  | { kind: 'stopped' };

export interface BatchPumpOptions<T> {
  /** Most items handed to one `deliver` call. */
  batchSize: number;
  /** Most items read ahead of delivery: the source is not read further until there is room. */
  maxBuffered: number;
  deliver(batch: T[]): Promise<void>;
}

/**
 * Reads an async source into a bounded buffer and hands what has arrived to `deliver` in
 * batches, one call at a time: the next batch only after the previous promise settled.
 * While `deliver` runs the source is read ahead up to `maxBuffered` items, then not at all
 * (for a Node stream, that leaves the rest in the stream and the transport's flow control).
 * `done` settles with the outcome once no `deliver` call is running any more.
 */
export class BatchPump<T> {
  readonly done: Promise<BatchOutcome>;
  private readonly buffer: T[] = [];
  private ended = false;
  private failure: { error: unknown } | null = null;
  private stopped = false;
  private finished = false;
  private wakeConsumer: (() => void) | null = null;
  private wakeProducer: (() => void) | null = null;

  constructor(
    source: AsyncIterable<T>,
    private readonly options: BatchPumpOptions<T>,
  ) {
    if (!(options.batchSize >= 1) || !(options.maxBuffered >= 1)) throw new Error('batchSize and maxBuffered must be at least 1.');
    void this.produce(source);
    this.done = this.consume().finally(() => {
      this.finished = true;
      this.signalProducer();
    });
  }

  /** No delivery starts after this; `done` settles once the running one (if any) has. */
  stop(): void {
    this.stopped = true;
    this.signalConsumer();
  }

  private signalConsumer(): void {
    const wake = this.wakeConsumer;
    this.wakeConsumer = null;
    wake?.();
  }

  private signalProducer(): void {
    const wake = this.wakeProducer;
    this.wakeProducer = null;
    wake?.();
  }

  private async produce(source: AsyncIterable<T>): Promise<void> {
    try {
      for await (const item of source) {
        if (this.finished || this.stopped) break;
        this.buffer.push(item);
        this.signalConsumer();
        while (this.buffer.length >= this.options.maxBuffered && !this.finished && !this.stopped) {
          await new Promise<void>((resolve) => (this.wakeProducer = resolve));
        }
        if (this.finished || this.stopped) break;
      }
    } catch (error) {
      this.failure = { error };
    } finally {
      this.ended = true;
      this.signalConsumer();
    }
  }

  private async consume(): Promise<BatchOutcome> {
    for (;;) {
      if (this.stopped) return { kind: 'stopped' };
      if (this.buffer.length === 0) {
        if (this.ended) return this.failure ? { kind: 'source-error', error: this.failure.error } : { kind: 'ended' };
        await new Promise<void>((resolve) => (this.wakeConsumer = resolve));
        // Let whatever has already arrived join this batch rather than go one by one.
        await new Promise<void>((resolve) => setImmediate(resolve));
        continue;
      }
      const batch = this.buffer.splice(0, this.options.batchSize);
      this.signalProducer();
      try {
        await this.options.deliver(batch);
      } catch (error) {
        return { kind: 'deliver-error', error };
      }
    }
  }
}

/** One opened subscription: its events, and how to cancel it. */
export interface OpenedSource {
  events: AsyncIterable<RecordedEvent>;
  /** Cancels the subscription; must not throw. */
  close(): Promise<void>;
}

export interface CatchUpOptions {
  /** Exclusive start position. */
  after: Position;
  batchSize: number;
  /** Read-ahead bound; default `batchSize`. */
  maxBuffered?: number;
  /** Opens the source at `after`; it may repeat events at or before `after` (they are dropped). */
  open(after: Position): OpenedSource;
  /** Whether to open the source again after this failure (or after it ended, with null). */
  shouldRetry(error: unknown): boolean;
  /** Delay before the `attempt`-th consecutive reopening (1, 2, ...). */
  retryDelayMs(attempt: number): number;
  /** What `onError` receives for a source failure that is not retried; default the error itself. */
  describeSourceError?(error: unknown): unknown;
  /** Told about each reopening (for logging). */
  onRetry?(error: unknown, attempt: number, delayMs: number): void;
}

/** Drops events at or before the last one passed on (and at or before `after`). */
async function* strictlyAfter(events: AsyncIterable<RecordedEvent>, after: Position): AsyncGenerator<RecordedEvent> {
  let last = after;
  for await (const event of events) {
    if (comparePositions(event.position, last) <= 0) continue;
    last = event.position;
    yield event;
  }
}

/** The error a subscription source that ended by itself is retried with. */
export class SubscriptionEndedError extends Error {
  constructor() {
    super('The subscription ended without being stopped.');
    this.name = 'SubscriptionEndedError';
  }
}

/**
 * Runs a catch-up subscription: opens the source after the start position, delivers batches
 * through a {@link BatchPump}, and when the source fails or ends while not stopped, opens it
 * again after the last delivered event (after a delay) so nothing is skipped or repeated.
 * A rejected `onEvents`, or a failure `shouldRetry` refuses, ends it and goes to `onError`.
 */
export function runCatchUpSubscription(options: CatchUpOptions, subscriber: AllSubscriber): Subscription {
  let after = options.after;
  let stopped = false;
  let attempt = 0;
  let pump: BatchPump<RecordedEvent> | null = null;
  let source: OpenedSource | null = null;
  let wakeSleep: (() => void) | null = null;

  const fail = (error: unknown) => {
    stopped = true;
    try {
      subscriber.onError?.(error);
    } catch {
      // The subscriber's error handler failing must not become an unhandled rejection.
    }
  };

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeSleep = null;
        resolve();
      }
      wakeSleep = done;
    });

  const loop = (async () => {
    while (!stopped) {
      let outcome: BatchOutcome;
      try {
        source = options.open(after);
        pump = new BatchPump(strictlyAfter(source.events, after), {
          batchSize: options.batchSize,
          maxBuffered: options.maxBuffered ?? options.batchSize,
          deliver: async (batch) => {
            await subscriber.onEvents(batch);
            after = batch[batch.length - 1]!.position;
            attempt = 0;
          },
        });
        if (stopped) pump.stop();
        outcome = await pump.done;
      } catch (error) {
        outcome = { kind: 'source-error', error };
      }
      pump = null;
      await source?.close();
      source = null;
      if (outcome.kind === 'stopped' || stopped) return;
      if (outcome.kind === 'deliver-error') return fail(outcome.error);
      const error = outcome.kind === 'source-error' ? outcome.error : new SubscriptionEndedError();
      if (!options.shouldRetry(error)) return fail(options.describeSourceError ? options.describeSourceError(error) : error);
      attempt += 1;
      const delay = options.retryDelayMs(attempt);
      options.onRetry?.(error, attempt, delay);
      await sleep(delay);
    }
  })();

  return {
    async stop() {
      stopped = true;
      pump?.stop();
      wakeSleep?.();
      await loop;
    },
  };
}
