/**
 * Who is signed in. Loads `GET /api/auth/me` once, then follows login, register and logout.
 * Login, register and logout resolve to their error (or null) instead of throwing (spec §8:
 * "login and logout return the error"), so a form can show it without a try/catch.
 *
 * A later issue replaces this with an XState auth machine and Clerk; the context's shape is
 * what pages rely on.
 */
import { createContext, use, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Principal } from '../../../events/principal';
import { api as defaultApi, toApiError, type ApiClient, type ApiError } from './api';

export type SessionStatus = 'loading' | 'signedIn' | 'signedOut';

export interface RegisterDetails {
  displayName: string;
  email: string;
  password: string;
}

export interface Session {
  status: SessionStatus;
  user: Principal | null;
  login(email: string, password: string): Promise<ApiError | null>;
  register(details: RegisterDetails): Promise<ApiError | null>;
  logout(): Promise<ApiError | null>;
  /** Asks the server again who is signed in (e.g. after the live socket was refused). */
  refresh(): Promise<void>;
}

const SessionContext = createContext<Session | null>(null);

const MaybePrincipal = Principal.nullable();

export function SessionProvider({ children, api = defaultApi }: { children: ReactNode; api?: ApiClient }) {
  const [user, setUser] = useState<Principal | null>(null);
  const [status, setStatus] = useState<SessionStatus>('loading');

  const apply = useCallback((principal: Principal | null) => {
    setUser(principal);
    setStatus(principal ? 'signedIn' : 'signedOut');
  }, []);

  const refresh = useCallback(async () => {
    try {
      const { result } = await api.get('/api/auth/me', MaybePrincipal);
      apply(result);
    } catch {
      // Unknown who is signed in (offline, server down): treat as signed out, the pages
      // that need a user then offer to log in.
      apply(null);
    }
  }, [api, apply]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  const login = useCallback(
    async (email: string, password: string) => {
      try {
        const { result } = await api.post('/api/auth/login', { email, password }, Principal);
        apply(result);
        return null;
      } catch (error) {
        return toApiError(error);
      }
    },
    [api, apply],
  );

  const register = useCallback(
    async (details: RegisterDetails) => {
      try {
        const { result } = await api.post('/api/auth/register', details, Principal);
        apply(result);
        return null;
      } catch (error) {
        return toApiError(error);
      }
    },
    [api, apply],
  );

  const logout = useCallback(async () => {
    try {
      await api.request('POST', '/api/auth/logout', {});
      apply(null);
      return null;
    } catch (error) {
      return toApiError(error);
    }
  }, [api, apply]);

  const session = useMemo<Session>(
    () => ({ status, user, login, register, logout, refresh }),
    [status, user, login, register, logout, refresh],
  );
  return <SessionContext value={session}>{children}</SessionContext>;
}

export function useSession(): Session {
  const session = use(SessionContext);
  if (!session) throw new Error('useSession must be used inside <SessionProvider>');
  return session;
}
