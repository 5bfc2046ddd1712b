import type { Limit } from './rate-limiter.js';

const minutes = (n: number) => n * 60_000;

/**
 * How often the account routes may be used, per client IP address and per e-mail address or
 * account. Generous for people, tight for scripts guessing passwords or sending mail.
 */
export const DEFAULT_AUTH_LIMITS = {
  loginPerIp: { max: 30, windowMs: minutes(15) },
  loginPerAccount: { max: 10, windowMs: minutes(15) },
  registerPerIp: { max: 20, windowMs: minutes(60) },
  resetPerIp: { max: 10, windowMs: minutes(60) },
  resetPerAccount: { max: 3, windowMs: minutes(60) },
  resendPerIp: { max: 10, windowMs: minutes(60) },
  resendPerAccount: { max: 3, windowMs: minutes(60) },
} satisfies Record<string, Limit>;

export type AuthLimits = { [K in keyof typeof DEFAULT_AUTH_LIMITS]: Limit };
