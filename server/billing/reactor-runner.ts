/**
 * Runs reactors: handlers with side effects (calling Stripe, appending events) that follow the
 * event log from a checkpoint. Unlike projections they cannot run inside the checkpoint's
 * transaction (a reactor writes through the event store, which may be the same database), so
 * delivery is at least once: every handler is idempotent (Stripe idempotency keys, deciders
 * that ignore a repeated outcome). One process runs each reactor, the holder of its lock.
 *
 * A reactor never wedges, and one stream (one customer) never stops the others, by the
 * projections' rule (projections/README.md): a handler that fails is retried on that event with
 * capped backoff. Transient failures (the connection, or the database not answering `SELECT 1`)
 * are retried as long as they last and never count. An event whose handler fails on its own
 * `attempts` times with the database answering is poisoned: its stream is set aside under the
 * reactor's name (projections/set-aside-streams.ts), in the transaction that moves the
 * checkpoint past it, logged at error level, and the reactor goes on with every other stream,
 * skipping (and recording) that stream's later events: a customer's later checkout must not be
 * answered before the event that failed before it. /api/ready answers `degraded` naming the
 * stream, /metrics counts it, and `repair` (at every start, a fix may have been deployed)
 * hands the stream's events to the handler again in order.
 */
import { comparePositions, formatPosition, START, type Position } from '../../events/position.js';
import { CHECKPOINTS_SCHEMA, readCheckpoint, writeCheckpoint } from '../../projections/checkpoints.js';
import { DEAD_LETTERS_SCHEMA, errorText, poisonedEvent } from '../../projections/dead-letters.js';
import type { RepairReport } from '../../projections/repair.js';
import {
  clearSetAsideStream,
  listSetAsideStreams,
  recordSkipped,
  SET_ASIDE_SCHEMA,
  setAsideAgain,
  setAsideAmong,
  setAsideStream,
} from '../../projections/set-aside-streams.js';
import { backoffMs, DEFAULT_RETRY, isTransientFailure, pause, type RetryPolicy } from '../../projections/retry.js';
import { runInBackground } from '../../ports/background-work.js';
import type { Database, LockSession } from '../../ports/database.js';
import type { EventStore, RecordedEvent, Subscription } from '../../ports/event-store.js';

export interface Reactor {
  readonly name: string;
  readonly streamPrefixes: readonly string[];
  /**
   * The event types `handle` does anything with, when it acts on a few of its streams' types
   * (absent: all of them). A batch holding none (a map's edits, for the billing reactor) is
   * passed without a query; the checkpoint follows {@link PASSED_CHECKPOINT_MS} later.
   */
  readonly eventTypes?: ReadonlySet<string>;
  handle(event: RecordedEvent): Promise<void>;
}

export interface ReactorLogger {
  error(details: object, message: string): void;
  warn?(details: object, message: string): void;
}

export interface ReactorRunnerOptions {
  /** Retries of a failing handler before its event is parked (projections/retry.ts). */
  retry?: Partial<RetryPolicy>;
  /** Most events read from the log at a time. */
  batchSize?: number;
}

/** How often a process without the reactor's lock tries to take it. */
const LEADERSHIP_RETRY_MS = 2_000;
const REACTOR_VERSION = 1;
/** How long the checkpoint may stay behind batches passed without a handled event. */
export const PASSED_CHECKPOINT_MS = 1_000;

