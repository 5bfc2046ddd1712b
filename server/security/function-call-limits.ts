/**
 * Per-account limits on the callable functions (`POST /api/fn/*`, issue 26 item 8): one
 * account's script cannot keep the functions, and the database behind them, busy for
 * everyone else. Counted in the database (rate-limiter.ts), so every process shares the count.
 *
 * Generous for people: the editor sends one `editMap` at a time, at most one per 120 ms
 * after the last change (editor-session.ts SEND_DELAY_MS; typing waits 400 ms), so a tab
 * dragging locations without pause sends at most about 8 calls a second, and a backlog saved
 * offline goes in calls of 500 edits. The limit, 1,200 calls a minute (20 a second on
 * average), leaves room for two tabs editing flat out and a burst of replayed edits.
 *
 * Counted in this process's memory (a fixed window per account), not in the database: the
 * count was a write and a disk flush on every call, the first thing each editor's edit waited
 * for (issue 26 item 5). The limit is about one account's share of a process, not about secrets:
 * behind N processes an account gets up to N times it, which still bounds what it costs each
 * process. Limits that guard secrets (sign-in, password reset, invitations, uploads) stay in the
 * database, counted across processes (rate-limiter.ts).
 *
 * Every function's answer carries the IETF RateLimit headers (RateLimit-Limit, -Remaining,
 * -Reset in seconds, and RateLimit-Policy); a refused call answers the catalogue's
 * resource-exhausted (429) with Retry-After. Checked before the payload is validated, so a
 * refused call costs one counter's update.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { lruOfAtMost } from '../lru-of-at-most.js';
import { DomainError } from '../../events/errors.js';
import type { Limit } from './rate-limiter.js';

export const FUNCTION_CALL_LIMIT: Limit = { max: 1_200, windowMs: 60_000 };

export const FUNCTION_CALLS_TOO_MANY = 'Too many requests. Please wait a minute and try again.';

/** The route prefix the limit applies to. */
const FUNCTIONS = '/api/fn/';

/** Accounts counted at once; the least recently seen are forgotten past it (their count starts again). */
const ACCOUNTS_KEPT = 100_000;

export interface FunctionCallLimitOptions {
  limit?: Limit;
  /** The time in ms (the services' clock). */
  now?: () => number;
}

/** Calls per account in the current fixed window, in this process. */
export class FunctionCallCounter {
  private readonly windows = lruOfAtMost<string, { window: number; count: number }>(ACCOUNTS_KEPT);

  constructor(
    private readonly limit: Limit,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one call of `uid`: the window's count so far and when the window ends. */
  count(uid: string): { count: number; resetInMs: number } {
    const now = this.now();
    const window = Math.floor(now / this.limit.windowMs);
    const resetInMs = (window + 1) * this.limit.windowMs - now;
    const entry = this.windows.get(uid);
    if (!entry || entry.window !== window) {
      this.windows.set(uid, { window, count: 1 });
      return { count: 1, resetInMs };
    }
    entry.count += 1;
    return { count: entry.count, resetInMs };
  }
}

/**
 * Adds the limit to every function route registered in `scope` after this call (an `onRoute`
 * hook: other routes pay nothing). A call without a signed-in caller is left to the route's own
 * access check (401).
 */
export function functionCallLimits(scope: FastifyInstance, options: FunctionCallLimitOptions): void {
  const limit = options.limit ?? FUNCTION_CALL_LIMIT;
  const policy = `${limit.max};w=${Math.round(limit.windowMs / 1000)}`;
  const counter = new FunctionCallCounter(limit, options.now);
  const check = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const uid = request.principal?.uid;
    if (!uid) return;
    const { count, resetInMs } = counter.count(uid);
    const reset = Math.max(1, Math.ceil(resetInMs / 1000));
    reply.header('ratelimit-policy', policy);
    reply.header('ratelimit-limit', String(limit.max));
    reply.header('ratelimit-remaining', String(Math.max(0, limit.max - count)));
    reply.header('ratelimit-reset', String(reset));
    if (count > limit.max) {
      reply.header('retry-after', String(reset));
      request.log.warn({ uid, count }, 'function calls over the per-account limit');
      throw new DomainError('resource-exhausted', FUNCTION_CALLS_TOO_MANY);
    }
  };
  scope.addHook('onRoute', (route: RouteOptions) => {
    if (!route.url.startsWith(FUNCTIONS) || route.method !== 'POST') return;
    const existing = route.preValidation;
    route.preValidation = existing === undefined ? [check] : [check, ...(Array.isArray(existing) ? existing : [existing])];
  });
}
