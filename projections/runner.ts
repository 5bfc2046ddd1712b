/**
 * Follows the event store from each projection's checkpoint and applies every batch of events
 * together with the new checkpoint in one transaction, so a crash or restart resumes with no
 * duplicate and no gap. A projection whose version changed is rebuilt from position zero.
 *
 * Several server processes may share one database: each projection runs in one of them at a
 * time, the one holding its advisory lock (taken over by another process when the leader's
 * connection ends, as it does when the process dies). As a second line of defence, the
 * checkpoint row is locked and compared inside each transaction: if another process moved it,
 * the batch is dropped and this runner resumes from there.
 *
 * A projection never wedges silently. A failing batch is retried with backoff; once it has
 * failed a few times with the database answering, its events are applied one by one, and the
 * one that fails on its own is poisoned: the projection's rule (`onPoisonedEvent`) parks it in
 * the dead-letter table, in the transaction that moves the checkpoint past it, or stops the
 * projection there, recorded on its checkpoint. Either shows in /api/ready, /metrics and the
 * log. Transient failures (connection, database away) are retried as long as they last.
 */
import { comparePositions, formatPosition, START, type Position } from '../events/position.js';
import type { EventStore, RecordedEvent, Subscription } from '../ports/event-store.js';
import type { Database, LockSession, Queryable } from '../ports/database.js';
import { CHECKPOINTS_SCHEMA, markStopped, readCheckpoint, writeCheckpoint } from './checkpoints.js';
import { clearDeadLetters, DEAD_LETTERS_SCHEMA, parkEvent, poisonedEvent, type PoisonedEvent } from './dead-letters.js';
import { sendLiveNotices } from './live-notices.js';
import { ChangedTopics, type Projection } from './projection.js';
import { backoffMs, DEFAULT_RETRY, isTransientFailure, pause, type RetryPolicy } from './retry.js';

export interface RunnerLogger {
  error(details: object, message: string): void;
  warn?(details: object, message: string): void;
  info?(details: object, message: string): void;
}

export interface RunnerOptions {
  /** Most events applied in one transaction while following the log. */
  batchSize?: number;
  /** Retries before a batch is split and before an event is poisoned (projections/retry.ts). */
  retry?: Partial<RetryPolicy>;
}

class CheckpointMovedError extends Error {}

/** A projection whose rule is `stop` stopped on a poisoned event; it stays stopped until a restart or rebuild. */
export class ProjectionStoppedError extends Error {
  constructor(
    readonly projection: string,
    readonly poisoned: PoisonedEvent,
  ) {
    super(`Projection ${projection} stopped on event ${poisoned.eventId} (${poisoned.type} in ${poisoned.stream}): ${poisoned.error}`);
    this.name = 'ProjectionStoppedError';
  }
}

type Delivery = 'applied' | 'stopped';
/** How often a process without a projection's lock tries to take it. */
const LEADERSHIP_RETRY_MS = 1_000;

export class ProjectionRunner {
  private readonly positions = new Map<string, Position>();
  private readonly subscriptions = new Map<string, Subscription>();
  private readonly waiters = new Set<{
    position: Position;
    projections: readonly Projection[];
    resolve: () => void;
    reject: (error: Error) => void;
  }>();
  /** Projections this runner stopped on a poisoned event, with why. */
  private readonly stops = new Map<string, ProjectionStoppedError>();
  /** Aborted to cut short a backoff pause when following ends (stop, lost leadership). */
  private readonly followControls = new Map<string, AbortController>();
  /** Subscriptions that failed in a row, per projection: the delay before the next grows. */
  private readonly restarts = new Map<string, number>();
  private readonly batchSize: number;
  private readonly retry: RetryPolicy;
  private running = false;
  private lockSession: LockSession | null = null;
  private campaignTimer: NodeJS.Timeout | null = null;
  private readonly leading = new Set<string>();

  constructor(
    private readonly db: Database,
    private readonly store: EventStore,
    readonly projections: readonly Projection[],
    private readonly logger: RunnerLogger = { error: () => {} },
    options: RunnerOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 500;
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
  }

