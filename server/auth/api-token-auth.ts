/**
 * API tokens at the door (issue 30 item 1): `Authorization: Bearer mf_…` on the product API.
 *
 * - A token is found by the SHA-256 of its text (projections/api-tokens.ts); unknown, revoked
 *   and expired tokens answer 401, each saying which, so a script's author knows what to fix.
 * - It acts as its owner, looked up again on every request (an account deleted, or its address
 *   no longer verified, ends what its tokens can do), under the same access policy: the map
 *   hooks and functions check the owner's roles as for a session. Never with an admin's powers.
 * - Its scopes say which routes it may call at all: {@link FUNCTION_SCOPES} and
 *   {@link ROUTE_SCOPES}, checked before anything else the route does. A route or function
 *   with no scope (billing, the account's settings, the tokens themselves, admin) refuses every
 *   token with 403, and so does any route these tables do not name.
 * - When it was last used is written at most once a minute per token and process.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_TOKEN_PATTERN, API_TOKEN_PREFIX, type ApiTokenScope } from '../../events/api-tokens.js';
import { DomainError } from '../../events/errors.js';
import type { FunctionName } from '../../events/functions.js';
import type { Principal } from '../../events/principal.js';
import type { Queryable } from '../../ports/database.js';
import { apiTokenByHash } from '../../projections/api-tokens.js';

/** What a request made with a token carries (`request.apiToken`). */
export interface ApiTokenCaller {
  tokenId: string;
  uid: string;
  scopes: readonly ApiTokenScope[];
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The API token the request was made with; null for a session or no one. */
    apiToken: ApiTokenCaller | null;
  }
}

/**
 * Which scope each callable function needs from a token; null: never by token. A record over
 * every function, so a new function does not compile until someone decides.
 */
export const FUNCTION_SCOPES: Record<FunctionName, ApiTokenScope | null> = {
  createMap: 'maps:write',
  saveMap: 'maps:write',
  deleteMap: 'maps:write',
  editMap: 'maps:write',
  saveMapHistory: 'maps:write',
  deleteMapHistory: 'maps:write',
  setMapHistoryName: 'maps:write',
  restoreMapHistory: 'maps:write',
  // An admin's powers are not handed to scripts.
  adminUpdateMap: null,
  // Billing: subscriptions, the portal, licences and the paid slots a map is published with.
  startCheckout: null,
  createPortalLink: null,
  registerLicence: null,
  publishMap: null,
  unpublishMap: null,
  // Sharing a map is the owner's (or editor's) work on the map; joining or leaving one is the person's own.
  inviteToMap: 'maps:write',
  acceptMapInvitation: null,
  revokeMapInvitation: 'maps:write',
  setMapMemberRole: 'maps:write',
  removeMapMember: 'maps:write',
  leaveMap: null,
  setMapViewLink: 'maps:write',
  setMapPublishMode: 'maps:write',
  publishMapChanges: 'maps:write',
  cancelMapPublishSchedule: 'maps:write',
  addMapComment: 'maps:write',
  replyToMapComment: 'maps:write',
  editMapComment: 'maps:write',
  resolveMapCommentThread: 'maps:write',
  reopenMapCommentThread: 'maps:write',
  deleteMapComment: 'maps:write',
  // Tokens are made and revoked by a person, signed in.
  createApiToken: null,
  revokeApiToken: null,
  // Live data (issue 30 item 4): a map's data source, and a sync, are imports.
  setMapDataSource: 'import',
  syncMapNow: 'import',
  resolveSyncOverride: 'import',
  // Webhooks (issue 30 item 2): a script may manage the webhooks of its owner's maps and account.
  createWebhook: 'webhooks',
  deleteWebhook: 'webhooks',
  listWebhooks: 'webhooks',
  redeliverWebhook: 'webhooks',
  sendTestWebhook: 'webhooks',
  enableWebhook: 'webhooks',
};

/** `any`: a public route, which a token may call like anyone (its owner's view of it). */
export type RouteScope = ApiTokenScope | 'any' | null;

/**
 * Which scope each product route (`METHOD /url-pattern`) needs from a token. Any route not
 * named here refuses tokens.
 */
export const ROUTE_SCOPES: Readonly<Record<string, RouteScope>> = {
  'GET /api/maps': 'maps:read',
  'GET /api/maps/shared': 'maps:read',
  'GET /api/maps/:id/data': 'maps:read',
  'GET /api/maps/:id/export.json': 'maps:read',
  'GET /api/maps/:id/locations.csv': 'maps:read',
  'GET /api/maps/:id/export.geojson': 'maps:read',
  'GET /api/maps/:id/export.imdf.zip': 'maps:read',
  'GET /api/maps/:id/members': 'maps:read',
  'GET /api/maps/:id/comments': 'maps:read',
  'GET /api/maps/:id/timeline': 'maps:read',
  'GET /api/maps/:id/revisions/:revision': 'maps:read',
  'GET /api/maps/:id/audit.json': 'maps:read',
  'GET /api/maps/:id/audit.csv': 'maps:read',
  'GET /api/maps/:id/publication': 'maps:read',
  'GET /api/maps/:id/set-aside': 'maps:read',
  'GET /api/maps/:id/insights': 'maps:read',
  'GET /api/public/maps/:id': 'maps:read',
  'GET /api/public/maps/:id/places': 'maps:read',
  'POST /api/maps/:id/import': 'import',
  'GET /api/maps/:id/import/progress': 'import',
  'POST /api/maps/:id/sync': 'import',
  'GET /api/maps/:id/data-source': 'import',
  'POST /api/files': 'maps:write',
  'POST /api/files/from-url': 'maps:write',
  'POST /api/templates/:id/instantiate': 'maps:write',
  'GET /api/config': 'any',
  'GET /api/client-config': 'any',
  'GET /api/files/limits': 'any',
  'GET /api/templates': 'any',
  'GET /api/templates/:id/preview': 'any',
  // Never: the account (/api/auth/*), its tokens, admin, the contact form, the live socket.
  'GET /api/account/api-tokens': null,
  'GET /api/admin/maps': null,
};

