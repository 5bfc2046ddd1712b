/**
 * API tokens (issue 30 item 1): an account's tokens for scripts and other systems, on the
 * account's own stream `api-tokens-{uid}`. A token is shown once when it is made; only its
 * SHA-256 hash is recorded (and a short prefix, so a person can tell their tokens apart).
 * `Authorization: Bearer mf_…` then acts as the token's owner, within its scopes
 * (server/auth/api-token-auth.ts says which routes each scope opens).
 *
 * The callable functions' payloads and results, the list's answer, and the decider.
 */
import { z } from 'zod';
import type { Decider } from './decider.js';
import { DomainError } from './errors.js';
import { streams } from './streams.js';

/** What a token may do. Billing, account settings and the tokens themselves: never by token. */
export const API_TOKEN_SCOPES = ['maps:read', 'maps:write', 'import', 'webhooks'] as const;
export const ApiTokenScope = z.enum(API_TOKEN_SCOPES, { error: 'Scopes are maps:read, maps:write, import and webhooks.' });
export type ApiTokenScope = z.infer<typeof ApiTokenScope>;

/** The account page's words for each scope. */
export const API_TOKEN_SCOPE_LABELS: Record<ApiTokenScope, string> = {
  'maps:read': 'Read maps',
  'maps:write': 'Write maps',
  import: 'Import',
  webhooks: 'Webhooks',
};

/** A token's text starts with this, so a leaked one is recognisable (secret scanners, logs). */
export const API_TOKEN_PREFIX = 'mf_';
/** `mf_` and 32 random bytes in base64url. */
export const API_TOKEN_PATTERN = /^mf_[A-Za-z0-9_-]{43}$/;
/** At most this many live (unrevoked) tokens per account. */
export const MAX_API_TOKENS = 50;
export const MAX_API_TOKEN_DAYS = 3650;

const TokenId = z.string({ error: 'Token id must be text.' }).regex(/^[A-Za-z0-9_-]{1,64}$/, 'Token id is not valid.');
const TokenName = z
  .string({ error: 'Name must be text.' })
  .trim()
  .min(1, 'Give the token a name.')
  .max(100, 'Keep the name under 100 characters.');

export const apiTokenFunctionPayloads = {
  /** A new token for the caller's account: its text is in the answer, and nowhere else ever again. */
  createApiToken: z.object({
    name: TokenName,
    scopes: z
      .array(ApiTokenScope, { error: 'Scopes must be a list.' })
      .min(1, 'Choose at least one scope.')
      .max(API_TOKEN_SCOPES.length)
      .refine((scopes) => new Set(scopes).size === scopes.length, 'Name each scope once.'),
    expiresInDays: z
      .number({ error: 'Expiry must be a number of days.' })
      .int('Expiry must be a whole number of days.')
      .min(1, 'Expiry must be at least 1 day.')
      .max(MAX_API_TOKEN_DAYS, `Expiry must be at most ${MAX_API_TOKEN_DAYS} days.`)
      .optional(),
  }),
  /** Revokes one of the caller's tokens: it stops working at once. */
  revokeApiToken: z.object({ tokenId: TokenId }),
} as const;

export interface ApiTokenFunctionResults {
  createApiToken: { tokenId: string; token: string };
  revokeApiToken: null;
}

export const apiTokenFunctionResults = {
  createApiToken: z.object({
    tokenId: z.string(),
    token: z.string().describe('The token (mf_…). Shown once: only its hash is kept.'),
  }),
  revokeApiToken: z.null(),
};

/** One token as `GET /api/account/api-tokens` lists it (never its text). */
export const ApiTokenSummary = z.object({
  tokenId: z.string(),
  name: z.string(),
  scopes: z.array(ApiTokenScope),
  /** The token's first characters (`mf_AbCd`), to tell tokens apart. */
  prefix: z.string(),
  created: z.string(),
  /** null: never expires. */
  expires: z.string().nullable(),
  /** When it was last used (to the minute); null: never. */
  lastUsed: z.string().nullable(),
});
export type ApiTokenSummary = z.infer<typeof ApiTokenSummary>;
export const ApiTokenList = z.object({ tokens: z.array(ApiTokenSummary) });
export type ApiTokenList = z.infer<typeof ApiTokenList>;

// ---- events ---------------------------------------------------------------------------------

export const ApiTokenCreated = z.object({
  type: z.literal('ApiTokenCreated'),
  data: z.object({
    tokenId: TokenId,
    uid: z.string().min(1),
    name: z.string().min(1).max(100),
    scopes: z.array(ApiTokenScope).min(1),
    /** SHA-256 of the token's text, hex. */
    tokenHash: z.string().regex(/^[0-9a-f]{64}$/),
    prefix: z.string().max(16),
    created: z.string(),
    expires: z.string().nullable(),
  }),
});
export const ApiTokenRevoked = z.object({
  type: z.literal('ApiTokenRevoked'),
  data: z.object({ tokenId: TokenId, uid: z.string().min(1), revoked: z.string() }),
});
export const ApiTokenEvent = z.discriminatedUnion('type', [ApiTokenCreated, ApiTokenRevoked]);
export type ApiTokenEvent = z.infer<typeof ApiTokenEvent>;
export const API_TOKEN_EVENT_TYPES: ReadonlySet<string> = new Set(['ApiTokenCreated', 'ApiTokenRevoked']);

export type ApiTokenCommand =
  | { type: 'CreateApiToken'; data: z.infer<typeof ApiTokenCreated>['data'] }
  | { type: 'RevokeApiToken'; data: z.infer<typeof ApiTokenRevoked>['data'] };

/** An account's tokens: which exist, and which of them are revoked. */
export interface ApiTokensState {
  tokens: Readonly<Record<string, { revoked: boolean }>>;
}

export const apiTokensDecider: Decider<ApiTokenCommand, ApiTokenEvent, ApiTokensState, void> = {
  name: 'api-tokens',
  streamId: streams.apiTokens,
  schema: ApiTokenEvent,
  eventTypes: API_TOKEN_EVENT_TYPES,
  initialState: { tokens: {} },
  evolve(state, event) {
    switch (event.type) {
      case 'ApiTokenCreated':
        return { tokens: { ...state.tokens, [event.data.tokenId]: { revoked: false } } };
      case 'ApiTokenRevoked':
        return { tokens: { ...state.tokens, [event.data.tokenId]: { revoked: true } } };
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateApiToken': {
        const live = Object.values(state.tokens).filter((token) => !token.revoked).length;
        if (live >= MAX_API_TOKENS) {
          throw new DomainError('resource-exhausted', `An account may have at most ${MAX_API_TOKENS} API tokens. Revoke one you no longer use first.`);
        }
        if (Object.hasOwn(state.tokens, command.data.tokenId)) return [];
        return [{ type: 'ApiTokenCreated', data: command.data }];
      }
      case 'RevokeApiToken': {
        const token = Object.hasOwn(state.tokens, command.data.tokenId) ? state.tokens[command.data.tokenId] : undefined;
        if (!token) throw new DomainError('not-found', 'No such API token.');
        return token.revoked ? [] : [{ type: 'ApiTokenRevoked', data: command.data }];
      }
    }
  },
};
