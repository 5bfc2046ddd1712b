/**
 * Single-use tokens sent by e-mail (verify an address, reset a password). Only a SHA-256
 * hash is stored; using one is a single UPDATE that also checks purpose, expiry and prior
 * use, so two clicks on one link cannot both succeed.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../db/database.js';

export type TokenPurpose = 'verify-email' | 'reset-password';

export const TOKEN_LIFETIME_MS: Record<TokenPurpose, number> = {
  'verify-email': 48 * 3_600_000,
  'reset-password': 3_600_000,
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
  await db.query('INSERT INTO auth_tokens (token_hash, uid, purpose, expires_at) VALUES ($1, $2, $3, $4)', [
    hashToken(token),
    uid,
    purpose,
    new Date(now.getTime() + TOKEN_LIFETIME_MS[purpose]).toISOString(),
  ]);
  return token;
}

/** Marks the token used and answers its account, or null when it is unknown, used or expired. */
export async function consumeToken(db: Database, token: string, purpose: TokenPurpose, now: Date): Promise<string | null> {
  if (token.length > 200) return null;
  const { rows } = await db.query<{ uid: string }>(
    `UPDATE auth_tokens SET used_at = $3
      WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3
      RETURNING uid`,
    [hashToken(token), purpose, now.toISOString()],
  );
  return rows[0]?.uid ?? null;
}
