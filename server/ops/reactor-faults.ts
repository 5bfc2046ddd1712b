import type { Queryable } from '../../ports/database.js';
import { projectionFaults, type ProjectionFaults } from './projection-faults.js';

/** A reactor's faults: the streams it set aside (per customer) and what earlier versions parked. */
export type ReactorFaults = ProjectionFaults;

/**
 * Per reactor (server/billing/reactor-runner.ts), what it set aside or parked: read from the
 * database, so every process reports the same, whichever one runs the reactor. Reactors share
 * the projections' tables, under their own names, but are reported apart from them: they have
 * no read model, no version and no lag.
 */
export function reactorFaults(db: Queryable, reactors: readonly string[], options: { list?: boolean } = {}): Promise<Record<string, ReactorFaults>> {
  return projectionFaults(db, reactors.map((name) => ({ name })), options);
}
