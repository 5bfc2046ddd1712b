/**
 * The notice sent when sessions end (logout, a password changed or reset, signed out
 * everywhere, an account deleted): PostgreSQL NOTIFY on its own channel, which every server
 * process LISTENs to (PGlite delivers it within its one process through the same path), so
 * each live hub closes its sockets of those sessions at once instead of on its next re-check.
 *
 * The notice names the account, not the sessions: each hub asks the database again for every
 * socket of that account, and closes those whose session is gone. Sent after the sessions'
 * rows are deleted (committed), so that answer is already the new one.
 */
import { z } from 'zod';
import type { Queryable } from '../../ports/database.js';

export const SESSIONS_CHANNEL = 'mapfold_sessions';

export const SessionsEnded = z.object({
  uid: z.string().min(1).max(200),
  /**
   * Every socket of the account closes, whatever its session (the account was deleted). Needed
   * for sockets signed in with a token (Clerk), which no database row can end.
   */
  everySession: z.boolean().optional(),
});
export type SessionsEnded = z.infer<typeof SessionsEnded>;

export async function announceSessionsEnded(db: Queryable, notice: SessionsEnded): Promise<void> {
  await db.query('SELECT pg_notify($1, $2)', [SESSIONS_CHANNEL, JSON.stringify(notice)]);
}
