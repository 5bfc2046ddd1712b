import type { Limit } from './rate-limiter.js';

const minutes = (n: number) => n * 60_000;

/**
 * How often the account routes may be used, per client IP address and per e-mail address or
 * account. Generous for people, tight for scripts guessing passwords or sending mail. Login
 * limits are explained in `login-throttle.ts`.
 */
export const DEFAULT_AUTH_LIMITS = {
  /** Every login attempt of one client, whatever the address (credential stuffing). */
  loginPerIp: { max: 30, windowMs: minutes(15) },
  /** Wrong passwords for one address from one client. */
  loginFailuresPerAccountAndIp: { max: 10, windowMs: minutes(15) },
  /** Wrong passwords for one address from clients that never signed in to it (many strangers). */
  loginFailuresPerAccount: { max: 50, windowMs: minutes(60) },
  registerPerIp: { max: 20, windowMs: minutes(60) },
  resetPerIp: { max: 10, windowMs: minutes(60) },
  resetPerAccount: { max: 3, windowMs: minutes(60) },
  resendPerIp: { max: 10, windowMs: minutes(60) },
  resendPerAccount: { max: 3, windowMs: minutes(60) },
} satisfies Record<string, Limit>;

export type AuthLimits = { [K in keyof typeof DEFAULT_AUTH_LIMITS]: Limit };
