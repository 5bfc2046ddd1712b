/**
 * The Clerk auth provider: requests carry a Clerk session token (`Authorization: Bearer`),
 * verified with Clerk's SDK, without a network call when CLERK_JWT_KEY is set. The principal
 * comes from the session token's claims; the README gives the token template that puts
 * email, email_verified, name, admin and stripeRole there.
 */
import { createClerkClient, verifyToken } from '@clerk/fastify';
import type { Principal } from '../../events/principal.js';
import type { Config } from '../config.js';
import type { AuthProvider, AuthRequest } from './auth-provider.js';

type ClerkConfig = NonNullable<Config['clerk']>;

export interface VerifiedToken {
  principal: Principal;
  expiresAt: Date;
}

const truthy = (value: unknown) => value === true || value === 'true';
const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

export function bearerToken(request: Pick<AuthRequest, 'headers'>): string | null {
  const header = request.headers.authorization;
  const value = Array.isArray(header) ? header[0] : header;
  const match = value ? /^Bearer ([A-Za-z0-9._~+/=-]{1,8192})$/.exec(value) : null;
  return match ? match[1]! : null;
}

export class ClerkAuth implements AuthProvider {
  readonly kind = 'clerk' as const;

  constructor(private readonly clerk: ClerkConfig) {}

  /** The principal and expiry of a valid session token; null for any invalid one. */
  async verify(token: string): Promise<VerifiedToken | null> {
    try {
      const result: unknown = await verifyToken(token, {
        ...(this.clerk.jwtKey ? { jwtKey: this.clerk.jwtKey } : { secretKey: this.clerk.secretKey }),
        authorizedParties: this.clerk.authorizedParties,
      });
      // Newer SDKs answer {data, errors}; older ones answer the payload or throw.
      const payload = (result && typeof result === 'object' && 'errors' in result
        ? (result as { data?: Record<string, unknown>; errors?: unknown[] }).errors?.length
          ? null
          : (result as { data?: Record<string, unknown> }).data
        : result) as Record<string, unknown> | null | undefined;
      if (!payload || typeof payload.sub !== 'string' || typeof payload.exp !== 'number') return null;
      const email = text(payload.email) ?? '';
      return {
        principal: {
          uid: payload.sub,
          email,
          emailVerified: truthy(payload.email_verified),
          displayName: text(payload.name) ?? (email.split('@')[0] || 'Mapfold user'),
          admin: truthy(payload.admin),
          stripeRole: text(payload.stripeRole),
        },
        expiresAt: new Date(payload.exp * 1000),
      };
    } catch {
      return null;
    }
  }

  async principalFor(request: AuthRequest): Promise<Principal | null> {
    const token = bearerToken(request);
    return token ? ((await this.verify(token))?.principal ?? null) : null;
  }

  /**
   * An API token's owner (server/auth/api-token-auth.ts). Clerk's claims come with its session
   * tokens only: the owner was verified when they made the token (every function asks for that),
   * and a token never acts as an admin.
   */
  async principalOfAccount(uid: string): Promise<Principal | null> {
    return { uid, email: '', emailVerified: true, displayName: 'API token', admin: false, stripeRole: null };
  }

  /** Deletes the user at Clerk (a network call to Clerk's Backend API). */
  async deleteUser(uid: string): Promise<void> {
    await createClerkClient({ secretKey: this.clerk.secretKey }).users.deleteUser(uid);
  }
}
