import { lazy, Suspense, useState, type ReactNode } from 'react';
import { PageSpinner } from '../components/ui/spinner';
import { LOCAL_AUTH_CONFIG, type AuthConfig } from '../features/auth/api/auth-api';
import { createLocalBackend, type AuthBackend } from '../features/auth/auth-backend';
import { SessionMapsSync, SessionProvider } from '../features/auth/session-provider';
import { api as defaultApi, type ApiClient } from '../lib/api';
import { LiveProvider } from '../lib/live';
import type { LiveClient } from '../lib/live-client';

// Clerk's SDK is a chunk of its own, loaded only when the server runs in Clerk mode.
const ClerkRoot = lazy(() => import('../features/auth/clerk/clerk-root'));

export interface AppProviderProps {
  children: ReactNode;
  /** How the server keeps accounts (GET /api/config); the local mode by default. */
  authConfig?: AuthConfig;
  /** Tests pass their own; the browser uses the defaults. */
  api?: ApiClient;
  live?: LiveClient;
  /** Client-side navigation for Clerk's redirects (the app's router). */
  navigate?: (to: string, options?: { replace?: boolean }) => void;
}

function SessionAndLive({ backend, api, live, children }: { backend: AuthBackend; api: ApiClient; live: LiveClient | undefined; children: ReactNode }) {
  return (
    <SessionProvider backend={backend} api={api}>
      <LiveProvider {...(live ? { client: live } : {})} getToken={backend.getToken}>
        <SessionMapsSync />
        {children}
      </LiveProvider>
    </SessionProvider>
  );
}

/** Everything pages rely on above the router: (Clerk,) the session, then the live connection. */
export function AppProvider({ children, authConfig = LOCAL_AUTH_CONFIG, api = defaultApi, live, navigate }: AppProviderProps) {
  const [localBackend] = useState(() => createLocalBackend(api));
  if (authConfig.auth === 'clerk' && authConfig.clerkPublishableKey) {
    return (
      <Suspense fallback={<PageSpinner label="Loading" />}>
        <ClerkRoot publishableKey={authConfig.clerkPublishableKey} api={api} {...(navigate ? { navigate } : {})}>
          {(backend) => (
            <SessionAndLive backend={backend} api={api} live={live}>
              {children}
            </SessionAndLive>
          )}
        </ClerkRoot>
      </Suspense>
    );
  }
  return (
    <SessionAndLive backend={localBackend} api={api} live={live}>
      {children}
    </SessionAndLive>
  );
}
