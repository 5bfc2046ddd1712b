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
 */
import { comparePositions, formatPosition, START, type Position } from '../events/position.js';
import type { Database, LockSession } from '../server/db/database.js';
import type { EventStore, RecordedEvent, Subscription } from '../server/event-store/event-store.js';
import { CHECKPOINTS_SCHEMA, readCheckpoint, writeCheckpoint } from './checkpoints.js';
import { sendLiveNotices } from './live-notices.js';
import { ChangedTopics, type Projection } from './projection.js';

export interface RunnerLogger {
  error(details: object, message: string): void;
  info?(details: object, message: string): void;
}

class CheckpointMovedError extends Error {}

const RESTART_DELAY_MS = 500;
/** How often a process without a projection's lock tries to take it. */
const LEADERSHIP_RETRY_MS = 1_000;

export class ProjectionRunner {
  private readonly positions = new Map<string, Position>();
  private readonly subscriptions = new Map<string, Subscription>();
  private readonly waiters = new Set<{ position: Position; projections: readonly Projection[]; resolve: () => void }>();
  private running = false;
  private lockSession: LockSession | null = null;
  private campaignTimer: NodeJS.Timeout | null = null;
  private readonly leading = new Set<string>();

  constructor(
    private readonly db: Database,
    private readonly store: EventStore,
    readonly projections: readonly Projection[],
    private readonly logger: RunnerLogger = { error: () => {} },
    private readonly batchSize = 500,
  ) {}

  /**
   * Creates the tables, rebuilds projections whose version changed, and starts following every
   * projection this process can lead; the others are retried every second.
   */
  async start(): Promise<void> {
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
    await this.db.exec(CHECKPOINTS_SCHEMA);
    for (const projection of this.projections) await this.reset(projection);
  }

  /** Replays everything now, from each checkpoint to the end of the log, then returns. */
  async catchUp(batchSize = 1000): Promise<void> {
    await this.prepare();
    for (const projection of this.projections) {
      for (;;) {
        const after = this.positions.get(projection.name) ?? START;
        const events = await this.store.readAll({ after, maxCount: batchSize, filter: { streamPrefixes: projection.streamPrefixes } });
        if (events.length === 0) break;
        await this.applyBatch(projection, after, events);
      }
    }
  }

  /** The checkpoint of one projection as this process last saw it. */
  positionOf(name: string): Position {
    return this.positions.get(name) ?? START;
  }

  /**
   * Resolves once the projections that read the event at `position` (or those named) have
   * applied it or passed it. A projection only moves on events its filter matches, so waiting
   * on one that never reads the event's stream would never end.
   */
  async waitFor(position: Position, names?: readonly string[]): Promise<void> {
    const projections = names ? this.projections.filter((p) => names.includes(p.name)) : await this.projectionsReading(position);
    if (this.reached(position, projections)) return;
    await new Promise<void>((resolve) => this.waiters.add({ position, projections, resolve }));
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

  private async prepare(): Promise<void> {
    await this.db.exec(CHECKPOINTS_SCHEMA);
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

  private async reset(projection: Projection): Promise<void> {
    await this.db.exec(projection.schema);
    await this.db.transaction(async (tx) => {
      for (const table of projection.tables) await tx.query(`DELETE FROM ${table}`);
      await writeCheckpoint(tx, projection.name, projection.version, START);
    });
    this.positions.set(projection.name, START);
  }

  private async follow(projection: Projection): Promise<void> {
    if (!this.running || !this.leading.has(projection.name)) return;
    const checkpoint = await readCheckpoint(this.db, projection.name);
    const start = checkpoint?.position ?? START;
    this.positions.set(projection.name, start);
    let after = start;
    const subscription = this.store.subscribeToAll(
      { after, filter: { streamPrefixes: projection.streamPrefixes }, batchSize: this.batchSize },
      {
        onEvents: async (events) => {
          await this.applyBatch(projection, after, events);
          after = events[events.length - 1]!.position;
        },
        onError: (error) => {
          if (!(error instanceof CheckpointMovedError)) {
            this.logger.error({ err: error, projection: projection.name }, 'projection failed; restarting from its checkpoint');
          }
          this.subscriptions.delete(projection.name);
          setTimeout(() => void this.follow(projection).catch(() => {}), error instanceof CheckpointMovedError ? 0 : RESTART_DELAY_MS);
        },
      },
    );
    this.subscriptions.set(projection.name, subscription);
  }

  private async applyBatch(projection: Projection, expected: Position, events: readonly RecordedEvent[]): Promise<void> {
    const last = events[events.length - 1]!.position;
    await this.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ commit_position: string; prepare_position: string }>(
        'SELECT commit_position::text, prepare_position::text FROM projection_checkpoints WHERE name = $1 FOR UPDATE',
        [projection.name],
      );
      const stored = rows[0] ? { commit: BigInt(rows[0].commit_position), prepare: BigInt(rows[0].prepare_position) } : START;
      if (comparePositions(stored, expected) !== 0) throw new CheckpointMovedError(`Checkpoint of ${projection.name} moved`);
      const changed = new ChangedTopics();
      await projection.apply(tx, events, changed);
      await writeCheckpoint(tx, projection.name, projection.version, last);
      if (changed.topics.size > 0) {
        await sendLiveNotices(tx, { projection: projection.name, position: formatPosition(last), topics: [...changed.topics] });
      }
    });
    this.positions.set(projection.name, last);
    for (const waiter of [...this.waiters]) {
      if (this.reached(waiter.position, waiter.projections)) {
        this.waiters.delete(waiter);
        waiter.resolve();
      }
    }
  }
}
