/**
 * Login throttling that a stranger cannot turn against the owner. A client is the address
 * Fastify gives (`request.ip`, which follows TRUST_PROXY). Three limits (`auth-limits.ts`):
 *
 * - **Per client, every attempt** (`loginPerIp`): one client trying many addresses (credential
 *   stuffing) is stopped whatever the addresses.
 * - **Per address and client together, wrong passwords** (`loginFailuresPerAccountAndIp`): the
 *   guesser is stopped on that address, and nobody else is. Counting the address alone (as
 *   before) let anyone lock the owner out with ten wrong passwords, even the right one refused.
 *   Successes do not count (each attempt is counted before it runs, so concurrent guesses
 *   cannot slip past, and refunded once it succeeded).
 * - **Per address, wrong passwords from clients that never signed in to it**
 *   (`loginFailuresPerAccount`, looser): many strangers on many addresses (a botnet) share one
 *   allowance per account. It never applies to a client the account signed in from before
 *   (login, registration or a reset link, within `KNOWN_CLIENT_DAYS`), so the owner's usual
 *   clients get in during such an attack. An owner on a new client then uses the e-mailed reset
 *   link, which signs them in and makes that client known; a limit that only slowed strangers
 *   down would let a large enough botnet guess on. The price: an attacker behind the owner's
 *   own address (the same office NAT) counts as the owner's client.
 *
 * An unknown address goes through the same limits as a known one, so their answers tell
 * nothing about which addresses have accounts.
 */
import { DomainError } from '../../events/errors.js';
import type { AuthLimits } from './auth-limits.js';
import type { Counted, Limit, RateLimiter } from './rate-limiter.js';

/** A stopped login: the way in that no limit stops (the e-mailed reset link) is named. */
export const LOGIN_PAUSED = 'Too many attempts. Wait a few minutes, or use "Forgot your password?" to get a link by e-mail.';

export interface LoginThrottle {
  limiter: RateLimiter;
  limits: Pick<AuthLimits, 'loginPerIp' | 'loginFailuresPerAccountAndIp' | 'loginFailuresPerAccount'>;
  /** Whether `client` has signed in to the account of `email` recently. */
  isKnownClient(email: string, client: string): Promise<boolean>;
}

/**
 * Runs `attempt` (the password check) within the limits: throws resource-exhausted before it
 * when a limit is reached; a failed attempt stays counted, a successful one is refunded.
 */
export async function throttledLogin<T>(throttle: LoginThrottle, email: string, client: string, attempt: () => Promise<T>): Promise<T> {
  const { limits } = throttle;
  const hit = (name: string, limit: Limit, subject: string) =>
    throttle.limiter.hit(name, limit, [subject]).catch((error: unknown) => {
      throw error instanceof DomainError && error.code === 'resource-exhausted' ? new DomainError('resource-exhausted', LOGIN_PAUSED) : error;
    });
  await hit('login-ip', limits.loginPerIp, client);
  const failures: Counted[] = [];
  // The account-wide limit first: an owner on a new client, stopped by it, has not used up
  // their own client's allowance when the reset link then makes that client known.
  if (!(await throttle.isKnownClient(email, client))) {
    failures.push(await hit('login-failures-account', limits.loginFailuresPerAccount, email));
  }
  failures.push(await hit('login-failures-client', limits.loginFailuresPerAccountAndIp, `${email} ${client}`));
  const result = await attempt();
  for (const counted of failures) await throttle.limiter.refund(counted);
  return result;
}
