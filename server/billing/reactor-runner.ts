/**
 * Runs reactors: handlers with side effects (calling Stripe, appending events) that follow the
 * event log from a checkpoint. Unlike projections they cannot run inside the checkpoint's
 * transaction (a reactor writes through the event store, which may be the same database), so
 * delivery is at least once: every handler is idempotent (Stripe idempotency keys, deciders
 * that ignore a repeated outcome). One process runs each reactor, the holder of its lock.
 */
import { comparePositions, START, type Position } from '../../events/position.js';
import { CHECKPOINTS_SCHEMA, readCheckpoint, writeCheckpoint } from '../../projections/checkpoints.js';
import type { Database, LockSession } from '../db/database.js';
import type { EventStore, RecordedEvent, Subscription } from '../event-store/event-store.js';

export interface Reactor {
  readonly name: string;
  readonly streamPrefixes: readonly string[];
  handle(event: RecordedEvent): Promise<void>;
}

export interface ReactorLogger {
  error(details: object, message: string): void;
}

const RETRY_MS = 2_000;
const REACTOR_VERSION = 1;

export class ReactorRunner {
  private subscription: Subscription | null = null;
  private lock: LockSession | null = null;
  private position: Position = START;
  private running = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private readonly waiters = new Set<{ position: Position; resolve: () => void }>();

  constructor(
    private readonly db: Database,
    private readonly store: EventStore,
    private readonly reactor: Reactor,
    private readonly logger: ReactorLogger,
  ) {}

  async start(): Promise<void> {
    this.running = true;
    await this.db.exec(CHECKPOINTS_SCHEMA);
    this.lock = await this.db.openLockSession();
    await this.campaign();
  }

  private async campaign(): Promise<void> {
    if (!this.running || !this.lock) return;
    if (await this.lock.tryLock(`mapfold:reactor:${this.reactor.name}`)) {
      await this.follow();
    } else {
      this.retryTimer = setTimeout(() => void this.campaign().catch((error: unknown) => this.logger.error({ err: error }, 'reactor campaign failed')), RETRY_MS);
      this.retryTimer.unref();
    }
  }

  private async follow(): Promise<void> {
    const checkpoint = await readCheckpoint(this.db, this.reactor.name);
    if (!checkpoint) {
      // First start: from the start of the log, so a checkout requested just before is still
      // answered; the handlers skip what is stale.
      await writeCheckpoint(this.db, this.reactor.name, REACTOR_VERSION, START);
    }
    this.position = checkpoint?.position ?? START;
    this.subscription = this.store.subscribeToAll(
      { after: this.position, filter: { streamPrefixes: this.reactor.streamPrefixes }, batchSize: 50 },
      {
        onEvents: async (events) => {
          for (const event of events) {
            await this.reactor.handle(event);
            this.position = event.position;
          }
          // Once per batch: a crash in between repeats the batch, which the handlers shrug off.
          await writeCheckpoint(this.db, this.reactor.name, REACTOR_VERSION, this.position);
          this.release();
        },
        onError: (error) => {
          this.logger.error({ err: error, reactor: this.reactor.name }, 'reactor failed; retrying from its checkpoint');
          this.subscription = null;
          if (!this.running) return;
          this.retryTimer = setTimeout(() => void this.follow().catch((err: unknown) => this.logger.error({ err }, 'reactor restart failed')), RETRY_MS);
          this.retryTimer.unref();
        },
      },
    );
  }

  private release(): void {
    for (const waiter of [...this.waiters]) {
      if (comparePositions(this.position, waiter.position) >= 0) {
        this.waiters.delete(waiter);
        waiter.resolve();
      }
    }
  }

  /** Resolves once the reactor has handled (or passed) the event at `position`. */
  waitFor(position: Position): Promise<void> {
    if (comparePositions(this.position, position) >= 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.add({ position, resolve }));
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.subscription?.stop();
    this.subscription = null;
    await this.lock?.close();
    this.lock = null;
  }
}
