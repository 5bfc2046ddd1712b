/**
 * Where each projection (and reactor) stands in the log. The checkpoint moves in the
 * transaction that applies its events, sets a stream aside or skips a set-aside stream's
 * events, and the row is locked and compared first, so two processes never apply a batch twice.
 *
 * The `stopped` column is what earlier versions wrote when a projection stopped on a
 * poisoned event. Nothing stops any more (a stream is set aside instead, set-aside-streams.ts):
 * the runner clears it at start, and the event it named is tried again and, if it still fails,
 * sets its stream aside.
 */
import { comparePositions, START, type Position } from '../events/position.js';
import type { Queryable } from '../ports/database.js';

export const CHECKPOINTS_SCHEMA = `
CREATE TABLE IF NOT EXISTS projection_checkpoints (
  name text PRIMARY KEY,
  version integer NOT NULL,
  commit_position bigint NOT NULL,
  prepare_position bigint NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE projection_checkpoints ADD COLUMN IF NOT EXISTS stopped jsonb;`;

export interface Checkpoint {
  version: number;
  position: Position;
}

export async function readCheckpoint(db: Queryable, name: string): Promise<Checkpoint | null> {
  const { rows } = await db.query<{ version: number; commit_position: string; prepare_position: string }>(
    'SELECT version, commit_position::text, prepare_position::text FROM projection_checkpoints WHERE name = $1',
    [name],
  );
  const row = rows[0];
  if (!row) return null;
  return { version: row.version, position: { commit: BigInt(row.commit_position), prepare: BigInt(row.prepare_position) } };
}

/** Moves the checkpoint (and clears an earlier version's stop). */
export async function writeCheckpoint(db: Queryable, name: string, version: number, position: Position = START): Promise<void> {
  await db.query(
    `INSERT INTO projection_checkpoints (name, version, commit_position, prepare_position)
     VALUES ($1, $2, $3::bigint, $4::bigint)
     ON CONFLICT (name) DO UPDATE SET version = EXCLUDED.version, commit_position = EXCLUDED.commit_position,
       prepare_position = EXCLUDED.prepare_position, updated_at = now(), stopped = NULL`,
    [name, version, position.commit.toString(), position.prepare.toString()],
  );
}

/** Earlier versions' stops are void: the runner retries the event they named. */
export async function clearLegacyStops(db: Queryable): Promise<void> {
  await db.query('UPDATE projection_checkpoints SET stopped = NULL WHERE stopped IS NOT NULL');
}

/** The checkpoint was not where the caller left it: another process moved it. */
export class CheckpointMovedError extends Error {
  constructor(name: string) {
    super(`Checkpoint of ${name} moved`);
    this.name = 'CheckpointMovedError';
  }
}

/** Locks the checkpoint row for this transaction and answers where it stands (the start when there is none). */
export async function lockCheckpoint(tx: Queryable, name: string): Promise<Position> {
  const { rows } = await tx.query<{ commit_position: string; prepare_position: string }>(
    'SELECT commit_position::text, prepare_position::text FROM projection_checkpoints WHERE name = $1 FOR UPDATE',
    [name],
  );
  return rows[0] ? { commit: BigInt(rows[0].commit_position), prepare: BigInt(rows[0].prepare_position) } : START;
}

/** Locks the checkpoint row; throws CheckpointMovedError unless it is at `expected`. */
export async function lockCheckpointAt(tx: Queryable, name: string, expected: Position): Promise<void> {
  if (comparePositions(await lockCheckpoint(tx, name), expected) !== 0) throw new CheckpointMovedError(name);
}
