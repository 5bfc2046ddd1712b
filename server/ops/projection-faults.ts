import { readStops, type ProjectionStop } from '../../projections/checkpoints.js';
import { countDeadLetters, listDeadLetters, type DeadLetter } from '../../projections/dead-letters.js';
import type { Projection } from '../../projections/projection.js';
import type { Queryable } from '../../ports/database.js';

/** How many parked events /api/ready lists per projection (the count is complete). */
const LISTED_DEAD_LETTERS = 10;

export interface ProjectionFaults {
  /** `stopped`: it stopped on a poisoned event and applies nothing until a restart with a fix, or a rebuild. */
  state: 'running' | 'stopped';
  /** Events it parked (dead letters) since its last rebuild. */
  parked: number;
  /** The event it stopped before, and why. */
  stoppedOn?: ProjectionStop;
  /** The first parked events, in log order. */
  deadLetters?: DeadLetter[];
}

/**
 * Per projection, whether it stopped and what it parked: read from the database, so every
 * process reports the same, whichever one runs the projection.
 */
export async function projectionFaults(
  db: Queryable,
  projections: readonly Projection[],
  options: { list?: boolean } = {},
): Promise<Record<string, ProjectionFaults>> {
  const [stops, counts] = await Promise.all([readStops(db), countDeadLetters(db)]);
  const faults: Record<string, ProjectionFaults> = {};
  for (const { name } of projections) {
    const parked = counts[name] ?? 0;
    const stop = stops[name];
    faults[name] = {
      state: stop ? 'stopped' : 'running',
      parked,
      ...(stop ? { stoppedOn: stop } : {}),
      ...(options.list && parked > 0 ? { deadLetters: await listDeadLetters(db, name, LISTED_DEAD_LETTERS) } : {}),
    };
  }
  return faults;
}
