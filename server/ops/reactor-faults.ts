import { countDeadLetters, listDeadLetters, type DeadLetter } from '../../projections/dead-letters.js';
import type { Queryable } from '../../ports/database.js';

/** How many parked events /api/ready lists per reactor (the count is complete). */
const LISTED_DEAD_LETTERS = 10;

export interface ReactorFaults {
  /** Events it parked (dead letters under its name); a reactor never stops, it goes on. */
  parked: number;
  /** The first parked events, in log order. */
  deadLetters?: DeadLetter[];
}

/**
 * Per reactor (server/billing/reactor-runner.ts), what it parked: read from the database, so
 * every process reports the same, whichever one runs the reactor. Reactors share the
 * projections' dead-letter table, under their own names, but are reported apart from them:
 * they have no read model, no version and no lag.
 */
export async function reactorFaults(db: Queryable, reactors: readonly string[], options: { list?: boolean } = {}): Promise<Record<string, ReactorFaults>> {
  const counts = await countDeadLetters(db);
  const faults: Record<string, ReactorFaults> = {};
  for (const name of reactors) {
    const parked = counts[name] ?? 0;
    faults[name] = { parked, ...(options.list && parked > 0 ? { deadLetters: await listDeadLetters(db, name, LISTED_DEAD_LETTERS) } : {}) };
  }
  return faults;
}
