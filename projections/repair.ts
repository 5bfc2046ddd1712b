/**
 * Repairs set-aside streams (set-aside-streams.ts): once a fix is deployed (a projection that
 * now accepts the event, an upcaster that now reads it), each stream's events from its first
 * failed one up to the projection's checkpoint are applied again, in log order, in one
 * transaction with its checkpoint row locked, and the stream is no longer set aside. Events
 * after the checkpoint are the follower's, as for any stream. A stream that still fails stays
 * set aside with its new error.
 *
 * Called by the runner at start (ProjectionRunner.repair) and by `npm run projections:repair`
 * (server/ops/repair-projections-cli.ts); both may run beside a following runner.
 */
import { comparePositions, formatPosition, START, type Position } from '../events/position.js';
import type { Database } from '../ports/database.js';
import type { EventStore, RecordedEvent } from '../ports/event-store.js';
import { CheckpointMovedError, lockCheckpointAt, readCheckpoint } from './checkpoints.js';
import { errorText } from './dead-letters.js';
import { sendLiveNotices } from './live-notices.js';
import { ChangedTopics, type Projection } from './projection.js';
import { clearSetAsideStream, listSetAsideStreams, setAsideAgain, type SetAsideStream } from './set-aside-streams.js';

export interface RepairReport {
  /** Streams applied again, no longer set aside. */
  repaired: SetAsideStream[];
  /** Streams that failed again: still set aside, with their new error. */
  stillFailing: SetAsideStream[];
}

export interface RepairLogger {
  error(details: object, message: string): void;
  info?(details: object, message: string): void;
}

/** A follower that keeps moving the checkpoint is waited for this many times, then left for the next repair. */
const MOVED_TRIES = 20;

type Outcome = { repaired: true } | { repaired: false; error: string };

export async function repairSetAsideStreams(
  db: Database,
  store: EventStore,
  projections: readonly Projection[],
  logger: RepairLogger,
): Promise<RepairReport> {
  const report: RepairReport = { repaired: [], stillFailing: [] };
  if (projections.length === 0) return report;
  const byName = new Map(projections.map((projection) => [projection.name, projection]));
  for (const record of await listSetAsideStreams(db, [...byName.keys()])) {
    const outcome = await repairStream(db, store, byName.get(record.projection)!, record);
    if (outcome.repaired) {
      logger.info?.({ projection: record.projection, stream: record.stream }, 'set-aside stream repaired');
      report.repaired.push(record);
    } else {
      logger.error({ projection: record.projection, stream: record.stream, error: outcome.error }, 'set-aside stream still fails; it stays set aside');
      report.stillFailing.push({ ...record, error: outcome.error, attempts: record.attempts + 1 });
    }
  }
  return report;
}

async function repairStream(db: Database, store: EventStore, projection: Projection, record: SetAsideStream): Promise<Outcome> {
  for (let tries = 0; tries < MOVED_TRIES; tries++) {
    const checkpoint = (await readCheckpoint(db, projection.name))?.position ?? START;
    // Read before the transaction: on PGlite the transaction holds the only connection.
    const events = (await store.readStream(record.stream, { fromRevision: BigInt(record.revision) })).filter(
      (event) => comparePositions(event.position, checkpoint) <= 0,
    );
    const first = events[0];
    if (!first || first.id !== record.eventId) return { repaired: false, error: `The stream no longer starts its failed part with event ${record.eventId}.` };
    try {
      await applyAgain(db, projection, record, checkpoint, events);
      return { repaired: true };
    } catch (error) {
      if (error instanceof CheckpointMovedError) continue;
      const text = errorText(error);
      await db.transaction((tx) => setAsideAgain(tx, projection.name, first, text)).catch(() => {});
      return { repaired: false, error: text };
    }
  }
  return { repaired: false, error: 'The projection kept moving while the stream was repaired; try again.' };
}

async function applyAgain(db: Database, projection: Projection, record: SetAsideStream, checkpoint: Position, events: readonly RecordedEvent[]): Promise<void> {
  await db.transaction(async (tx) => {
    await lockCheckpointAt(tx, projection.name, checkpoint);
    // Another process may have repaired it since it was listed.
    const { rows } = await tx.query<{ event_id: string }>(
      'SELECT event_id FROM projection_set_aside_streams WHERE projection = $1 AND stream = $2 FOR UPDATE',
      [projection.name, record.stream],
    );
    if (rows[0]?.event_id !== record.eventId) return;
    const changed = new ChangedTopics();
    await projection.apply(tx, events, changed);
    await clearSetAsideStream(tx, projection.name, record.stream);
    if (changed.topics.size > 0) {
      await sendLiveNotices(tx, { projection: projection.name, position: formatPosition(checkpoint), topics: [...changed.topics] });
    }
  });
}
