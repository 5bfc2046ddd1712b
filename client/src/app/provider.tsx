import type { ReactNode } from 'react';
import type { ApiClient } from '../lib/api';
import { LiveProvider } from '../lib/live';
import type { LiveClient } from '../lib/live-client';
import { SessionProvider } from '../lib/session';

export interface AppProviderProps {
  children: ReactNode;
  /** Tests pass their own; the browser uses the defaults. */
  api?: ApiClient;
  live?: LiveClient;
}

/** Everything pages rely on above the router: the session, then the live connection. */
export function AppProvider({ children, api, live }: AppProviderProps) {
  return (
    <SessionProvider {...(api ? { api } : {})}>
      <LiveProvider {...(live ? { client: live } : {})}>{children}</LiveProvider>
    </SessionProvider>
  );
}
