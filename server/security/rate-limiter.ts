/**
 * Fixed-window rate limits kept in the database, so every server process sharing it counts
 * together. A limit is a name, a count and a window; a subject is what is counted (an IP
 * address, an e-mail address, an account).
 */
import { DomainError } from '../../events/errors.js';
import type { Clock } from '../clock.js';
import type { Database } from '../../ports/database.js';

export interface Limit {
  max: number;
  windowMs: number;
}

export const RATE_LIMITS_SCHEMA = `
CREATE TABLE IF NOT EXISTS rate_limits (
  key text PRIMARY KEY,
  count integer NOT NULL,
  expires_at timestamptz NOT NULL
);`;

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

  /**
   * Counts one use for `subject` and answers the window's count and when the window ends,
   * refusing nothing (the window ends in `resetInMs`): for a limit whose answers carry RateLimit headers (function-call-limits.ts).
   */
  async count(name: string, limit: Limit, subject: string): Promise<{ count: number; resetInMs: number }> {
    const now = this.clock.now().getTime();
    const window = Math.floor(now / limit.windowMs);
    const resetAt = (window + 1) * limit.windowMs;
    const { rows } = await this.db.query<{ count: number }>(
      `INSERT INTO rate_limits (key, count, expires_at) VALUES ($1, 1, $2)
       ON CONFLICT (key) DO UPDATE SET count = rate_limits.count + 1 RETURNING count`,
      [`${name}:${subject}:${window}`, new Date(resetAt).toISOString()],
    );
    await this.sweep(now);
    return { count: rows[0]?.count ?? 0, resetInMs: resetAt - now };
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
