/**
 * The insights read model (`map_insights`: a count per map, UTC day, kind and key) and the
 * counter in front of it. Visits are never events: 2,000 views a second as events would
 * swamp the log every auditor replays, and a view changes nothing anyone decides on. They are
 * added up in memory per (map, day, kind, key) and written every few seconds
 * (INSIGHTS_FLUSH_MS), as one `INSERT … ON CONFLICT DO UPDATE SET count = count + excluded.count`
 * per batch (on PGlite, batches of 200 with the event loop let run between them: the database
 * is in the server's thread), so a burst on one map is one row's update, not thousands of writes.
 *
 * Not a projection: nothing in the log could make these rows again, so a rebuild never
 * empties the table (like the view links' keys, server/access/view-link-keys.ts).
 *
 * What can be lost: on a graceful stop (SIGTERM, `app.close()`) nothing, since closing flushes
 * what is pending after the last request was answered. A crash (kill -9, power) loses what was
 * counted since the last flush: at most INSIGHTS_FLUSH_MS (2 s by default) of visits, and the
 * last batch written if its commit had not reached the disk yet (the timer's flushes commit
 * without waiting for the disk; see write()). A failed write (the database
 * away) keeps its counts pending for the next flush, up to {@link MAX_PENDING_ROWS} rows; past
 * that, new rows are dropped and counted in `dropped` (an outage must not eat the memory).
 */
import { dayOf, type InsightKind } from '../../events/insights.js';
import type { Clock } from '../clock.js';
import type { Database } from '../../ports/database.js';
import { INSIGHTS_SCHEMA } from '../../projections/map-insights-retention.js';


/** Most distinct rows waiting in memory (a few MB). */
export const MAX_PENDING_ROWS = 100_000;
/** Rows per statement on PostgreSQL: big batches, bounded parameter arrays. */
const ROWS_PER_STATEMENT = 2_000;
/**
 * Rows per statement on PGlite, which runs in the server's own thread: a statement holds every
 * request for its whole length (2,000 rows about 60 ms on this machine), so a flush writes
 * small statements and lets the event loop run between them (about 6 ms each;
 * bench/insights-flush-pause.ts).
 */
const ROWS_PER_STATEMENT_IN_PROCESS = 200;
const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

interface Pending {
  mapId: string;
  day: string;
  kind: InsightKind;
  key: string;
  count: number;
}

export interface InsightsCounterOptions {
  db: Database;
  clock: Clock;
  flushMs: number;
  onError?: (error: unknown) => void;
}

export class InsightsCounter {
  private pending = new Map<string, Pending>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private closed = false;
  /** Rows refused because too many were pending (the database unreachable for long). */
  dropped = 0;
  /** Counts written to the database since start (for tests and the bench). */
  written = 0;

  private constructor(private readonly options: InsightsCounterOptions) {}

  static async open(options: InsightsCounterOptions): Promise<InsightsCounter> {
    await options.db.exec(INSIGHTS_SCHEMA);
    const counter = new InsightsCounter(options);
    counter.timer = setInterval(() => void counter.flush().catch(() => {}), options.flushMs);
    counter.timer.unref();
    return counter;
  }

  /** Counts `count` more for the map's row of today (UTC, by the server's clock). */
  add(mapId: string, kind: InsightKind, key: string, count: number): void {
    const day = dayOf(this.options.clock.now());
    const id = `${mapId}\u0000${day}\u0000${kind}\u0000${key}`;
    const row = this.pending.get(id);
    if (row) row.count += count;
    else if (this.pending.size >= MAX_PENDING_ROWS) this.dropped += count;
    else this.pending.set(id, { mapId, day, kind, key, count });
  }

  /** Rows waiting for the next flush. */
  get pendingRows(): number {
    return this.pending.size;
  }

  /**
   * Writes what is pending now; one flush at a time (a call during one waits for it, then
   * writes what came since). A failed batch goes back to pending and the error is thrown.
   */
  async flush({ durable = false }: { durable?: boolean } = {}): Promise<void> {
    while (this.flushing) await this.flushing.catch(() => {});
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    this.flushing = this.write(batch, durable);
    try {
      await this.flushing;
    } finally {
      this.flushing = null;
    }
  }

  private async write(batch: Pending[], durable: boolean): Promise<void> {
    const inProcess = this.options.db.kind === 'pglite';
    const size = inProcess ? ROWS_PER_STATEMENT_IN_PROCESS : ROWS_PER_STATEMENT;
    for (let start = 0; start < batch.length; start += size) {
      const rows = batch.slice(start, start + size);
      if (inProcess && start > 0) await yieldToRequests();
      try {
        await this.options.db.transaction(async (tx) => {
          // The timer's flushes do not wait for the disk (no fsync at commit): on PGlite, which
          // runs in this process, a commit's fsync blocked every request for its duration (the
          // public map's p99 ×6 under 2,000 beacons a second). A crash may then lose the last
          // batch too, as it may lose what is still in memory; the flush on close commits
          // durably.
          if (!durable) await tx.query('SET LOCAL synchronous_commit TO off');
          // Keys are unique within a batch (it is a map), so no row is hit twice by one statement.
          await tx.query(
            `INSERT INTO map_insights (map_id, day, kind, key, count)
             SELECT * FROM unnest($1::text[], $2::date[], $3::text[], $4::text[], $5::bigint[]) AS counted (map_id, day, kind, key, count)
             WHERE NOT EXISTS (SELECT 1 FROM map_insights_deleted deleted WHERE deleted.map_id = counted.map_id)
             ON CONFLICT (map_id, day, kind, key) DO UPDATE SET count = map_insights.count + excluded.count`,
            [rows.map((r) => r.mapId), rows.map((r) => r.day), rows.map((r) => r.kind), rows.map((r) => r.key), rows.map((r) => r.count)],
          );
        });
        for (const row of rows) this.written += row.count;
      } catch (error) {
        // Not written: back to pending (merged with what came meanwhile), tried again next time.
        for (const row of batch.slice(start)) this.restore(row);
        this.options.onError?.(error);
        throw error;
      }
    }
  }

  private restore(row: Pending): void {
    const id = `${row.mapId}\u0000${row.day}\u0000${row.kind}\u0000${row.key}`;
    const existing = this.pending.get(id);
    if (existing) existing.count += row.count;
    else if (this.pending.size >= MAX_PENDING_ROWS) this.dropped += row.count;
    else this.pending.set(id, { ...row });
  }

  /** Stops the timer and writes what is pending (called once the server answered its last request). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush({ durable: true });
  }
}
