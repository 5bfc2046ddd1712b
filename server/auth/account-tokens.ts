/**
 * Single-use tokens sent by e-mail (verify an address, reset a password). Only a SHA-256
 * hash is stored; using one is a single UPDATE that also checks purpose, expiry and prior
 * use, so two clicks on one link cannot both succeed. A revoked token's row is deleted, so it
 * reads exactly as an unknown or expired one.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Database, Queryable } from '../../ports/database.js';

export type TokenPurpose = 'verify-email' | 'reset-password';

export const TOKEN_LIFETIME_MS: Record<TokenPurpose, number> = {
  'verify-email': 48 * 3_600_000,
  'reset-password': 3_600_000,
};

/**
 * Whether only the newest token of a purpose may work: issuing one revokes the older ones,
 * and using one revokes the others.
 */
const ONLY_NEWEST: Record<TokenPurpose, boolean> = {
  // A reset link sets the password: an older link (a mail read by someone else, an old
  // forward) must not undo the owner's newer reset or request.
  'reset-password': true,
  // Every verification link proves the same fact (an account's address never changes), so an
  // older one can do no harm, and a person who pressed Resend may still open the first mail.
  'verify-email': false,
};

export const ACCOUNT_TOKENS_SCHEMA = `
CREATE TABLE IF NOT EXISTS auth_tokens (
  token_hash text PRIMARY KEY,
  uid text NOT NULL REFERENCES auth_accounts (uid) ON DELETE CASCADE,
  purpose text NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX IF NOT EXISTS auth_tokens_uid ON auth_tokens (uid);`;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export async function issueToken(db: Database, uid: string, purpose: TokenPurpose, now: Date): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.transaction(async (tx) => {
    if (ONLY_NEWEST[purpose]) {
      // The account's row lock orders concurrent requests, so exactly one token stays live.
      await tx.query('SELECT uid FROM auth_accounts WHERE uid = $1 FOR UPDATE', [uid]);
      await revokeTokens(tx, uid, purpose);
    }
    await tx.query('INSERT INTO auth_tokens (token_hash, uid, purpose, expires_at) VALUES ($1, $2, $3, $4)', [
      hashToken(token),
      uid,
      purpose,
      new Date(now.getTime() + TOKEN_LIFETIME_MS[purpose]).toISOString(),
    ]);
  });
  return token;
}

/** Marks the token used and answers its account, or null when it is unknown, used, revoked or expired. */
export async function consumeToken(db: Database, token: string, purpose: TokenPurpose, now: Date): Promise<string | null> {
  if (token.length > 200) return null;
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ uid: string }>(
      `UPDATE auth_tokens SET used_at = $3
        WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3
        RETURNING uid`,
      [hashToken(token), purpose, now.toISOString()],
    );
    const uid = rows[0]?.uid ?? null;
    if (uid && ONLY_NEWEST[purpose]) await revokeTokens(tx, uid, purpose);
    return uid;
  });
}

/** Revokes the account's unused tokens of a purpose (a password set another way ends reset links). */
export async function revokeTokens(db: Queryable, uid: string, purpose: TokenPurpose): Promise<void> {
  await db.query('DELETE FROM auth_tokens WHERE uid = $1 AND purpose = $2 AND used_at IS NULL', [uid, purpose]);
}
