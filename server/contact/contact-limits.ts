import type { Limit } from '../security/rate-limiter.js';

/**
 * How many contact messages one client address may send: plenty for a person with follow-up
 * questions, too few for a script to fill the team's inbox.
 */
export const CONTACT_PER_IP: Limit = { max: 5, windowMs: 60 * 60_000 };
