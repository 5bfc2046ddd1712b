/**
 * `GET /api/account/api-tokens`: the caller's API tokens for the account page (issue 30 item
 * 1): names, scopes, prefixes, expiry and last use, never a token's text. Signed in with a
 * session only: a token cannot list tokens (server/auth/api-token-auth.ts ROUTE_SCOPES).
 */
import type { FastifyInstance } from 'fastify';
import { ApiTokenList } from '../../events/api-tokens.js';
import { ErrorBody } from '../../events/function-results.js';
import { resultOf } from '../../events/http-api.js';
import type { Queryable } from '../../ports/database.js';
import { apiTokensOf } from '../../projections/api-tokens.js';
import { requireVerified } from '../http/access-hooks.js';
import { typed } from '../http/zod-routes.js';

export async function apiTokenRoutes(scope: FastifyInstance, db: Queryable): Promise<void> {
  typed(scope).get(
    '/api/account/api-tokens',
    { schema: { tags: ['accounts'], response: { 200: resultOf(ApiTokenList), '4xx': ErrorBody } }, preValidation: [scope.access.verified] },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const principal = requireVerified(request);
      return { result: { tokens: await apiTokensOf(db, principal.uid) } };
    },
  );
}