export class ReactorRunner {
  private subscription: Subscription | null = null;
  private lock: LockSession | null = null;
  private position: Position = START;
  private running = false;
  private retryTimer: NodeJS.Timeout | null = null;
  /** Aborted to cut short a backoff pause when the runner stops. */
  private control = new AbortController();
  /** Subscriptions that failed in a row (reading the log, writing the checkpoint): the delay before the next grows. */
  private restarts = 0;
  private readonly retry: RetryPolicy;
  private readonly batchSize: number;
  private readonly waiters = new Set<{ position: Position; resolve: () => void }>();
  /** Following and repairing take turns: a repair must not race the skipping of its stream. */
  private turn: Promise<unknown> = Promise.resolve();
  /** Set while the checkpoint is behind batches passed without a handled event. */
  private passedTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Database,
    private readonly store: EventStore,
    private readonly reactor: Reactor,
    private readonly logger: ReactorLogger,
    options: ReactorRunnerOptions = {},
  ) {
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.batchSize = options.batchSize ?? 50;
  }

  /** The reactor's name: its checkpoint's and its dead letters'. */
  get name(): string {
    return this.reactor.name;
  }

  async start(): Promise<void> {
    this.running = true;
    this.control = new AbortController();
    await this.db.exec(CHECKPOINTS_SCHEMA);
    await this.db.exec(DEAD_LETTERS_SCHEMA);
    await this.db.exec(SET_ASIDE_SCHEMA);
    this.lock = await this.db.openLockSession();
    await this.campaign();
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const result = this.turn.then(work);
    this.turn = result.catch(() => {});
    return result;
  }

  /**
   * Hands each set-aside stream's events, from its first failed one up to the checkpoint, to
   * the handler again, in order, once each; a stream that goes through is no longer set aside,
   * one that fails stays set aside from the event that failed. Run by the process that holds
   * the reactor's lock (at start, after taking it), or by whoever holds this runner.
   */
  repair(): Promise<RepairReport> {
    return this.exclusive(async () => {
      const report: RepairReport = { repaired: [], stillFailing: [] };
      const checkpoint = (await readCheckpoint(this.db, this.reactor.name))?.position ?? START;
      for (const record of await listSetAsideStreams(this.db, [this.reactor.name])) {
        const events = (await this.store.readStream(record.stream, { fromRevision: BigInt(record.revision) })).filter(
          (event) => comparePositions(event.position, checkpoint) <= 0,
        );
        let failed: { event: RecordedEvent; error: string } | null = null;
        for (const event of events) {
          try {
            await this.reactor.handle(event);
          } catch (error) {
            failed = { event, error: errorText(error) };
            break;
          }
        }
        if (failed) {
          const { event, error } = failed;
          await this.db.transaction((tx) => setAsideAgain(tx, this.reactor.name, event, error));
          this.logger.error({ reactor: this.reactor.name, stream: record.stream, event: event.id, error }, 'set-aside stream still fails; it stays set aside');
          report.stillFailing.push({ ...record, eventId: event.id, type: event.type, position: formatPosition(event.position), error, attempts: record.attempts + 1 });
        } else {
          await this.db.transaction((tx) => clearSetAsideStream(tx, this.reactor.name, record.stream));
          report.repaired.push(record);
        }
      }
      return report;
    });
  }

  private async campaign(): Promise<void> {
    if (!this.running || !this.lock) return;
    if (await this.lock.tryLock(`mapfold:reactor:${this.reactor.name}`)) {
      // A fix may have been deployed since its streams were set aside.
      await this.repair().catch((error: unknown) => this.logger.error({ err: error, reactor: this.reactor.name }, 'repairing set-aside streams failed'));
      await this.follow();
    } else {
      this.retryTimer = setTimeout(() => void this.campaign().catch((error: unknown) => this.logger.error({ err: error }, 'reactor campaign failed')), LEADERSHIP_RETRY_MS);
      this.retryTimer.unref();
    }
  }

  private async follow(): Promise<void> {
    if (!this.running) return;
    const checkpoint = await readCheckpoint(this.db, this.reactor.name);
    if (!checkpoint) {
      // First start: from the start of the log, so a checkout requested just before is still
      // answered; the handlers skip what is stale.
      await writeCheckpoint(this.db, this.reactor.name, REACTOR_VERSION, START);
    }
    this.position = checkpoint?.position ?? START;
    const signal = this.control.signal;
    // The service's own work: on the embedded database it takes turns with people's requests (ports/background-work.ts).
    this.subscription = runInBackground(() => this.store.subscribeToAll(
      { after: this.position, filter: { streamPrefixes: this.reactor.streamPrefixes }, batchSize: this.batchSize },
      {
        onEvents: (events) =>
          this.exclusive(async () => {
            const types = this.reactor.eventTypes;
            if (types && !events.some((event) => types.has(event.type))) {
              // Nothing it acts on: no query now, the checkpoint a moment later (a crash repeats these, which changes nothing).
              this.position = events[events.length - 1]!.position;
              this.writeCheckpointSoon();
              this.release();
              this.restarts = 0;
              return;
            }
            const setAside = await setAsideAmong(this.db, this.reactor.name, [...new Set(events.map((event) => event.stream))]);
            let unsaved = false;
            for (const event of events) {
              if (setAside.has(event.stream)) {
                // Recorded at once (a repeat after a crash is a no-op), handed over by a repair.
                await this.untilDone(signal, () => recordSkipped(this.db, this.reactor.name, [event]));
                this.position = event.position;
                unsaved = true;
                continue;
              }
              // A set-aside event's transaction moved the checkpoint past it: the events before it are not repeated.
              const poisoned = await this.handle(event, signal);
              this.position = event.position;
              unsaved = !poisoned;
              if (poisoned) {
                setAside.add(event.stream);
                this.release();
              }
            }
            // Otherwise once per batch: a crash in between repeats the batch, which the handlers shrug off.
            const position = this.position;
            if (unsaved) {
              await this.untilDone(signal, () => writeCheckpoint(this.db, this.reactor.name, REACTOR_VERSION, position));
              // Past any batch passed before it too.
              if (this.passedTimer) clearTimeout(this.passedTimer);
              this.passedTimer = null;
            }
            this.release();
            this.restarts = 0;
          }),
        onError: (error) => {
          this.subscription = null;
          if (!this.running || signal.aborted) return;
          this.restartLater(error);
        },
      },
    ));
  }

  /** Follows again from the checkpoint after a backoff that grows while restarts keep failing. */
  private restartLater(error: unknown): void {
    if (!this.running) return;
    this.restarts++;
    const delayMs = backoffMs(this.retry, this.restarts);
    this.logger.error({ err: error, reactor: this.reactor.name, delayMs }, 'reactor failed; retrying from its checkpoint');
    this.retryTimer = setTimeout(() => void this.follow().catch((err: unknown) => this.restartLater(err)), delayMs);
    this.retryTimer.unref();
  }

  /**
   * Handles one event, retrying with backoff until it goes through (resolves false) or has
   * failed `attempts` times with the database answering, when its stream is set aside (resolves true).
   */
  private async handle(event: RecordedEvent, signal: AbortSignal): Promise<boolean> {
    let strikes = 0;
    for (let failures = 1; ; failures++) {
      try {
        await this.reactor.handle(event);
        return false;
      } catch (error) {
        if (signal.aborted) throw error;
        const transient = await isTransientFailure(this.db, error);
        if (!transient) strikes++;
        if (strikes >= this.retry.attempts) {
          await this.setAside(event, error, failures, signal);
          return true;
        }
        const delayMs = backoffMs(this.retry, failures);
        const details = { err: error, reactor: this.reactor.name, event: event.id, type: event.type, position: formatPosition(event.position), failures, transient, delayMs };
        if (this.logger.warn) this.logger.warn(details, 'reactor handler failed; retrying');
        else this.logger.error(details, 'reactor handler failed; retrying');
        await pause(delayMs, signal);
      }
    }
  }


  /** Sets the event's stream aside and moves the checkpoint past the event, in one transaction. */
  private async setAside(event: RecordedEvent, error: unknown, attempts: number, signal: AbortSignal): Promise<void> {
    const poisoned = poisonedEvent(event, error, attempts);
    await this.untilDone(signal, () =>
      this.db.transaction(async (tx) => {
        await setAsideStream(tx, this.reactor.name, event, poisoned);
        await writeCheckpoint(tx, this.reactor.name, REACTOR_VERSION, event.position);
      }),
    );
    this.logger.error({ reactor: this.reactor.name, setAside: poisoned }, 'reactor set aside a stream it could not handle; the other streams go on');
  }

  /** Runs `work` until it succeeds; only stopping the runner interrupts it. */
  private async untilDone(signal: AbortSignal, work: () => Promise<void>): Promise<void> {
    for (let failures = 1; ; failures++) {
      try {
        await work();
        return;
      } catch (error) {
        if (signal.aborted) throw error;
        this.logger.error({ err: error, reactor: this.reactor.name, failures }, 'recording where the reactor stands failed; retrying');
        await pause(backoffMs(this.retry, failures), signal);
      }
    }
  }

  private writeCheckpointSoon(): void {
    if (this.passedTimer) return;
    this.passedTimer = setTimeout(() => {
      void this.exclusive(() => this.writePassedCheckpoint()).catch((error: unknown) =>
        this.logger.warn?.({ err: error, reactor: this.reactor.name }, 'moving the checkpoint past passed events failed; the next batch moves it'),
      );
    }, PASSED_CHECKPOINT_MS);
    this.passedTimer.unref();
  }

  private async writePassedCheckpoint(): Promise<void> {
    if (!this.passedTimer) return;
    clearTimeout(this.passedTimer);
    this.passedTimer = null;
    await writeCheckpoint(this.db, this.reactor.name, REACTOR_VERSION, this.position);
  }

  private release(): void {
    for (const waiter of [...this.waiters]) {
      if (comparePositions(this.position, waiter.position) >= 0) {
        this.waiters.delete(waiter);
        waiter.resolve();
      }
    }
  }

  /** Resolves once the reactor has handled (or passed, or parked) the event at `position`. */
  waitFor(position: Position): Promise<void> {
    if (comparePositions(this.position, position) >= 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.add({ position, resolve }));
  }

  async stop(): Promise<void> {
    this.running = false;
    this.control.abort(new Error('reactor runner stopped'));
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.subscription?.stop();
    this.subscription = null;
    // Passed batches' checkpoint, while this process still holds the reactor's lock.
    await this.exclusive(() => this.writePassedCheckpoint()).catch(() => {});
    await this.lock?.close();
    this.lock = null;
  }
}
