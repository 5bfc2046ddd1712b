/**
 * Clerk mode (GET /api/config says `auth: 'clerk'`): the app runs inside ClerkProvider, and the
 * session's backend signs in, up and out through Clerk's hooks. Every API call then carries
 * `Authorization: Bearer <Clerk's token>` instead of the cookie, and the live socket sends it in
 * its auth message. This module is imported lazily, so the local mode never loads Clerk.
 */
import { useLayoutEffect, useState, type ReactNode } from 'react';
import type { Principal } from '../../../../../events/principal';
import { ApiError, type ApiClient } from '../../../lib/api';
import { ClerkProvider, useAuth, useSignIn, useSignUp } from '../../../lib/clerk';
import { authApi } from '../api/auth-api';
import type { AuthBackend } from '../auth-backend';

export interface ClerkRootProps {
  publishableKey: string;
  api: ApiClient;
  /** Client-side navigation for Clerk's own redirects (after sign-out, after OAuth). */
  navigate?: (to: string, options?: { replace?: boolean }) => void;
  children: (backend: AuthBackend) => ReactNode;
}

/** How long to wait for Clerk's script before treating the visitor as signed out. */
export const CLERK_LOAD_TIMEOUT_MS = 15_000;

/** Where Clerk sends the browser back after Google sign-in (see SsoCallbackPage). */
export const SSO_CALLBACK_PATH = '/sso-callback';

type ClerkAuth = ReturnType<typeof useAuth>;
type ClerkSignIn = ReturnType<typeof useSignIn>['signIn'];
type ClerkSignUp = ReturnType<typeof useSignUp>['signUp'];

/** Clerk's error (an API error carries a list with the readable text) as the app's ApiError. */
export function fromClerkError(error: unknown, code: 'unauthenticated' | 'invalid-argument' = 'unauthenticated'): ApiError {
  if (error instanceof ApiError) return error;
  const first = (error as { errors?: { longMessage?: string; message?: string }[] } | null)?.errors?.[0];
  const message = first?.longMessage || first?.message || (error instanceof Error && error.message) || 'Sign-in failed. Try again.';
  return new ApiError(code, message, code === 'unauthenticated' ? 401 : 400);
}

/** Splits a display name for Clerk's first/last name fields. */
function nameParts(displayName: string): { firstName: string; lastName?: string } {
  const [first = '', ...rest] = displayName.trim().split(/\s+/);
  return rest.length ? { firstName: first, lastName: rest.join(' ') } : { firstName: first };
}

/**
 * The backend over Clerk's hooks. The hooks' latest values are handed in by {@link ClerkBridge}
 * after each render; calls made before Clerk has loaded wait for it.
 */
