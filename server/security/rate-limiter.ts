/**
 * Fixed-window rate limits kept in the database, so every server process sharing it counts
 * together. A limit is a name, a count and a window; a subject is what is counted (an IP
 * address, an e-mail address, an account).
 */
import { DomainError } from '../../events/errors.js';
import type { Clock } from '../clock.js';
import type { Database } from '../db/database.js';

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

  /** Counts one attempt for each subject; throws resource-exhausted when any is over its limit. */
  async hit(name: string, limit: Limit, subjects: readonly string[]): Promise<void> {
    const now = this.clock.now().getTime();
    const window = Math.floor(now / limit.windowMs);
    const expires = new Date((window + 1) * limit.windowMs).toISOString();
    let over = false;
    for (const subject of subjects) {
      const { rows } = await this.db.query<{ count: number }>(
        `INSERT INTO rate_limits (key, count, expires_at) VALUES ($1, 1, $2)
         ON CONFLICT (key) DO UPDATE SET count = rate_limits.count + 1 RETURNING count`,
        [`${name}:${subject}:${window}`, expires],
      );
      if ((rows[0]?.count ?? 0) > limit.max) over = true;
    }
    if (now - this.lastSweep > 60_000) {
      this.lastSweep = now;
      await this.db.query('DELETE FROM rate_limits WHERE expires_at < $1', [new Date(now).toISOString()]);
    }
    if (over) throw new DomainError('resource-exhausted', TOO_MANY);
  }
}
