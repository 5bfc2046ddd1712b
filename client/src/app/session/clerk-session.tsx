/**
 * The session in Clerk mode, a chunk of its own: the app runs inside ClerkProvider (pages such
 * as /sso-callback use Clerk's components), with the auth machine and the live connection from
 * the start. The local mode never loads it (see local-session-shell.tsx).
 */
import type { ReactNode } from 'react';
import { SessionMapsSync, SessionProvider } from '../../features/auth/session-provider';
import ClerkRoot from '../../features/auth/clerk/clerk-root';
import { api as defaultApi, type ApiClient } from '../../lib/api';
import { LiveProvider } from '../../lib/live';
import type { LiveClient } from '../../lib/live-client';

export interface ClerkSessionProps {
  children: ReactNode;
  publishableKey: string;
  api?: ApiClient | undefined;
  live?: LiveClient | undefined;
  navigate?: ((to: string, options?: { replace?: boolean }) => void) | undefined;
}

export default function ClerkSession({ children, publishableKey, api = defaultApi, live, navigate }: ClerkSessionProps) {
  return (
    <ClerkRoot publishableKey={publishableKey} api={api} {...(navigate ? { navigate } : {})}>
      {(backend) => (
        <SessionProvider backend={backend} api={api}>
          <LiveProvider {...(live ? { client: live } : {})} getToken={backend.getToken}>
            <SessionMapsSync />
            {children}
          </LiveProvider>
        </SessionProvider>
      )}
    </ClerkRoot>
  );
}