/**
 * `/api` routes outside the product API's scope: no caller is read there (probes, Stripe's
 * webhook, the viewer's beacon), so a token changes nothing.
 */
export const ROUTES_WITHOUT_CALLER: ReadonlySet<string> = new Set([
  'GET /api/health',
  'GET /api/ready',
  'GET /api/openapi.json',
  'POST /api/stripe/webhook',
  'POST /api/public/maps/:id/insights',
]);

export const TOKEN_NOT_ALLOWED = 'API tokens cannot be used here: billing, account settings and API tokens are managed signed in to Mapfold.';

/** The scope a route needs from a token (undefined: not named, so refused). */
export function scopeOfRoute(method: string, url: string): RouteScope | undefined {
  if (url.startsWith('/api/fn/')) {
    const name = url.slice('/api/fn/'.length);
    return Object.hasOwn(FUNCTION_SCOPES, name) ? FUNCTION_SCOPES[name as FunctionName] : undefined;
  }
  const key = `${method} ${url}`;
  return Object.hasOwn(ROUTE_SCOPES, key) ? ROUTE_SCOPES[key] : undefined;
}

/** The route hook: a request made with a token reaches only what its scopes open. */
export async function requireTokenScope(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const token = request.apiToken;
  if (!token) return;
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  const scope = scopeOfRoute(method, request.routeOptions.url ?? '');
  if (scope === 'any') return;
  if (!scope) throw new DomainError('permission-denied', TOKEN_NOT_ALLOWED);
  if (!token.scopes.includes(scope)) throw new DomainError('permission-denied', `This API token does not have the ${scope} scope.`);
}

export const hashApiToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A new token's text (shown once), its hash (kept) and the prefix the account page shows. */
export function newApiToken(): { token: string; tokenHash: string; prefix: string } {
  const token = API_TOKEN_PREFIX + randomBytes(32).toString('base64url');
  return { token, tokenHash: hashApiToken(token), prefix: token.slice(0, API_TOKEN_PREFIX.length + 4) };
}

/** The token of an `Authorization: Bearer mf_…` header; null for no header or another kind of bearer token (Clerk's). */
export function apiTokenOf(headers: Record<string, string | string[] | undefined>): string | null {
  const header = headers.authorization;
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(value);
  return match && match[1]!.startsWith(API_TOKEN_PREFIX) ? match[1]! : null;
}

const LAST_USE_EVERY_MS = 60_000;

export interface ApiTokenAuthOptions {
  db: Queryable;
  now: () => Date;
  /** The owner as a principal, looked up again each time (null: the account is gone). */
  principalOf: (uid: string) => Promise<Principal | null>;
  onError?: (error: unknown) => void;
}

export class ApiTokenAuth {
  /** When each token's last use was written, by this process. */
  private readonly written = new Map<string, number>();

  constructor(private readonly o: ApiTokenAuthOptions) {}

  /** The token's caller and its owner, or a 401 saying what is wrong with it. */
  async authenticate(token: string): Promise<{ caller: ApiTokenCaller; principal: Principal }> {
    const found = API_TOKEN_PATTERN.test(token) ? await apiTokenByHash(this.o.db, hashApiToken(token)) : null;
    if (!found) throw new DomainError('unauthenticated', 'This API token is not valid.');
    if (found.revoked) throw new DomainError('unauthenticated', 'This API token was revoked.');
    const now = this.o.now();
    if (found.expires && found.expires.getTime() <= now.getTime()) {
      throw new DomainError('unauthenticated', `This API token expired on ${found.expires.toISOString().slice(0, 10)}.`);
    }
    const owner = await this.o.principalOf(found.uid);
    if (!owner) throw new DomainError('unauthenticated', 'This API token is not valid.');
    await this.noteUse(found.tokenId, now);
    return { caller: { tokenId: found.tokenId, uid: found.uid, scopes: found.scopes }, principal: { ...owner, admin: false } };
  }

  /** One small upsert a minute per token: a failure is logged, never the caller's. */
  private async noteUse(tokenId: string, now: Date): Promise<void> {
    const last = this.written.get(tokenId);
    if (last !== undefined && now.getTime() - last < LAST_USE_EVERY_MS) return;
    this.written.set(tokenId, now.getTime());
    if (this.written.size > 10_000) this.written.clear();
    await this.o.db
      .query(
        `INSERT INTO api_token_usage (token_id, last_used) VALUES ($1, $2)
         ON CONFLICT (token_id) DO UPDATE SET last_used = GREATEST(api_token_usage.last_used, EXCLUDED.last_used)`,
        [tokenId, now.toISOString()],
      )
      .catch((error: unknown) => this.o.onError?.(error));
  }
}
