/**
 * What a read model is to the runner: its tables, the events it reads, and how a batch of
 * them changes its rows. The runner calls `apply` inside the transaction that also moves the
 * projection's checkpoint, so a batch is applied exactly once.
 */
import type { Queryable } from '../ports/database.js';
import type { RecordedEvent } from '../ports/event-store.js';

/** Topics whose read model a batch changed; pushed to live subscribers after commit. */
export class ChangedTopics {
  readonly topics = new Set<string>();
  add(topic: string): void {
    this.topics.add(topic);
  }
}

/**
 * What the runner does with an event that keeps failing on its own (after retries, with the
 * database answering): `park` moves it to the dead-letter table in the transaction that moves
 * the checkpoint past it, and the projection goes on; `stop` leaves the checkpoint before it
 * and stops the projection, loudly, until a restart or a rebuild. projections/README.md says
 * how to choose.
 */
export type PoisonedEventRule = 'park' | 'stop';

export interface Projection {
  /** Unique, stable name; the checkpoint is stored under it. */
  readonly name: string;
  /** Bump when the schema or the way events are applied changes: the runner then rebuilds. */
  readonly version: number;
  /** Idempotent DDL creating the projection's tables. */
  readonly schema: string;
  /** Tables emptied before a rebuild. */
  readonly tables: readonly string[];
  /** Stream name prefixes it reads (the subscription's filter). */
  readonly streamPrefixes: readonly string[];
  /** Park or stop on a poisoned event; each projection's file says why it chose its rule. */
  readonly onPoisonedEvent: PoisonedEventRule;
  apply(tx: Queryable, events: readonly RecordedEvent[], changed: ChangedTopics): Promise<void>;
}
