/**
 * How the runner retries a failing batch: exponential backoff, capped, and the bound after
 * which an event that fails on its own counts as poisoned. Failures of the connection or of
 * the database as a whole are transient: they are retried for as long as they last and never
 * count towards that bound.
 */
import { sqlState, type Queryable } from '../ports/database.js';

export interface RetryPolicy {
  /**
   * Failures (not counting transient ones) after which a batch is split into its events, and
   * after which one event applied alone is poisoned.
   */
  attempts: number;
  /** Delay after the first failure; it doubles after each one. */
  baseDelayMs: number;
  /** The longest delay between two attempts. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, baseDelayMs: 200, maxDelayMs: 30_000 };

/** The delay after the `failures`-th failure in a row (1-based): base, 2 × base, 4 × base, ... up to the cap. */
export function backoffMs(policy: RetryPolicy, failures: number): number {
  return Math.min(policy.baseDelayMs * 2 ** Math.min(Math.max(0, failures - 1), 30), policy.maxDelayMs);
}

/**
 * SQLSTATE classes and codes that say nothing about the statement: the connection failed
 * (08), the server is shutting down or not accepting yet (57P01-57P03), out of resources (53),
 * or the transaction lost a race (40001 serialization, 40P01 deadlock).
 */
const TRANSIENT_SQL_CLASSES = ['08', '53'];
const TRANSIENT_SQL_STATES = new Set(['57P01', '57P02', '57P03', '40001', '40P01']);
/** Socket errors from Node. */
const TRANSIENT_SOCKET_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
/** `pg` reports a broken or unreachable connection with these messages and no code. */
const TRANSIENT_MESSAGES = /connection terminated|not queryable|connection error|timeout exceeded when trying to connect/i;

/** True when the error is about reaching the database, not about what was asked of it. */
export function isConnectionError(error: unknown): boolean {
  const code = sqlState(error);
  if (code !== undefined) {
    if (TRANSIENT_SOCKET_CODES.has(code) || TRANSIENT_SQL_STATES.has(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code)) return TRANSIENT_SQL_CLASSES.includes(code.slice(0, 2));
  }
  return error instanceof Error && TRANSIENT_MESSAGES.test(error.message);
}

/**
 * A failure that says nothing about the event being handled: the connection dropped, or the
 * database does not answer at all. Such failures are retried for as long as they last.
 */
export async function isTransientFailure(db: Queryable, error: unknown): Promise<boolean> {
  if (isConnectionError(error)) return true;
  try {
    await db.query('SELECT 1');
    return false;
  } catch {
    return true;
  }
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it is aborted. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    function onAbort() {
      clearTimeout(timer);
      reject(signal.reason);
    }
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