export function createClerkBackend(api: ApiClient) {
  const auth = authApi(api);
  let latest: { auth: ClerkAuth; signIn: ClerkSignIn; signUp: ClerkSignUp } | null = null;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const listeners = new Set<() => void>();
  let busy = 0;
  let lastUserId: string | null | undefined;

  const hooks = () => {
    // Before Clerk has loaded, its sign-in and sign-up resources can be null.
    if (!latest || !(latest.signIn as ClerkSignIn | null) || !(latest.signUp as ClerkSignUp | null)) {
      throw new ApiError('unavailable', 'The sign-in service is still loading. Try again in a moment.', 0);
    }
    return latest;
  };

  async function whenReady() {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new ApiError('unavailable', 'The sign-in service did not load. Check your connection and reload the page.', 0)),
        CLERK_LOAD_TIMEOUT_MS,
      );
    });
    try {
      await Promise.race([ready, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Clerk's current session token, or null when nobody is signed in. */
  const getToken = async (options?: { skipCache?: boolean }): Promise<string | null> => {
    if (!latest) return null;
    return (await latest.auth.getToken(options)) ?? null;
  };

  /** While our own call changes Clerk's session, its change is not news to the machine. */
  async function own<T>(work: () => Promise<T>): Promise<T> {
    busy++;
    try {
      return await work();
    } finally {
      busy--;
    }
  }

  /** The server's view of the Clerk user just signed in, with the display name they chose. */
  async function serverUser(displayName?: string): Promise<Principal> {
    const user = await auth.me();
    if (!user) throw new ApiError('unauthenticated', 'Signed in with the sign-in service, but the server did not accept the session. Try again.', 401);
    if (displayName && user.displayName !== displayName) return auth.updateProfile(displayName);
    return user;
  }

  const backend: AuthBackend = {
    mode: 'clerk',
    getToken: () => getToken(),

    async currentUser() {
      await whenReady();
      if (!(await getToken())) return null;
      return auth.me();
    },

    login: (email, password) =>
      own(async () => {
        await whenReady();
        const { signIn } = hooks();
        const { error } = await signIn.password({ identifier: email, password });
        if (error) throw fromClerkError(error);
        const status = hooks().signIn.status;
        if (status !== 'complete') {
          throw new ApiError('unimplemented', 'This account needs another sign-in step. Use "Continue with Google" or contact us.', 0);
        }
        const finalized = await hooks().signIn.finalize();
        if (finalized.error) throw fromClerkError(finalized.error);
        return serverUser();
      }),

    register: (details) =>
      own(async () => {
        await whenReady();
        const { signUp } = hooks();
        const { error } = await signUp.password({
          emailAddress: details.email,
          password: details.password,
          ...nameParts(details.displayName),
          unsafeMetadata: { displayName: details.displayName },
        });
        if (error) throw fromClerkError(error, 'invalid-argument');
        const current = hooks().signUp;
        if (current.status === 'complete') {
          const finalized = await current.finalize();
          if (finalized.error) throw fromClerkError(finalized.error, 'invalid-argument');
          return { user: await serverUser(details.displayName) };
        }
        if (current.unverifiedFields.includes('email_address')) {
          const sent = await current.verifications.sendEmailCode();
          if (sent.error) throw fromClerkError(sent.error, 'invalid-argument');
          pendingName = details.displayName;
          return { verifyEmail: details.email };
        }
        throw new ApiError('invalid-argument', `Sign-up needs more details (${current.missingFields.join(', ') || 'unknown'}). Contact us.`, 400);
      }),

    confirmSignUp: (code) =>
      own(async () => {
        await whenReady();
        const { signUp } = hooks();
        const { error } = await signUp.verifications.verifyEmailCode({ code });
        if (error) throw fromClerkError(error, 'invalid-argument');
        const finalized = await hooks().signUp.finalize();
        if (finalized.error) throw fromClerkError(finalized.error, 'invalid-argument');
        return serverUser(pendingName ?? undefined);
      }),

    logout: () =>
      own(async () => {
        await hooks().auth.signOut();
      }),

    endSession: () =>
      own(async () => {
        // The server already revoked the Clerk sessions; this forgets the one in this browser.
        await hooks().auth.signOut().catch(() => undefined);
      }),

    async refreshToken(user) {
      // A fresh token (not the cached one), so the claims are current; the server reads them.
      await getToken({ skipCache: true });
      const fresh = await auth.me().catch(() => null);
      const source = fresh?.uid === user.uid ? fresh : user;
      return { admin: source.admin, stripeRole: source.stripeRole };
    },

    continueWithGoogle: async () => {
      await whenReady();
      const origin = window.location.origin;
      const { error } = await hooks().signIn.sso({
        strategy: 'oauth_google',
        redirectUrl: `${origin}/maps`,
        redirectCallbackUrl: `${origin}${SSO_CALLBACK_PATH}`,
      });
      if (error) throw fromClerkError(error);
    },

    onExternalChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };

  let pendingName: string | null = null;

  return {
    backend,
    /** Called by the bridge after each render with the hooks' latest values. */
    update(next: { auth: ClerkAuth; signIn: ClerkSignIn; signUp: ClerkSignUp }) {
      latest = next;
      if (!next.auth.isLoaded) return;
      markReady();
      const userId = next.auth.userId ?? null;
      if (lastUserId !== undefined && userId !== lastUserId && busy === 0) {
        for (const listener of [...listeners]) listener();
      }
      lastUserId = userId;
    },
    getToken,
  };
}

function ClerkBridge({ api, children }: { api: ApiClient; children: (backend: AuthBackend) => ReactNode }) {
  const auth = useAuth();
  const { signIn } = useSignIn();
  const { signUp } = useSignUp();
  const [clerk] = useState(() => createClerkBackend(api));

  useLayoutEffect(() => {
    clerk.update({ auth, signIn, signUp });
  });

  // Every API call of this app sends Clerk's token while Clerk mode is on.
  useLayoutEffect(() => {
    api.setTokenProvider(() => clerk.getToken());
    return () => api.setTokenProvider(null);
  }, [api, clerk]);

  return children(clerk.backend);
}

export default function ClerkRoot({ publishableKey, api, navigate, children }: ClerkRootProps) {
  const routing = navigate
    ? {
        routerPush: (to: string) => navigate(to),
        routerReplace: (to: string) => navigate(to, { replace: true }),
      }
    : {};
  return (
    // No telemetry: the page's CSP lets the browser reach Clerk's frontend API and nothing else of Clerk's.
    <ClerkProvider publishableKey={publishableKey} afterSignOutUrl="/" telemetry={false} {...routing}>
      <ClerkBridge api={api}>{children}</ClerkBridge>
    </ClerkProvider>
  );
}
