/**
 * What a read model is to the runner: its tables, the events it reads, and how a batch of
 * them changes its rows. The runner calls `apply` inside the transaction that also moves the
 * projection's checkpoint, so a batch is applied exactly once. An event `apply` keeps failing
 * on sets its stream aside (set-aside-streams.ts): `apply` then sees none of that stream's
 * later events until a repair hands them all to it again, in order, from the failed one.
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
  /**
   * The event types `apply` does anything with, when it reads only a few of its streams' types
   * (absent: all of them). The runner hands `apply` no other type, and passes a batch holding
   * none without a transaction: a map's edits, most of its stream, cost the projections that
   * only read its creation, sharing or deletion nothing (issue 26 item 5). Their checkpoint row
   * catches up a moment later (runner.ts).
   */
  readonly eventTypes?: ReadonlySet<string>;
  apply(tx: Queryable, events: readonly RecordedEvent[], changed: ChangedTopics): Promise<void>;
}
