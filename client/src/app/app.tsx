import { StrictMode, Suspense, use, useCallback, type ReactNode } from 'react';
import { BrowserRouter, useNavigate } from 'react-router-dom';
import type { Principal } from '../../../events/principal';
import { PageSpinner } from '../components/ui/spinner';
import type { AuthConfig } from '../features/auth/api/auth-api';
import { AppProvider } from './provider';
import { AppRoutes } from './router';

export interface AppProps {
  /** How the server keeps accounts, asked before React started (main.tsx). */
  authConfig: Promise<AuthConfig>;
  /** Who is signed in (local accounts), asked at the same time. */
  signedInUser: Promise<Principal | null>;
}

/** The app under a router: the browser's (main.tsx) or the build's static one (pages-server.tsx). */
export function AppInRouter({ authConfig, signedInUser }: AppProps) {
  const navigate = useNavigate();
  // Clerk's redirects navigate inside the app.
  const navigateForClerk = useCallback((to: string, options?: { replace?: boolean }) => void navigate(to, options), [navigate]);
  return (
    <AppProvider authConfig={use(authConfig)} navigate={navigateForClerk} signedInUser={signedInUser}>
      <AppRoutes />
    </AppProvider>
  );
}

/**
 * What wraps the app in the browser and in the build's prerendering alike: a hydrated page
 * must start from the very tree its HTML was rendered from (routers render no markup).
 */
export function AppFrame({ children }: { children: ReactNode }) {
  return (
    <StrictMode>
      <Suspense fallback={<PageSpinner label="Loading Mapfold" />}>{children}</Suspense>
    </StrictMode>
  );
}

/** Runs the app in the mode the server keeps accounts in (local or Clerk), under the browser's router. */
export function App(props: AppProps) {
  return (
    <AppFrame>
      <BrowserRouter>
        <AppInRouter {...props} />
      </BrowserRouter>
    </AppFrame>
  );
}
