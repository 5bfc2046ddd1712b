/**
 * Who is calling, and whether they may: route hooks that routes name in their options
 * (`onRequest: [access.identify]`, `preValidation: [access.verified]`), instead of one global
 * hook branching on URL prefixes. A route that needs a principal says so; one that does not
 * never pays for the session lookup. The checks run before the body is validated, so a
 * stranger learns nothing from the payload's errors.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../events/errors.js';
import type { Principal } from '../../events/principal.js';
import { stripeRoleOf } from '../../projections/billing.js';
import type { AuthProvider } from '../auth/auth-provider.js';
import { apiTokenOf, type ApiTokenAuth } from '../auth/api-token-auth.js';
import type { Queryable } from '../../ports/database.js';

type Hook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

export interface AccessHooks {
  /**
   * Reads the session cookie or bearer token into `request.principal` (null: signed out). An
   * API token (`Bearer mf_…`) makes its owner the principal and sets `request.apiToken`; a
   * token that is not valid (unknown, revoked, expired) answers 401.
   */
  identify: Hook;
  /** CSRF: a write from another site's page is refused before anything runs. */
  sameSiteWrites: Hook;
  /** 401 'Unauthenticated' without a principal. */
  signedIn: Hook;
  /** Signed in with a verified e-mail address (spec §5); 403 otherwise. */
  verified: Hook;
  /** A verified admin (spec §6); 403 with this message otherwise. */
  admin(deniedMessage?: string): Hook;
}

declare module 'fastify' {
  interface FastifyInstance {
    access: AccessHooks;
  }
}

export function requirePrincipal(request: FastifyRequest): Principal {
  if (!request.principal) throw new DomainError('unauthenticated', 'Unauthenticated');
  return request.principal;
}

export function requireVerified(request: FastifyRequest): Principal {
  const principal = requirePrincipal(request);
  if (!principal.emailVerified) throw new DomainError('permission-denied', 'Verify your email address first.');
  return principal;
}

export function accessHooks(deps: { auth: AuthProvider; db: Queryable; publicUrl: string; apiTokens?: ApiTokenAuth }): AccessHooks {
  return {
    async identify(request) {
      const apiToken = deps.apiTokens ? apiTokenOf(request.headers) : null;
      let principal: Principal | null;
      if (apiToken && deps.apiTokens) {
        const { caller, principal: owner } = await deps.apiTokens.authenticate(apiToken);
        request.apiToken = caller;
        principal = owner;
      } else {
        principal = await deps.auth.principalFor({ headers: request.headers, cookies: request.cookies });
      }
      // The subscription role (spec §6) follows the billing read model, whichever provider signed in.
      request.principal = principal ? { ...principal, stripeRole: (await stripeRoleOf(deps.db, principal.uid)) ?? principal.stripeRole } : null;
    },
    async sameSiteWrites(request) {
      refuseCrossSiteWrites(request, deps.publicUrl);
    },
    async signedIn(request) {
      requirePrincipal(request);
    },
    async verified(request) {
      requireVerified(request);
    },
    admin(deniedMessage = 'Only an admin may do this.') {
      return async (request) => {
        const principal = requirePrincipal(request);
        if (!principal.admin) throw new DomainError('permission-denied', deniedMessage);
        // ADMIN_EMAILS names addresses: the claim counts once the address is proven.
        if (!principal.emailVerified) throw new DomainError('permission-denied', 'Verify your email address first.');
      };
    },
  };
}

export function registerAccessHooks(app: FastifyInstance, hooks: AccessHooks): void {
  app.decorate('access', hooks);
}

/**
 * CSRF: a browser names the page a request comes from (Origin, or Sec-Fetch-Site). A write
 * from another site's page is refused before anything runs; scripts and same-site pages pass.
 * (SameSite=Lax cookies already stay home on cross-site POSTs; this holds for older browsers
 * and same-site subdomains too.)
 */
export function refuseCrossSiteWrites(request: FastifyRequest, publicUrl: string): void {
  if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return;
  const origin = request.headers.origin;
  const fetchSite = request.headers['sec-fetch-site'];
  const crossSite = origin ? !isSameOrigin(origin, request.headers.host, publicUrl) : fetchSite === 'cross-site';
  if (crossSite) throw new DomainError('permission-denied', 'Cross-site request refused.');
}

/** True for requests without an Origin (not a browser page) or from this site's own pages. */
export function isSameOrigin(origin: string | undefined, host: string | undefined, publicUrl: string): boolean {
  if (!origin) return true;
  try {
    const url = new URL(origin);
    return url.origin === new URL(publicUrl).origin || url.host === host;
  } catch {
    return false;
  }
}
