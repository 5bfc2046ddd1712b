/**
 * Poisoned events: an event a projection or reactor could not apply on its own, after
 * retries, with the database answering. Today its stream is set aside (set-aside-streams.ts);
 * `PoisonedEvent` is what is recorded about it, and `errorText` how its error is kept.
 *
 * The table is what earlier versions wrote when they parked an event (skipped it alone and
 * went on with its stream). Nothing parks any more, but rows parked before an upgrade are
 * still reported (/api/ready `parked`, /metrics) until a rebuild of the projection clears them;
 * a reactor's stay until removed by hand (the root README says how to hand them back).
 */
import { formatPosition } from '../events/position.js';
import type { Queryable } from '../ports/database.js';
import type { RecordedEvent } from '../ports/event-store.js';

export const DEAD_LETTERS_SCHEMA = `
CREATE TABLE IF NOT EXISTS projection_dead_letters (
  projection text NOT NULL,
  event_id text NOT NULL,
  stream text NOT NULL,
  type text NOT NULL,
  commit_position bigint NOT NULL,
  prepare_position bigint NOT NULL,
  error text NOT NULL,
  attempts integer NOT NULL,
  parked_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (projection, event_id)
);`;

/** The event a projection failed on, and how. */
export interface PoisonedEvent {
  eventId: string;
  stream: string;
  type: string;
  /** Its global position, "commit:prepare". */
  position: string;
  /** The last error's message. */
  error: string;
  /** Failed attempts to apply it, in its batch and alone. */
  attempts: number;
}

export interface DeadLetter extends PoisonedEvent {
  projection: string;
  /** ISO time it was parked. */
  parkedAt: string;
}

const MAX_ERROR_LENGTH = 2000;

/**
 * The error as text PostgreSQL accepts: no NUL, no unpaired surrogate (an error message may
 * quote the very event data that poisoned the projection), and not unbounded.
 */
export function errorText(error: unknown): string {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return message
    .replaceAll('\u0000', '')
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
    .slice(0, MAX_ERROR_LENGTH);
}

export function poisonedEvent(event: RecordedEvent, error: unknown, attempts: number): PoisonedEvent {
  return { eventId: event.id, stream: event.stream, type: event.type, position: formatPosition(event.position), error: errorText(error), attempts };
}

export async function clearDeadLetters(tx: Queryable, projection: string): Promise<void> {
  await tx.query('DELETE FROM projection_dead_letters WHERE projection = $1', [projection]);
}

/** Parked events per projection (projections with none are left out). */
export async function countDeadLetters(db: Queryable): Promise<Record<string, number>> {
  const { rows } = await db.query<{ projection: string; n: string }>(
    'SELECT projection, count(*)::text AS n FROM projection_dead_letters GROUP BY projection',
  );
  return Object.fromEntries(rows.map((row) => [row.projection, Number(row.n)]));
}

/** A projection's parked events in log order, the first `limit` of them. */
export async function listDeadLetters(db: Queryable, projection: string, limit = 100): Promise<DeadLetter[]> {
  const { rows } = await db.query<{
    projection: string;
    event_id: string;
    stream: string;
    type: string;
    commit_position: string;
    prepare_position: string;
    error: string;
    attempts: number;
    parked_at: Date | string;
  }>(
    `SELECT projection, event_id, stream, type, commit_position::text, prepare_position::text, error, attempts, parked_at
       FROM projection_dead_letters WHERE projection = $1
      ORDER BY commit_position, prepare_position LIMIT $2`,
    [projection, limit],
  );
  return rows.map((row) => ({
    projection: row.projection,
    eventId: row.event_id,
    stream: row.stream,
    type: row.type,
    position: `${row.commit_position}:${row.prepare_position}`,
    error: row.error,
    attempts: row.attempts,
    parkedAt: new Date(row.parked_at).toISOString(),
  }));
}
