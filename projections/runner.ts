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
 * A projection never wedges, and one stream never stops the others. A failing batch is
 * retried with backoff; once it has failed a few times with the database answering, its events
 * are applied one by one, and the one that fails on its own is poisoned: its STREAM is set
 * aside (set-aside-streams.ts) in the transaction that moves the checkpoint past it, and every
 * later event of that stream is skipped and recorded, while the other streams go on. It shows
 * in /api/ready, /metrics and the log; `repair` (at start, and `npm run projections:repair`)
 * applies the stream again once a fix is deployed. Transient failures (connection, database
 * away) are retried as long as they last.
 *
 * A projection that names its `eventTypes` is handed only those: a batch of none (a map's edits,
 * for the projections reading only its creation, sharing or deletion) costs no transaction, and
 * its checkpoint row catches up a moment later in one compare-and-set UPDATE (issue 26 item 5:
 * four of an edit's six projection transactions were of this kind).
 */
import { comparePositions, formatPosition, START, type Position } from '../events/position.js';
import type { EventStore, RecordedEvent, Subscription } from '../ports/event-store.js';
import { runInBackground } from '../ports/background-work.js';
import type { Database, LockSession } from '../ports/database.js';
import { CheckpointMovedError, CHECKPOINTS_SCHEMA, clearLegacyStops, lockCheckpointAt, readCheckpoint, writeCheckpoint } from './checkpoints.js';
import { clearDeadLetters, DEAD_LETTERS_SCHEMA, poisonedEvent, type PoisonedEvent } from './dead-letters.js';
import { sendLiveNotices } from './live-notices.js';
import { ChangedTopics, type Projection } from './projection.js';
import { repairSetAsideStreams, type RepairReport } from './repair.js';
import { backoffMs, DEFAULT_RETRY, isTransientFailure, pause, type RetryPolicy } from './retry.js';
import { clearSetAsideStreams, recordSkipped, SET_ASIDE_SCHEMA, setAsideAmong, setAsideStream } from './set-aside-streams.js';

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

/** How often a process without a projection's lock tries to take it. */
const LEADERSHIP_RETRY_MS = 1_000;

/**
 * How long a projection's checkpoint row may stay behind events it passed without reading them
 * (its `eventTypes`): a second, then one UPDATE moves it, however many edits went by.
 */
export const PASSED_CHECKPOINT_MS = 1_000;

export class ProjectionRunner {
  private readonly positions = new Map<string, Position>();
  private readonly subscriptions = new Map<string, Subscription>();
  private readonly waiters = new Set<{
    position: Position;
    projections: readonly Projection[];
    resolve: () => void;
  }>();
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
  /**
   * Where the checkpoint row of a projection stands when it is behind the projection's position:
   * the events after it were all of types the projection does not read (`eventTypes`), passed
   * without a transaction. The row is moved {@link PASSED_CHECKPOINT_MS} later, or by the
   * projection's next transaction, which locks the row at this position.
   */
  private readonly rowAt = new Map<string, Position>();
  private readonly rowTimers = new Map<string, NodeJS.Timeout>();
  /** Per projection, the last of its checkpoint writes: they take turns (inTurn). */
  private readonly turns = new Map<string, Promise<unknown>>();

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
   * Creates the tables, rebuilds projections whose version changed, tries the set-aside
   * streams again (a fix may have been deployed), and starts following every projection this
   * process can lead; the others are retried every second.
   */
  async start(): Promise<void> {
    await this.prepare();
    const report = await this.repair().catch((error: unknown) => {
      this.logger.error({ err: error }, 'repairing the set-aside streams at start failed; they stay set aside');
      return null;
    });
    if (report && report.stillFailing.length > 0) {
      this.logger.error({ setAside: report.stillFailing.map(({ projection, stream, eventId }) => ({ projection, stream, eventId })) }, 'streams still set aside after a repair');
    }
    this.running = true;
    await this.campaign();
  }

  /**
   * Applies the set-aside streams of the projections named (all when none are) again, each
   * from its first failed event up to the projection's checkpoint, against today's code and
   * data; those that apply are no longer set aside, the others stay, with their new error.
   * Safe beside a following runner, in this process or another: each stream is repaired in a
   * transaction holding the projection's checkpoint row.
   */
  async repair(names?: readonly string[]): Promise<RepairReport> {
    await this.createRunnerTables();
    const projections = names ? this.projections.filter((p) => names.includes(p.name)) : this.projections;
    return repairSetAsideStreams(this.db, this.store, projections, this.logger);
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.campaignTimer) clearInterval(this.campaignTimer);
    this.campaignTimer = null;
    await this.stopFollowing();
    // The rows of events passed lately, while this process still holds the projections' locks.
    await this.writePassedCheckpoints();
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
    for (const timer of this.rowTimers.values()) clearTimeout(timer);
    this.rowTimers.clear();
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
    // Another process leads now, from the rows as they are: this one's view of them is void.
    this.rowAt.clear();
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
   * poisoned event sets its stream aside as while following, and the rest goes on.
   */
  async catchUp(batchSize = 1000): Promise<void> {
    await this.prepare();
    const never = new AbortController().signal;
    for (const projection of this.projections) {
      for (;;) {
        const after = this.positions.get(projection.name) ?? START;
        const events = await this.store.readAll({ after, maxCount: batchSize, filter: { streamPrefixes: projection.streamPrefixes } });
        if (events.length === 0) break;
        await this.deliver(projection, after, events, never);
      }
    }
    await this.writePassedCheckpoints();
  }

  /** The checkpoint of one projection as this process last saw it. */
  positionOf(name: string): Position {
    return this.positions.get(name) ?? START;
  }

  /**
   * Resolves once the projections that read the event at `position` (or those named) have
   * applied it or passed it (an event of a set-aside stream is passed). A projection only moves
   * on events its filter matches, so waiting on one that never reads the event's stream would
   * never end.
   */
  async waitFor(position: Position, names?: readonly string[]): Promise<void> {
    const projections = names ? this.projections.filter((p) => names.includes(p.name)) : await this.projectionsReading(position);
    if (this.reached(position, projections)) return;
    await new Promise<void>((resolve) => this.waiters.add({ position, projections, resolve }));
  }

  /**
   * The projections whose filter matches the stream of the event at `position`. The log shows
   * an event only once no earlier transaction is still open, so a just-appended event may take
   * a moment to be readable: look again until it is (all projections if it never shows). A
   * later event shown first means no event is at `position` (a read model's own position, such
   * as the start, "-1:-1", of one that has applied nothing yet, which a query answers with):
   * all projections at once, not after five seconds of looking.
   */
  private async projectionsReading(position: Position): Promise<readonly Projection[]> {
    const before = { commit: position.commit, prepare: position.prepare - 1n };
    for (let attempt = 0; attempt < 200; attempt++) {
      const [event] = await this.store.readAll({ after: before, maxCount: 1 });
      if (event && comparePositions(event.position, position) === 0) {
        return this.projections.filter((p) => p.streamPrefixes.some((prefix) => event.stream.startsWith(prefix)));
      }
      if (event && comparePositions(event.position, position) > 0) return this.projections;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return this.projections;
  }

  private reached(position: Position, projections: readonly Projection[]): boolean {
    return projections.every((p) => comparePositions(this.positionOf(p.name), position) >= 0);
  }

  private async createRunnerTables(): Promise<void> {
    await this.db.exec(CHECKPOINTS_SCHEMA);
    await this.db.exec(DEAD_LETTERS_SCHEMA);
    await this.db.exec(SET_ASIDE_SCHEMA);
    await clearLegacyStops(this.db);
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

  /** Empties the read model, its dead letters and set-aside streams, and moves its checkpoint to the start. */
  private async reset(projection: Projection): Promise<void> {
    await this.db.exec(projection.schema);
    await this.db.transaction(async (tx) => {
      for (const table of projection.tables) await tx.query(`DELETE FROM ${table}`);
      await clearDeadLetters(tx, projection.name);
      await clearSetAsideStreams(tx, projection.name);
      await writeCheckpoint(tx, projection.name, projection.version, START);
    });
    this.rowAt.delete(projection.name);
    this.positions.set(projection.name, START);
  }

  private async follow(projection: Projection): Promise<void> {
    if (!this.running || !this.leading.has(projection.name)) return;
    const checkpoint = await readCheckpoint(this.db, projection.name);
    if (!this.running || !this.leading.has(projection.name)) return;
    const start = checkpoint?.position ?? START;
    // Following starts from the row as it is.
    this.rowAt.delete(projection.name);
    this.positions.set(projection.name, start);
    const control = new AbortController();
    this.followControls.set(projection.name, control);
    let after = start;
    // The service's own work: on the embedded database it takes turns with people's requests (ports/background-work.ts).
    const subscription = runInBackground(() => this.store.subscribeToAll(
      { after, filter: { streamPrefixes: projection.streamPrefixes }, batchSize: this.batchSize },
      {
        onEvents: async (events) => {
          await this.deliver(projection, after, events, control.signal);
          after = events[events.length - 1]!.position;
          this.restarts.delete(projection.name);
        },
        onError: (error) => {
          if (this.subscriptions.get(projection.name) === subscription) this.subscriptions.delete(projection.name);
          if (this.followControls.get(projection.name) === control) this.followControls.delete(projection.name);
          // Following ended on purpose: nothing to restart.
          if (control.signal.aborted) return;
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
    ));
    this.subscriptions.set(projection.name, subscription);
  }

  /**
   * Applies a batch, retrying with backoff. A batch that keeps failing with the database
   * answering is split: its events are applied one by one up to the one that fails on its own,
   * whose stream is set aside; the rest of the batch follows (without that stream's events).
   */
  private async deliver(projection: Projection, after: Position, events: readonly RecordedEvent[], signal: AbortSignal): Promise<void> {
    const failed = await this.attempt(projection, after, events, signal);
    if (!failed) return;
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
        await this.setAside(projection, position, event, poisoned, signal);
        const rest = events.slice(index + 1);
        if (rest.length > 0) await this.deliver(projection, event.position, rest, signal);
        return;
      }
      position = event.position;
    }
    // Every event went through on its own: the failure belonged to the batch as a whole.
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


  /**
   * Sets the event's stream aside and moves the checkpoint past the event, in one transaction:
   * the projection goes on with every other stream, and skips this one's later events.
   */
  private async setAside(projection: Projection, after: Position, event: RecordedEvent, poisoned: PoisonedEvent, signal: AbortSignal): Promise<void> {
    await this.untilDone(signal, () =>
      this.inTurn(projection.name, async () => {
        await this.db.transaction(async (tx) => {
          await lockCheckpointAt(tx, projection.name, this.rowAt.get(projection.name) ?? after);
          await setAsideStream(tx, projection.name, event, poisoned);
          await writeCheckpoint(tx, projection.name, projection.version, event.position);
        });
        this.rowAt.delete(projection.name);
      }),
    );
    this.logger.error(
      { projection: projection.name, setAside: poisoned },
      'projection set aside a stream it could not apply; its later events are skipped until a repair, the other streams go on',
    );
    this.advance(projection.name, event.position);
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

  private async applyBatch(projection: Projection, expected: Position, batch: readonly RecordedEvent[]): Promise<void> {
    const last = batch[batch.length - 1]!.position;
    const types = projection.eventTypes;
    const events = types ? batch.filter((event) => types.has(event.type)) : batch;
    if (events.length === 0) {
      // Nothing it reads: no transaction, and the row follows a moment later.
      if (!this.rowAt.has(projection.name)) this.rowAt.set(projection.name, expected);
      this.advance(projection.name, last);
      this.writeCheckpointSoon(projection);
      return;
    }
    await this.inTurn(projection.name, async () => {
      await this.db.transaction(async (tx) => {
        await lockCheckpointAt(tx, projection.name, this.rowAt.get(projection.name) ?? expected);
        // Read in the checkpoint's transaction: a repair (in any process) holds that row too.
        const setAside = await setAsideAmong(tx, projection.name, [...new Set(events.map((event) => event.stream))]);
        const applied = setAside.size === 0 ? events : events.filter((event) => !setAside.has(event.stream));
        if (applied.length < events.length) await recordSkipped(tx, projection.name, events.filter((event) => setAside.has(event.stream)));
        const changed = new ChangedTopics();
        if (applied.length > 0) await projection.apply(tx, applied, changed);
        await writeCheckpoint(tx, projection.name, projection.version, last);
        if (changed.topics.size > 0) {
          await sendLiveNotices(tx, { projection: projection.name, position: formatPosition(last), topics: [...changed.topics] });
        }
      });
      this.rowAt.delete(projection.name);
    });
    this.advance(projection.name, last);
  }

  /** Runs the projection's checkpoint writes one at a time (a batch's, a passed row's). */
  private inTurn<T>(name: string, work: () => Promise<T>): Promise<T> {
    const result = (this.turns.get(name) ?? Promise.resolve()).then(work);
    this.turns.set(name, result.catch(() => {}));
    return result;
  }

  private writeCheckpointSoon(projection: Projection): void {
    if (this.rowTimers.has(projection.name)) return;
    const timer = setTimeout(() => {
      this.rowTimers.delete(projection.name);
      this.writePassedCheckpoint(projection.name).catch((error: unknown) =>
        this.logger.warn?.({ err: error, projection: projection.name }, 'moving a checkpoint past unread events failed; the next batch moves it'),
      );
    }, PASSED_CHECKPOINT_MS);
    timer.unref();
    this.rowTimers.set(projection.name, timer);
  }

  /**
   * Moves the checkpoint row over the events passed since it was last written, if it still
   * stands where this process left it (one UPDATE; a row another process moved is left alone,
   * and this one's next batch finds out as it locks the row).
   */
  private async writePassedCheckpoint(name: string): Promise<void> {
    await this.inTurn(name, async () => {
      const from = this.rowAt.get(name);
      if (!from) return;
      const to = this.positionOf(name);
      const { rowCount } = await this.db.query(
        `UPDATE projection_checkpoints SET commit_position = $2::bigint, prepare_position = $3::bigint, updated_at = now()
          WHERE name = $1 AND commit_position = $4::bigint AND prepare_position = $5::bigint`,
        [name, to.commit.toString(), to.prepare.toString(), from.commit.toString(), from.prepare.toString()],
      );
      if (rowCount === 0 || this.rowAt.get(name) !== from) return;
      // Events passed while the row was written: it is behind again, from where it now stands.
      if (comparePositions(this.positionOf(name), to) === 0) this.rowAt.delete(name);
      else {
        this.rowAt.set(name, to);
        const projection = this.projections.find((p) => p.name === name);
        if (projection) this.writeCheckpointSoon(projection);
      }
    });
  }

  private async writePassedCheckpoints(): Promise<void> {
    for (const timer of this.rowTimers.values()) clearTimeout(timer);
    this.rowTimers.clear();
    for (const name of [...this.rowAt.keys()]) {
      await this.writePassedCheckpoint(name).catch((error: unknown) =>
        this.logger.warn?.({ err: error, projection: name }, 'moving a checkpoint past unread events failed; the next start reads them again'),
      );
    }
  }

  private advance(name: string, position: Position): void {
    this.positions.set(name, position);
    for (const waiter of [...this.waiters]) {
      if (this.reached(waiter.position, waiter.projections)) {
        this.waiters.delete(waiter);
        waiter.resolve();
      }
    }
  }
}
