/**
 * Runs reactors: handlers with side effects (calling Stripe, appending events) that follow the
 * event log from a checkpoint. Unlike projections they cannot run inside the checkpoint's
 * transaction (a reactor writes through the event store, which may be the same database), so
 * delivery is at least once: every handler is idempotent (Stripe idempotency keys, deciders
 * that ignore a repeated outcome). One process runs each reactor, the holder of its lock.
 *
 * A reactor never wedges silently, by the projections' rule (projections/README.md): a handler
 * that fails is retried on that event with capped backoff. Transient failures (the connection,
 * or the database not answering `SELECT 1`) are retried as long as they last and never count.
 * An event whose handler fails on its own `attempts` times with the database answering is
 * poisoned: it is parked in `projection_dead_letters` under the reactor's name, in the
 * transaction that moves the checkpoint past it, logged at error level, and the reactor goes
 * on with the next event. /api/ready then answers `degraded` naming the reactor, and /metrics
 * counts it (`mapfold_reactor_dead_letters`). One poisoned Stripe event must not stop every
 * later checkout from being answered. Parking is the rule for every reactor: a reactor has no
 * read model a gap would corrupt, and its events stay in the log to be handled again by hand.
 */
import { comparePositions, formatPosition, START, type Position } from '../../events/position.js';
import { CHECKPOINTS_SCHEMA, readCheckpoint, writeCheckpoint } from '../../projections/checkpoints.js';
import { DEAD_LETTERS_SCHEMA, parkEvent, poisonedEvent } from '../../projections/dead-letters.js';
import { backoffMs, DEFAULT_RETRY, isTransientFailure, pause, type RetryPolicy } from '../../projections/retry.js';
import type { Database, LockSession } from '../../ports/database.js';
import type { EventStore, RecordedEvent, Subscription } from '../../ports/event-store.js';

export interface Reactor {
  readonly name: string;
  readonly streamPrefixes: readonly string[];
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
    this.lock = await this.db.openLockSession();
    await this.campaign();
  }

  private async campaign(): Promise<void> {
    if (!this.running || !this.lock) return;
    if (await this.lock.tryLock(`mapfold:reactor:${this.reactor.name}`)) {
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
    this.subscription = this.store.subscribeToAll(
      { after: this.position, filter: { streamPrefixes: this.reactor.streamPrefixes }, batchSize: this.batchSize },
      {
        onEvents: async (events) => {
          let unsaved = false;
          for (const event of events) {
            // A parked event's transaction moved the checkpoint past it: the events before it are not repeated.
            const parked = await this.handle(event, signal);
            this.position = event.position;
            unsaved = !parked;
            if (parked) this.release();
          }
          // Otherwise once per batch: a crash in between repeats the batch, which the handlers shrug off.
          const position = this.position;
          if (unsaved) await this.untilDone(signal, () => writeCheckpoint(this.db, this.reactor.name, REACTOR_VERSION, position));
          this.release();
          this.restarts = 0;
        },
        onError: (error) => {
          this.subscription = null;
          if (!this.running || signal.aborted) return;
          this.restartLater(error);
        },
      },
    );
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
   * failed `attempts` times with the database answering, when it is parked (resolves true).
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
          await this.park(event, error, failures, signal);
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


  /** Moves the event to the dead letters and the checkpoint past it, in one transaction. */
  private async park(event: RecordedEvent, error: unknown, attempts: number, signal: AbortSignal): Promise<void> {
    const poisoned = poisonedEvent(event, error, attempts);
    await this.untilDone(signal, () =>
      this.db.transaction(async (tx) => {
        await parkEvent(tx, this.reactor.name, poisoned, event.position);
        await writeCheckpoint(tx, this.reactor.name, REACTOR_VERSION, event.position);
      }),
    );
    this.logger.error({ reactor: this.reactor.name, deadLetter: poisoned }, 'reactor parked a poisoned event and goes on');
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
    await this.lock?.close();
    this.lock = null;
  }
}
