/**
 * Where each projection stands in the log, and whether it stopped there: a projection whose
 * rule is `stop` records the poisoned event it could not get past. Moving the checkpoint (the
 * event went through after a fix and a restart, or a rebuild) clears the stop.
 */
import { START, type Position } from '../events/position.js';
import type { Queryable } from '../ports/database.js';
import type { PoisonedEvent } from './dead-letters.js';

export const CHECKPOINTS_SCHEMA = `
CREATE TABLE IF NOT EXISTS projection_checkpoints (
  name text PRIMARY KEY,
  version integer NOT NULL,
  commit_position bigint NOT NULL,
  prepare_position bigint NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE projection_checkpoints ADD COLUMN IF NOT EXISTS stopped jsonb;`;

/** The poisoned event a projection stopped on (the event right after its checkpoint). */
export interface ProjectionStop extends PoisonedEvent {
  /** ISO time it stopped. */
  stoppedAt: string;
}

export interface Checkpoint {
  version: number;
  position: Position;
  stopped: ProjectionStop | null;
}

export async function readCheckpoint(db: Queryable, name: string): Promise<Checkpoint | null> {
  const { rows } = await db.query<{ version: number; commit_position: string; prepare_position: string; stopped: ProjectionStop | null }>(
    'SELECT version, commit_position::text, prepare_position::text, stopped FROM projection_checkpoints WHERE name = $1',
    [name],
  );
  const row = rows[0];
  if (!row) return null;
  return { version: row.version, position: { commit: BigInt(row.commit_position), prepare: BigInt(row.prepare_position) }, stopped: row.stopped };
}

/** Moves the checkpoint; a projection that moves is no longer stopped. */
export async function writeCheckpoint(db: Queryable, name: string, version: number, position: Position = START): Promise<void> {
  await db.query(
    `INSERT INTO projection_checkpoints (name, version, commit_position, prepare_position)
     VALUES ($1, $2, $3::bigint, $4::bigint)
     ON CONFLICT (name) DO UPDATE SET version = EXCLUDED.version, commit_position = EXCLUDED.commit_position,
       prepare_position = EXCLUDED.prepare_position, updated_at = now(), stopped = NULL`,
    [name, version, position.commit.toString(), position.prepare.toString()],
  );
}

export async function markStopped(db: Queryable, name: string, stop: ProjectionStop): Promise<void> {
  await db.query('UPDATE projection_checkpoints SET stopped = $2::jsonb WHERE name = $1', [name, JSON.stringify(stop)]);
}

/** Every stopped projection, by name. */
export async function readStops(db: Queryable): Promise<Record<string, ProjectionStop>> {
  const { rows } = await db.query<{ name: string; stopped: ProjectionStop }>(
    'SELECT name, stopped FROM projection_checkpoints WHERE stopped IS NOT NULL',
  );
  return Object.fromEntries(rows.map((row) => [row.name, row.stopped]));
}
