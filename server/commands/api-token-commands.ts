/**
 * API tokens' functions (issue 30 item 1; events/api-tokens.ts): `createApiToken` makes a
 * token for the caller's own account and answers its text, the only time it is ever shown
 * (only its hash is recorded); `revokeApiToken` ends one at once: each answers once the
 * tokens' read model has its event, so the token works, or is refused, on every process. Both run through the one
 * append path, on the account's `api-tokens-{uid}` stream. Never callable with a token
 * (server/auth/api-token-auth.ts FUNCTION_SCOPES).
 */
import type { z } from 'zod';
import { apiTokenFunctionPayloads, apiTokensDecider } from '../../events/api-tokens.js';
import { DomainError } from '../../events/errors.js';
import type { Principal } from '../../events/principal.js';
import { comparePositions, type Position } from '../../events/position.js';
import type { Queryable } from '../../ports/database.js';
import { API_TOKENS_PROJECTION } from '../../projections/api-tokens.js';
import { readCheckpoint } from '../../projections/checkpoints.js';
import { newApiToken } from '../auth/api-token-auth.js';
import { decideCommand, type CommandMetadata, type CommandStore } from './command-handler.js';

const DAY_MS = 86_400_000;

type Deps = CommandStore & { db: Queryable };

/** How long an answer waits for the tokens' read model (it is milliseconds behind). */
const SETTLE_MS = 5_000;

/**
 * Waits until the tokens' read model has the event at `position`, which every process checks
 * tokens against: a revoked token is refused everywhere once `revokeApiToken` answers, and a
 * new one works at once. Answers anyway after {@link SETTLE_MS} (the read model is behind).
 */
async function settled(db: Queryable, position: Position | null): Promise<void> {
  if (!position) return;
  const until = Date.now() + SETTLE_MS;
  while (Date.now() < until) {
    const checkpoint = await readCheckpoint(db, API_TOKENS_PROJECTION);
    if (checkpoint && comparePositions(checkpoint.position, position) >= 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function requireUser(meta: CommandMetadata): Principal {
  if (!meta.principal) throw new DomainError('unauthenticated', 'Unauthenticated');
  return meta.principal;
}

export async function createApiToken(deps: Deps, payload: z.output<typeof apiTokenFunctionPayloads.createApiToken>, meta: CommandMetadata) {
  const principal = requireUser(meta);
  const tokenId = deps.ids.uuid();
  const { token, tokenHash, prefix } = newApiToken();
  const expires = payload.expiresInDays === undefined ? null : new Date(meta.now.getTime() + payload.expiresInDays * DAY_MS).toISOString();
  const outcome = await decideCommand(
    deps,
    apiTokensDecider,
    principal.uid,
    {
      type: 'CreateApiToken',
      data: { tokenId, uid: principal.uid, name: payload.name, scopes: payload.scopes, tokenHash, prefix, created: meta.now.toISOString(), expires },
    },
    undefined,
    meta,
  );
  await settled(deps.db, outcome.position);
  return { result: { tokenId, token }, position: outcome.position };
}

export async function revokeApiToken(deps: Deps, payload: z.output<typeof apiTokenFunctionPayloads.revokeApiToken>, meta: CommandMetadata) {
  const principal = requireUser(meta);
  const outcome = await decideCommand(
    deps,
    apiTokensDecider,
    principal.uid,
    { type: 'RevokeApiToken', data: { tokenId: payload.tokenId, uid: principal.uid, revoked: meta.now.toISOString() } },
    undefined,
    meta,
  );
  await settled(deps.db, outcome.position);
  return { result: null, position: outcome.position };
}

export const apiTokenFunctionHandlers = { createApiToken, revokeApiToken };
