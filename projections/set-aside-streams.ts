/**
 * Streams set aside: the unit of failure is the stream (one map, one customer), not the
 * projection. When a projection (or a reactor) cannot apply an event on its own, after
 * retries, with the database answering, it records the event's stream here, moves its
 * checkpoint on for every other stream, and skips that stream's later events, each recorded
 * in `projection_skipped_events`, until a repair re-applies them all in log order (the runner's
 * `repair`, `npm run projections:repair`). The stream's rows stay as they were before its
 * first failed event: stale but consistent, never a later edit applied to a wrong base.
 *
 * Every row is written in the transaction that moves the checkpoint, so the set of skipped
 * events is exactly the stream's events between its first failed one and the checkpoint.
 */
import type { Queryable } from '../ports/database.js';
import type { RecordedEvent } from '../ports/event-store.js';
import type { PoisonedEvent } from './dead-letters.js';

export const SET_ASIDE_SCHEMA = `
CREATE TABLE IF NOT EXISTS projection_set_aside_streams (
  projection text NOT NULL,
  stream text NOT NULL,
  event_id text NOT NULL,
  type text NOT NULL,
  revision bigint NOT NULL,
  commit_position bigint NOT NULL,
  prepare_position bigint NOT NULL,
  error text NOT NULL,
  attempts integer NOT NULL,
  set_aside_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (projection, stream)
);
CREATE INDEX IF NOT EXISTS projection_set_aside_streams_stream ON projection_set_aside_streams (stream);
CREATE TABLE IF NOT EXISTS projection_skipped_events (
  projection text NOT NULL,
  stream text NOT NULL,
  event_id text NOT NULL,
  type text NOT NULL,
  commit_position bigint NOT NULL,
  prepare_position bigint NOT NULL,
  skipped_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (projection, event_id)
);
CREATE INDEX IF NOT EXISTS projection_skipped_events_stream ON projection_skipped_events (projection, stream);`;

/** A stream a projection or reactor set aside: the event it first failed on, and how. */
export interface SetAsideStream extends PoisonedEvent {
  projection: string;
  /** ISO time it was set aside. */
  setAsideAt: string;
  /** The failed event's revision in its stream: a repair reads the stream from there. */
  revision: string;
  /** Later events of the stream skipped since (re-applied by a repair). */
  skipped: number;
}

/** Records the stream as set aside at its poisoned event (the first failure stays if it already was). */
export async function setAsideStream(tx: Queryable, projection: string, event: RecordedEvent, poisoned: PoisonedEvent): Promise<void> {
  await tx.query(
    `INSERT INTO projection_set_aside_streams (projection, stream, event_id, type, revision, commit_position, prepare_position, error, attempts)
     VALUES ($1, $2, $3, $4, $5::bigint, $6::bigint, $7::bigint, $8, $9)
     ON CONFLICT (projection, stream) DO UPDATE SET error = EXCLUDED.error, attempts = EXCLUDED.attempts`,
    [projection, event.stream, event.id, event.type, event.revision.toString(), event.position.commit.toString(), event.position.prepare.toString(), poisoned.error, poisoned.attempts],
  );
}

/**
 * A repair failed again: the stream stays set aside from `event` on (a reactor may have
 * handled the events before it), with the new error. Skipped events before it are forgotten.
 */
export async function setAsideAgain(tx: Queryable, projection: string, event: RecordedEvent, error: string): Promise<void> {
  await tx.query(
    `UPDATE projection_set_aside_streams SET event_id = $3, type = $4, revision = $5::bigint, commit_position = $6::bigint,
       prepare_position = $7::bigint, error = $8, attempts = attempts + 1 WHERE projection = $1 AND stream = $2`,
    [projection, event.stream, event.id, event.type, event.revision.toString(), event.position.commit.toString(), event.position.prepare.toString(), error],
  );
  await tx.query(
    `DELETE FROM projection_skipped_events WHERE projection = $1 AND stream = $2
       AND (commit_position, prepare_position) <= ($3::bigint, $4::bigint)`,
    [projection, event.stream, event.position.commit.toString(), event.position.prepare.toString()],
  );
}

