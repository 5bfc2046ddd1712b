import { countDeadLetters, listDeadLetters, type DeadLetter } from '../../projections/dead-letters.js';
import type { Projection } from '../../projections/projection.js';
import { listSetAsideStreams, type SetAsideStream } from '../../projections/set-aside-streams.js';
import type { Queryable } from '../../ports/database.js';

/** How many parked events /api/ready lists per projection (the count is complete). */
const LISTED_DEAD_LETTERS = 10;

export interface ProjectionFaults {
  /**
   * The streams it set aside (an event of theirs it could not apply): their read-model rows
   * stay as they were before that event until `npm run projections:repair` (or a restart)
   * applies them again. Every other stream goes on.
   */
  setAside: SetAsideStream[];
  /** Events an earlier version parked (dead letters) since the projection's last rebuild. */
  parked: number;
  /** The first parked events, in log order. */
  deadLetters?: DeadLetter[];
}

/**
 * Per projection (or reactor), the streams it set aside and what earlier versions parked: read
 * from the database, so every process reports the same, whichever one runs it.
 */
export async function projectionFaults(
  db: Queryable,
  projections: readonly Pick<Projection, 'name'>[],
  options: { list?: boolean } = {},
): Promise<Record<string, ProjectionFaults>> {
  const names = projections.map((projection) => projection.name);
  const [setAside, counts] = await Promise.all([listSetAsideStreams(db, names), countDeadLetters(db)]);
  const faults: Record<string, ProjectionFaults> = {};
  for (const name of names) {
    const parked = counts[name] ?? 0;
    faults[name] = {
      setAside: setAside.filter((stream) => stream.projection === name),
      parked,
      ...(options.list && parked > 0 ? { deadLetters: await listDeadLetters(db, name, LISTED_DEAD_LETTERS) } : {}),
    };
  }
  return faults;
}
