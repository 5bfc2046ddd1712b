/**
 * API tokens by their hash (issue 30 item 1): a bearer token is found here by the SHA-256 of
 * its text (server/auth/api-token-auth.ts), and the account page lists its tokens from here.
 * Revoked tokens keep their row (marked), so a revoked token reads as revoked, not unknown.
 *
 * When a token was last used is not an event (a script calls many times a second): it is kept
 * in `api_token_usage`, written at most once a minute per token and process, which is no
 * projection table, so a rebuild does not forget it.
 */
import { ApiTokenEvent, API_TOKEN_EVENT_TYPES, type ApiTokenScope, type ApiTokenSummary } from '../events/api-tokens.js';
import type { Queryable } from '../ports/database.js';
import type { RecordedEvent } from '../ports/event-store.js';
import { isoString } from './map-events.js';
import type { Projection } from './projection.js';

export const API_TOKENS_PROJECTION = 'api_tokens';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS api_tokens (
  token_id text PRIMARY KEY,
  uid text NOT NULL,
  name text NOT NULL,
  scopes jsonb NOT NULL,
  token_hash text NOT NULL UNIQUE,
  prefix text NOT NULL,
  created timestamptz NOT NULL,
  expires timestamptz,
  revoked timestamptz
);
CREATE INDEX IF NOT EXISTS api_tokens_by_uid ON api_tokens (uid);
CREATE TABLE IF NOT EXISTS api_token_usage (
  token_id text PRIMARY KEY,
  last_used timestamptz NOT NULL
);`;

export const apiTokensProjection: Projection = {
  name: API_TOKENS_PROJECTION,
  version: 1,
  schema: SCHEMA,
  // Not api_token_usage: a rebuild keeps when each token was last used.
  tables: ['api_tokens'],
  streamPrefixes: ['api-tokens-'],
  async apply(tx, events: readonly RecordedEvent[]) {
    for (const recorded of events) {
      if (!API_TOKEN_EVENT_TYPES.has(recorded.type)) continue;
      const event = ApiTokenEvent.parse({ type: recorded.type, data: recorded.data });
      if (event.type === 'ApiTokenCreated') {
        const d = event.data;
        await tx.query(
          `INSERT INTO api_tokens (token_id, uid, name, scopes, token_hash, prefix, created, expires)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (token_id) DO NOTHING`,
          [d.tokenId, d.uid, d.name, JSON.stringify(d.scopes), d.tokenHash, d.prefix, d.created, d.expires],
        );
      } else {
        await tx.query('UPDATE api_tokens SET revoked = $2 WHERE token_id = $1 AND revoked IS NULL', [event.data.tokenId, event.data.revoked]);
      }
    }
  },
};

// ---- queries ------------------------------------------------------------------------------

export interface ApiTokenRow {
  tokenId: string;
  uid: string;
  scopes: ApiTokenScope[];
  expires: Date | null;
  revoked: boolean;
}

function scopesOf(value: unknown): ApiTokenScope[] {
  return (typeof value === 'string' ? JSON.parse(value) : value) as ApiTokenScope[];
}

/** The token whose text hashes to `tokenHash`, revoked or not; null when there is none. */
export async function apiTokenByHash(db: Queryable, tokenHash: string): Promise<ApiTokenRow | null> {
  const { rows } = await db.query<{ token_id: string; uid: string; scopes: unknown; expires: Date | string | null; revoked: Date | string | null }>(
    'SELECT token_id, uid, scopes, expires, revoked FROM api_tokens WHERE token_hash = $1',
    [tokenHash],
  );
  const row = rows[0];
  if (!row) return null;
  return { tokenId: row.token_id, uid: row.uid, scopes: scopesOf(row.scopes), expires: row.expires === null ? null : new Date(row.expires), revoked: row.revoked !== null };
}

/** An account's tokens that are not revoked (expired ones too, marked by their date), newest first. */
export async function apiTokensOf(db: Queryable, uid: string): Promise<ApiTokenSummary[]> {
  const { rows } = await db.query<{
    token_id: string;
    name: string;
    scopes: unknown;
    prefix: string;
    created: Date | string;
    expires: Date | string | null;
    last_used: Date | string | null;
  }>(
    `SELECT t.token_id, t.name, t.scopes, t.prefix, t.created, t.expires, u.last_used
       FROM api_tokens t LEFT JOIN api_token_usage u ON u.token_id = t.token_id
      WHERE t.uid = $1 AND t.revoked IS NULL ORDER BY t.created DESC, t.token_id`,
    [uid],
  );
  return rows.map((row) => ({
    tokenId: row.token_id,
    name: row.name,
    scopes: scopesOf(row.scopes),
    prefix: row.prefix,
    created: isoString(row.created),
    expires: row.expires === null ? null : isoString(row.expires),
    lastUsed: row.last_used === null ? null : isoString(row.last_used),
  }));
}