  /**
   * Creates the tables, rebuilds projections whose version changed, and starts following every
   * projection this process can lead; the others are retried every second.
   */
  async start(): Promise<void> {
    // A stopped projection is tried again: the fix may have been deployed.
    this.stops.clear();
    await this.prepare();
    this.running = true;
    await this.campaign();
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.campaignTimer) clearInterval(this.campaignTimer);
    this.campaignTimer = null;
    await this.stopFollowing();
    const session = this.lockSession;
    this.lockSession = null;
    await session?.close();
  }

  /** Whether this process applies the projection's events now. */
  isLeading(name: string): boolean {
    return this.leading.has(name);
  }

  private async stopFollowing(): Promise<void> {
    this.leading.clear();
    const subscriptions = [...this.subscriptions.values()];
    this.subscriptions.clear();
    for (const control of this.followControls.values()) control.abort(new Error('projection runner stopped following'));
    this.followControls.clear();
    await Promise.all(subscriptions.map((subscription) => subscription.stop()));
  }

  private async campaign(): Promise<void> {
    const session = await this.db.openLockSession();
    this.lockSession = session;
    session.onLost(() => void this.onLeadershipLost(session));
    await this.tryToLead();
    this.campaignTimer = setInterval(() => {
      this.tryToLead().catch((error: unknown) => this.logger.error({ err: error }, 'taking projection leadership failed'));
    }, LEADERSHIP_RETRY_MS);
    this.campaignTimer.unref();
  }

  private async tryToLead(): Promise<void> {
    for (const projection of this.projections) {
      const session = this.lockSession;
      if (!this.running || !session || this.leading.has(projection.name)) continue;
      if (await session.tryLock(`mapfold:projection:${projection.name}`)) {
        this.leading.add(projection.name);
        this.logger.info?.({ projection: projection.name }, 'this process now runs the projection');
        await this.follow(projection);
      }
    }
  }

  /** The lock connection dropped, and every lock with it: stand down, then campaign again. */
  private async onLeadershipLost(session: LockSession): Promise<void> {
    if (session !== this.lockSession) return;
    this.logger.error({}, 'lost the projection locks; standing down');
    if (this.campaignTimer) clearInterval(this.campaignTimer);
    this.campaignTimer = null;
    this.lockSession = null;
    await this.stopFollowing();
    if (!this.running) return;
    setTimeout(() => {
      if (this.running) this.campaign().catch((error: unknown) => this.logger.error({ err: error }, 'projection campaign failed'));
    }, LEADERSHIP_RETRY_MS);
  }

  /** Empties every read model and resets its checkpoint; `start` then replays from zero. */
  async resetAll(): Promise<void> {
    await this.createRunnerTables();
    for (const projection of this.projections) await this.reset(projection);
  }

  /**
   * Replays everything now, from each checkpoint to the end of the log, then returns. A
   * poisoned event is parked or stops its projection as while following; the other
   * projections still catch up. Resolves with the projections that stopped.
   */
  async catchUp(batchSize = 1000): Promise<ProjectionStoppedError[]> {
    await this.prepare();
    const never = new AbortController().signal;
    const stopped: ProjectionStoppedError[] = [];
    for (const projection of this.projections) {
      for (;;) {
        const after = this.positions.get(projection.name) ?? START;
        const events = await this.store.readAll({ after, maxCount: batchSize, filter: { streamPrefixes: projection.streamPrefixes } });
        if (events.length === 0) break;
        if ((await this.deliver(projection, after, events, never)) === 'stopped') {
          stopped.push(this.stops.get(projection.name)!);
          break;
        }
      }
    }
    return stopped;
  }

  /** The checkpoint of one projection as this process last saw it. */
  positionOf(name: string): Position {
    return this.positions.get(name) ?? START;
  }

  /** Why the projection stopped, if this runner stopped it on a poisoned event. */
  stoppedOn(name: string): ProjectionStoppedError | null {
    return this.stops.get(name) ?? null;
  }

  /**
   * Resolves once the projections that read the event at `position` (or those named) have
   * applied it or passed it (a parked event is passed); rejects with a ProjectionStoppedError
   * if one of them stopped before it. A projection only moves on events its filter matches,
   * so waiting on one that never reads the event's stream would never end.
   */
  async waitFor(position: Position, names?: readonly string[]): Promise<void> {
    const projections = names ? this.projections.filter((p) => names.includes(p.name)) : await this.projectionsReading(position);
    if (this.reached(position, projections)) return;
    const stopped = this.stoppedBefore(position, projections);
    if (stopped) throw stopped;
    await new Promise<void>((resolve, reject) => this.waiters.add({ position, projections, resolve, reject }));
  }

  /**
   * The projections whose filter matches the stream of the event at `position`. The log shows
   * an event only once no earlier transaction is still open, so a just-appended event may take
   * a moment to be readable: look again until it is (all projections if it never shows).
   */
  private async projectionsReading(position: Position): Promise<readonly Projection[]> {
    const before = { commit: position.commit, prepare: position.prepare - 1n };
    for (let attempt = 0; attempt < 200; attempt++) {
      const [event] = await this.store.readAll({ after: before, maxCount: 1 });
      if (event && comparePositions(event.position, position) === 0) {
        return this.projections.filter((p) => p.streamPrefixes.some((prefix) => event.stream.startsWith(prefix)));
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return this.projections;
  }

  private reached(position: Position, projections: readonly Projection[]): boolean {
    return projections.every((p) => comparePositions(this.positionOf(p.name), position) >= 0);
  }

  private stoppedBefore(position: Position, projections: readonly Projection[]): ProjectionStoppedError | null {
    for (const projection of projections) {
      const stop = this.stops.get(projection.name);
      if (stop && comparePositions(this.positionOf(projection.name), position) < 0) return stop;
    }
    return null;
  }

  private async createRunnerTables(): Promise<void> {
    await this.db.exec(CHECKPOINTS_SCHEMA);
    await this.db.exec(DEAD_LETTERS_SCHEMA);
  }

  private async prepare(): Promise<void> {
    await this.createRunnerTables();
    for (const projection of this.projections) {
      await this.db.exec(projection.schema);
      const checkpoint = await readCheckpoint(this.db, projection.name);
      if (!checkpoint || checkpoint.version !== projection.version) {
        this.logger.info?.({ projection: projection.name }, 'projection rebuilds from the start');
        await this.reset(projection);
      } else {
        this.positions.set(projection.name, checkpoint.position);
      }
    }
  }

  /** Empties the read model and its dead letters, and moves its checkpoint (unstopped) to the start. */
  private async reset(projection: Projection): Promise<void> {
    await this.db.exec(projection.schema);
    await this.db.transaction(async (tx) => {
      for (const table of projection.tables) await tx.query(`DELETE FROM ${table}`);
      await clearDeadLetters(tx, projection.name);
      await writeCheckpoint(tx, projection.name, projection.version, START);
    });
    this.stops.delete(projection.name);
    this.positions.set(projection.name, START);
  }

  private async follow(projection: Projection): Promise<void> {
    if (!this.running || !this.leading.has(projection.name)) return;
    const checkpoint = await readCheckpoint(this.db, projection.name);
    if (!this.running || !this.leading.has(projection.name)) return;
    const start = checkpoint?.position ?? START;
    this.positions.set(projection.name, start);
    const control = new AbortController();
    this.followControls.set(projection.name, control);
    let after = start;
    const subscription = this.store.subscribeToAll(
      { after, filter: { streamPrefixes: projection.streamPrefixes }, batchSize: this.batchSize },
      {
        onEvents: async (events) => {
          if ((await this.deliver(projection, after, events, control.signal)) === 'stopped') throw this.stops.get(projection.name)!;
          after = events[events.length - 1]!.position;
          this.restarts.delete(projection.name);
        },
        onError: (error) => {
          if (this.subscriptions.get(projection.name) === subscription) this.subscriptions.delete(projection.name);
          if (this.followControls.get(projection.name) === control) this.followControls.delete(projection.name);
          // Following ended on purpose, or the projection stopped (it was logged): nothing to restart.
          if (control.signal.aborted || error instanceof ProjectionStoppedError) return;
          if (error instanceof CheckpointMovedError) {
            setTimeout(() => void this.follow(projection).catch(() => {}), 0);
            return;
          }
          const failures = (this.restarts.get(projection.name) ?? 0) + 1;
          this.restarts.set(projection.name, failures);
          const delayMs = backoffMs(this.retry, failures);
          this.logger.error({ err: error, projection: projection.name, delayMs }, 'projection subscription failed; restarting from its checkpoint');
          setTimeout(() => void this.follow(projection).catch(() => {}), delayMs);
        },
      },
    );
    this.subscriptions.set(projection.name, subscription);
  }

  /**
   * Applies a batch, retrying with backoff. A batch that keeps failing with the database
   * answering is split: its events are applied one by one up to the one that fails on its own,
   * which is parked or stops the projection by the projection's rule; the rest of the batch
   * follows. Resolves with 'stopped' if the projection stopped.
   */
  private async deliver(projection: Projection, after: Position, events: readonly RecordedEvent[], signal: AbortSignal): Promise<Delivery> {
    const failed = await this.attempt(projection, after, events, signal);
    if (!failed) return 'applied';
    this.logger.error(
      { projection: projection.name, after: formatPosition(after), events: events.length, err: failed.error },
      'projection batch keeps failing; applying its events one by one',
    );
    let position = after;
    for (const [index, event] of events.entries()) {
      const alone = events.length === 1 ? null : await this.attempt(projection, position, [event], signal);
      if (events.length === 1 || alone) {
        const attempts = failed.failures + (alone?.failures ?? 0);
        const poisoned = poisonedEvent(event, (alone ?? failed).error, attempts);
        if ((await this.poisoned(projection, position, event, poisoned, signal)) === 'stopped') return 'stopped';
        const rest = events.slice(index + 1);
        return rest.length > 0 ? this.deliver(projection, event.position, rest, signal) : 'applied';
      }
      position = event.position;
    }
    // Every event went through on its own: the failure belonged to the batch as a whole.
    return 'applied';
  }

  /**
   * Tries `events` until they are applied (resolves with null) or have failed `attempts`
   * times with the database answering (resolves with the last error). Transient failures are
   * retried, with the same backoff, for as long as they last.
   */
  private async attempt(
    projection: Projection,
    after: Position,
    events: readonly RecordedEvent[],
    signal: AbortSignal,
  ): Promise<{ error: unknown; failures: number } | null> {
    let strikes = 0;
    for (let failures = 1; ; failures++) {
      try {
        await this.applyBatch(projection, after, events);
        return null;
      } catch (error) {
        if (error instanceof CheckpointMovedError || signal.aborted) throw error;
        const transient = await isTransientFailure(this.db, error);
        if (!transient) strikes++;
        if (strikes >= this.retry.attempts) return { error, failures };
        const delayMs = backoffMs(this.retry, failures);
        const details = { err: error, projection: projection.name, after: formatPosition(after), events: events.length, failures, transient, delayMs };
        if (this.logger.warn) this.logger.warn(details, 'projection batch failed; retrying');
        else this.logger.error(details, 'projection batch failed; retrying');
        await pause(delayMs, signal);
      }
    }
  }


  /** Parks the event (checkpoint moved past it) or stops the projection before it, by its rule. */
  private async poisoned(
    projection: Projection,
    after: Position,
    event: RecordedEvent,
    poisoned: PoisonedEvent,
    signal: AbortSignal,
  ): Promise<'parked' | 'stopped'> {
    if (projection.onPoisonedEvent === 'park') {
      await this.untilDone(signal, () =>
        this.db.transaction(async (tx) => {
          await this.lockCheckpoint(tx, projection, after);
          await parkEvent(tx, projection.name, poisoned, event.position);
          await writeCheckpoint(tx, projection.name, projection.version, event.position);
        }),
      );
      this.logger.error({ projection: projection.name, deadLetter: poisoned }, 'projection parked a poisoned event and goes on');
      this.advance(projection.name, event.position);
      return 'parked';
    }
    const stopped = new ProjectionStoppedError(projection.name, poisoned);
    await this.untilDone(signal, () =>
      this.db.transaction(async (tx) => {
        await this.lockCheckpoint(tx, projection, after);
        await markStopped(tx, projection.name, { ...poisoned, stoppedAt: new Date().toISOString() });
      }),
    );
    this.logger.error({ projection: projection.name, poisoned }, `projection STOPPED on a poisoned event; it stays stopped until a restart or a rebuild`);
    this.stops.set(projection.name, stopped);
    for (const waiter of [...this.waiters]) {
      if (this.stoppedBefore(waiter.position, waiter.projections)) {
        this.waiters.delete(waiter);
        waiter.reject(stopped);
      }
    }
    return 'stopped';
  }

  /** Runs `work` until it succeeds; only a moved checkpoint or the end of following interrupts it. */
  private async untilDone(signal: AbortSignal, work: () => Promise<void>): Promise<void> {
    for (let failures = 1; ; failures++) {
      try {
        await work();
        return;
      } catch (error) {
        if (error instanceof CheckpointMovedError || signal.aborted) throw error;
        this.logger.error({ err: error, failures }, 'recording a poisoned event failed; retrying');
        await pause(backoffMs(this.retry, failures), signal);
      }
    }
  }

  /** Locks the projection's checkpoint row for this transaction; throws if it is not where this runner left it. */
  private async lockCheckpoint(tx: Queryable, projection: Projection, expected: Position): Promise<void> {
    const { rows } = await tx.query<{ commit_position: string; prepare_position: string }>(
      'SELECT commit_position::text, prepare_position::text FROM projection_checkpoints WHERE name = $1 FOR UPDATE',
      [projection.name],
    );
    const stored = rows[0] ? { commit: BigInt(rows[0].commit_position), prepare: BigInt(rows[0].prepare_position) } : START;
    if (comparePositions(stored, expected) !== 0) throw new CheckpointMovedError(`Checkpoint of ${projection.name} moved`);
  }

  private async applyBatch(projection: Projection, expected: Position, events: readonly RecordedEvent[]): Promise<void> {
    const last = events[events.length - 1]!.position;
    await this.db.transaction(async (tx) => {
      await this.lockCheckpoint(tx, projection, expected);
      const changed = new ChangedTopics();
      await projection.apply(tx, events, changed);
      await writeCheckpoint(tx, projection.name, projection.version, last);
      if (changed.topics.size > 0) {
        await sendLiveNotices(tx, { projection: projection.name, position: formatPosition(last), topics: [...changed.topics] });
      }
    });
    this.advance(projection.name, last);
  }

  private advance(name: string, position: Position): void {
    this.stops.delete(name);
    this.positions.set(name, position);
    for (const waiter of [...this.waiters]) {
      if (this.reached(waiter.position, waiter.projections)) {
        this.waiters.delete(waiter);
        waiter.resolve();
      }
    }
  }
}
