import { use, useCallback } from 'react';
import { BrowserRouter, useNavigate } from 'react-router-dom';
import type { Principal } from '../../../events/principal';
import type { AuthConfig } from '../features/auth/api/auth-api';
import { AppProvider } from './provider';
import { AppRoutes } from './router';

export interface AppProps {
  /** How the server keeps accounts, asked before React started (main.tsx). */
  authConfig: Promise<AuthConfig>;
  /** Who is signed in (local accounts), asked at the same time. */
  signedInUser: Promise<Principal | null>;
}

function AppInRouter({ authConfig, signedInUser }: AppProps) {
  const navigate = useNavigate();
  // Clerk's redirects navigate inside the app.
  const navigateForClerk = useCallback((to: string, options?: { replace?: boolean }) => void navigate(to, options), [navigate]);
  return (
    <AppProvider authConfig={use(authConfig)} navigate={navigateForClerk} signedInUser={signedInUser}>
      <AppRoutes />
    </AppProvider>
  );
}

/** Runs the app in the mode the server keeps accounts in (local or Clerk), under the browser's router. */
export function App(props: AppProps) {
  return (
    <BrowserRouter>
      <AppInRouter {...props} />
    </BrowserRouter>
  );
}
