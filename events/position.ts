import { z } from 'zod';

/**
 * A place in the global event log, ordered first by `commit` then by `prepare`.
 *
 * The pair mirrors KurrentDB's `{commit, prepare}` log position. The PostgreSQL store fills
 * it with (transaction id, sequence number): ordering by transaction id first is what lets
 * a reader never skip an event whose transaction committed after a later-numbered one.
 */
export interface Position {
  readonly commit: bigint;
  readonly prepare: bigint;
}

/** The position before every event: reading "after" it starts at the very first event. */
export const START: Position = Object.freeze({ commit: -1n, prepare: -1n });

export function comparePositions(a: Position, b: Position): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

export function maxPosition(a: Position, b: Position): Position {
  return comparePositions(a, b) >= 0 ? a : b;
}

/** Wire form: "commit:prepare" in decimal. JSON has no bigint, and this keeps it readable. */
export function formatPosition(position: Position): string {
  return `${position.commit}:${position.prepare}`;
}

const WIRE = /^(-1|\d{1,20}):(-1|\d{1,20})$/;

export function parsePosition(text: string): Position {
  const match = WIRE.exec(text);
  if (!match) throw new Error(`Not a position: ${text}`);
  return { commit: BigInt(match[1]!), prepare: BigInt(match[2]!) };
}

/** zod schema for a position on the wire; parses into a {@link Position}. */
export const PositionWire = z
  .string()
  .regex(WIRE, 'Not a position')
  .transform((text) => parsePosition(text));
