/**
 * The two questions every page load asks before it can show the header: how the server keeps
 * accounts (`GET /api/config`) and who is signed in (`GET /api/auth/me`). Asked with plain
 * `fetch` and checked by hand, so the landing and marketing pages answer them without loading
 * zod or the auth machine (those come with the first page that needs them, app/session/). The
 * checks are as strict as the schemas in features/auth/api/auth-api.ts and events/principal.ts:
 * an answer of another shape counts as no answer (local mode, nobody signed in).
 */
import type { Principal } from '../../../../events/principal';
import type { AuthConfig } from '../../features/auth/api/auth-api';

export const LOCAL_AUTH_CONFIG: AuthConfig = { auth: 'local', clerkPublishableKey: null };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** The `result` of a successful JSON answer of the API, or undefined. */
async function resultOf(path: string): Promise<unknown> {
  const response = await fetch(path, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
  if (!response.ok) return undefined;
  const body: unknown = await response.json();
  return isRecord(body) ? body.result : undefined;
}

/** events/principal.ts's `Principal`, checked without zod. */
export function isPrincipal(value: unknown): value is Principal {
  return (
    isRecord(value) &&
    typeof value.uid === 'string' &&
    value.uid.length > 0 &&
    typeof value.email === 'string' &&
    typeof value.emailVerified === 'boolean' &&
    typeof value.displayName === 'string' &&
    typeof value.admin === 'boolean' &&
    (value.stripeRole === null || typeof value.stripeRole === 'string')
  );
}

/** How this server keeps accounts; the local mode when it cannot say (as fetchAuthConfig). */
export async function fetchAuthConfigLight(): Promise<AuthConfig> {
  try {
    const result = await resultOf('/api/config');
    if (!isRecord(result)) return LOCAL_AUTH_CONFIG;
    const key = result.clerkPublishableKey;
    if (result.auth === 'clerk' && typeof key === 'string' && key) return { auth: 'clerk', clerkPublishableKey: key };
    return LOCAL_AUTH_CONFIG;
  } catch {
    return LOCAL_AUTH_CONFIG;
  }
}

/** Who is signed in with the session cookie (local accounts), or null; rejects when the server cannot say. */
export async function fetchSignedInUser(): Promise<Principal | null> {
  const result = await resultOf('/api/auth/me');
  if (result === null) return null;
  if (isPrincipal(result)) return result;
  throw new Error('GET /api/auth/me answered something else than a user or null.');
}
