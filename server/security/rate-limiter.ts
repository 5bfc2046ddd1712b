/**
 * Fixed-window rate limits kept in the database, so every server process sharing it counts
 * together: those that guard secrets and people (sign-in and reset attempts, invitations,
 * uploads, contact messages). A limit is a name, a count and a window; a subject is what is
 * counted (an IP address, an e-mail address, an account).
 *
 * The table is UNLOGGED: a count is written on every attempt, and it need not survive a crash
 * (PostgreSQL empties an unlogged table after one), so it costs no write-ahead log and no disk
 * flush. The limit on the callable functions, a matter of each process's share, is counted in
 * memory instead (function-call-limits.ts).
 */
import { DomainError } from '../../events/errors.js';
import type { Clock } from '../clock.js';
import type { Database } from '../../ports/database.js';

export interface Limit {
  max: number;
  windowMs: number;
}

export const RATE_LIMITS_SCHEMA = `
CREATE UNLOGGED TABLE IF NOT EXISTS rate_limits (
  key text PRIMARY KEY,
  count integer NOT NULL,
  expires_at timestamptz NOT NULL
);
DO $$ BEGIN
  IF EXISTS (SELECT 1 FROM pg_class WHERE oid = to_regclass('rate_limits') AND relpersistence = 'p') THEN
    ALTER TABLE rate_limits SET UNLOGGED;
  END IF;
END $$;`;

export const TOO_MANY = 'Too many attempts. Please wait a few minutes and try again.';

export class RateLimiter {
  private lastSweep = 0;

  private constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  static async open(db: Database, clock: Clock): Promise<RateLimiter> {
    await db.exec(RATE_LIMITS_SCHEMA);
    return new RateLimiter(db, clock);
  }

  /**
   * Counts one attempt for each subject; throws resource-exhausted when any is over its limit.
   * Answers what was counted, for {@link RateLimiter.refund}.
   */
  async hit(name: string, limit: Limit, subjects: readonly string[]): Promise<Counted> {
    const now = this.clock.now().getTime();
    const window = Math.floor(now / limit.windowMs);
    const expires = new Date((window + 1) * limit.windowMs).toISOString();
    const keys = subjects.map((subject) => `${name}:${subject}:${window}`);
    let over = false;
    for (const key of keys) {
      const { rows } = await this.db.query<{ count: number }>(
        `INSERT INTO rate_limits (key, count, expires_at) VALUES ($1, 1, $2)
         ON CONFLICT (key) DO UPDATE SET count = rate_limits.count + 1 RETURNING count`,
        [key, expires],
      );
      if ((rows[0]?.count ?? 0) > limit.max) over = true;
    }
    await this.sweep(now);
    if (over) throw new DomainError('resource-exhausted', TOO_MANY);
    return { keys };
  }

  private async sweep(now: number): Promise<void> {
    if (now - this.lastSweep <= 60_000) return;
    this.lastSweep = now;
    await this.db.query('DELETE FROM rate_limits WHERE expires_at < $1', [new Date(now).toISOString()]);
  }

  /**
   * Takes back an attempt counted by {@link RateLimiter.hit}: a limit on failures counts each
   * attempt before it runs (so concurrent attempts cannot slip past it) and refunds it once it
   * turned out a success.
   */
  async refund(counted: Counted): Promise<void> {
    for (const key of counted.keys) {
      await this.db.query('UPDATE rate_limits SET count = count - 1 WHERE key = $1 AND count > 0', [key]);
    }
  }
}

/** The counters one {@link RateLimiter.hit} went up on. */
export interface Counted {
  readonly keys: readonly string[];
}
