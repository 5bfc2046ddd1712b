/**
 * How many insight beacons one visitor's address may send: a fixed window per minute, kept in
 * this process's memory under a keyed hash of the address.
 *
 * Why not the database's rate limits (security/rate-limiter.ts) used by logins and uploads:
 * those keep the subject (the IP address) in `rate_limits` and cost a write per request; at
 * thousands of beacons a second that would be thousands of writes a second, and it would
 * store the addresses of people who only looked at a map. Here the address is hashed with a
 * secret made at start and never written anywhere (HMAC-SHA-256, 96 bits kept), so not even
 * this process can name an address from its table, and a restart forgets it all. The price:
 * each server process counts on its own (behind N processes one address gets N times the
 * limit), which is fine for a limit on counting, not on security.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { lruOfAtMost } from '../lru-of-at-most.js';

const WINDOW_MS = 60_000;
/** Addresses followed at once; the least recently seen are forgotten past it (about 10 MB). */
const MAX_ADDRESSES = 100_000;

export class BeaconLimiter {
  private readonly secret = randomBytes(32);
  private readonly windows = lruOfAtMost<string, { window: number; count: number }>(MAX_ADDRESSES);

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one beacon from `address`; false when it is over the limit this minute. */
  take(address: string): boolean {
    const key = createHmac('sha256', this.secret).update(address).digest('base64url').slice(0, 16);
    const window = Math.floor(this.now() / WINDOW_MS);
    const entry = this.windows.get(key);
    if (!entry || entry.window !== window) {
      this.windows.set(key, { window, count: 1 });
      return true;
    }
    entry.count += 1;
    return entry.count <= this.perMinute;
  }
}