/** Of these streams, those the projection has set aside. */
export async function setAsideAmong(tx: Queryable, projection: string, streams: readonly string[]): Promise<Set<string>> {
  const { rows } = await tx.query<{ stream: string }>(
    'SELECT stream FROM projection_set_aside_streams WHERE projection = $1 AND stream = ANY($2::text[])',
    [projection, streams],
  );
  return new Set(rows.map((row) => row.stream));
}

/** Records events of set-aside streams that the projection passed without applying. */
export async function recordSkipped(tx: Queryable, projection: string, events: readonly RecordedEvent[]): Promise<void> {
  for (const event of events) {
    await tx.query(
      `INSERT INTO projection_skipped_events (projection, stream, event_id, type, commit_position, prepare_position)
       VALUES ($1, $2, $3, $4, $5::bigint, $6::bigint) ON CONFLICT (projection, event_id) DO NOTHING`,
      [projection, event.stream, event.id, event.type, event.position.commit.toString(), event.position.prepare.toString()],
    );
  }
}

/** The stream is repaired (or the read model reset): forget it and its skipped events. */
export async function clearSetAsideStream(tx: Queryable, projection: string, stream: string): Promise<void> {
  await tx.query('DELETE FROM projection_skipped_events WHERE projection = $1 AND stream = $2', [projection, stream]);
  await tx.query('DELETE FROM projection_set_aside_streams WHERE projection = $1 AND stream = $2', [projection, stream]);
}

/** A reset replays the whole log: nothing stays set aside. */
export async function clearSetAsideStreams(tx: Queryable, projection: string): Promise<void> {
  await tx.query('DELETE FROM projection_skipped_events WHERE projection = $1', [projection]);
  await tx.query('DELETE FROM projection_set_aside_streams WHERE projection = $1', [projection]);
}

type Row = {
  projection: string;
  stream: string;
  event_id: string;
  type: string;
  revision: string;
  commit_position: string;
  prepare_position: string;
  error: string;
  attempts: number;
  set_aside_at: Date | string;
  skipped: string;
};

const SELECT = `
  SELECT s.projection, s.stream, s.event_id, s.type, s.revision::text, s.commit_position::text, s.prepare_position::text, s.error, s.attempts, s.set_aside_at,
         (SELECT count(*) FROM projection_skipped_events k WHERE k.projection = s.projection AND k.stream = s.stream)::text AS skipped
    FROM projection_set_aside_streams s`;

function fromRow(row: Row): SetAsideStream {
  return {
    projection: row.projection,
    eventId: row.event_id,
    stream: row.stream,
    type: row.type,
    position: `${row.commit_position}:${row.prepare_position}`,
    error: row.error,
    attempts: row.attempts,
    setAsideAt: new Date(row.set_aside_at).toISOString(),
    revision: row.revision,
    skipped: Number(row.skipped),
  };
}

/** Every set-aside stream of the projections named (all when none are), in log order of their first failure. */
export async function listSetAsideStreams(db: Queryable, projections?: readonly string[]): Promise<SetAsideStream[]> {
  const { rows } = projections
    ? await db.query<Row>(`${SELECT} WHERE s.projection = ANY($1::text[]) ORDER BY s.commit_position, s.prepare_position, s.projection`, [projections])
    : await db.query<Row>(`${SELECT} ORDER BY s.commit_position, s.prepare_position, s.projection`);
  return rows.map(fromRow);
}

/** Whoever set the stream aside (any projection or reactor), first failure first. */
export async function setAsideRecordsOf(db: Queryable, stream: string): Promise<SetAsideStream[]> {
  const { rows } = await db.query<Row>(`${SELECT} WHERE s.stream = $1 ORDER BY s.commit_position, s.prepare_position, s.projection`, [stream]);
  return rows.map(fromRow);
}
