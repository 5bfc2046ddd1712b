import { lazy, Suspense, type ReactNode } from 'react';
import type { Principal } from '../../../events/principal';
import { PageSpinner } from '../components/ui/spinner';
import type { AuthConfig } from '../features/auth/api/auth-api';
import type { ApiClient } from '../lib/api';
import type { LiveClient } from '../lib/live-client';
import { LOCAL_AUTH_CONFIG } from './session/first-requests';
import { LocalSessionShell } from './session/local-session-shell';

// Clerk's SDK, with the session's runtime, is a chunk of its own, loaded only in Clerk mode.
const ClerkSession = lazy(() => import('./session/clerk-session'));

export interface AppProviderProps {
  children: ReactNode;
  /** How the server keeps accounts (GET /api/config); the local mode by default. */
  authConfig?: AuthConfig;
  /** Tests pass their own; the browser uses the defaults. */
  api?: ApiClient;
  live?: LiveClient;
  /** Client-side navigation for Clerk's redirects (the app's router). */
  navigate?: (to: string, options?: { replace?: boolean }) => void;
  /** Local mode: who is signed in, when the page already asked (main.tsx). */
  signedInUser?: Promise<Principal | null>;
}

/**
 * Everything pages rely on above the router: the session and the live connection. In the local
 * mode the landing and marketing pages get the session from one plain request; the auth machine
 * and the live client load with the first page that needs them (app/session/).
 */
export function AppProvider({ children, authConfig = LOCAL_AUTH_CONFIG, api, live, navigate, signedInUser }: AppProviderProps) {
  if (authConfig.auth === 'clerk' && authConfig.clerkPublishableKey) {
    return (
      <Suspense fallback={<PageSpinner label="Loading" />}>
        <ClerkSession publishableKey={authConfig.clerkPublishableKey} api={api} live={live} navigate={navigate}>
          {children}
        </ClerkSession>
      </Suspense>
    );
  }
  return (
    <LocalSessionShell api={api} live={live} signedInUser={signedInUser}>
      {children}
    </LocalSessionShell>
  );
}
