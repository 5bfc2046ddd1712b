import { START, type Position } from '../events/position.js';
import type { Queryable } from '../server/db/database.js';

export const CHECKPOINTS_SCHEMA = `
CREATE TABLE IF NOT EXISTS projection_checkpoints (
  name text PRIMARY KEY,
  version integer NOT NULL,
  commit_position bigint NOT NULL,
  prepare_position bigint NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);`;

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

export async function writeCheckpoint(db: Queryable, name: string, version: number, position: Position = START): Promise<void> {
  await db.query(
    `INSERT INTO projection_checkpoints (name, version, commit_position, prepare_position)
     VALUES ($1, $2, $3::bigint, $4::bigint)
     ON CONFLICT (name) DO UPDATE SET version = EXCLUDED.version, commit_position = EXCLUDED.commit_position,
       prepare_position = EXCLUDED.prepare_position, updated_at = now()`,
    [name, version, position.commit.toString(), position.prepare.toString()],
  );
}
