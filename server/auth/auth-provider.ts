/**
 * The auth port: resolves a request to the acting principal, or none. The local provider
 * (e-mail and password, session cookie) is the embedded default; Clerk fits the same port.
 */
import type { Principal } from '../../events/principal.js';

export interface AuthRequest {
  headers: Record<string, string | string[] | undefined>;
  cookies: Record<string, string | undefined>;
}

export interface AuthProvider {
  readonly kind: 'local' | 'clerk';
  principalFor(request: AuthRequest): Promise<Principal | null>;
  /** The account of `uid` as a principal, for its API tokens (server/auth/api-token-auth.ts); null: no such account. */
  principalOfAccount(uid: string): Promise<Principal | null>;
}

export const SESSION_COOKIE = 'mapfold_session';
