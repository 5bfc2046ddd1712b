/**
 * Where sessions come from: the server's own accounts (a session cookie) or Clerk (bearer
 * tokens). The auth machine's actors are a backend plus the maps query; the Clerk backend lives
 * in ./clerk/ and is loaded only when the server runs in Clerk mode.
 */
import { z } from 'zod';
import type { Principal } from '../../../../events/principal';
import { MapListItem } from '../../../../events/read-models';
import { api as defaultApi, type ApiClient, type TokenProvider } from '../../lib/api';
import type { AuthMode } from '../../lib/session';
import { authApi } from './api/auth-api';
import type { AuthServices, Claims, RegisterDetails, RegisterOutcome } from './auth-machine';

export interface AuthBackend {
  readonly mode: AuthMode;
  /** Who is signed in now (the server's view), or null. */
  currentUser(): Promise<Principal | null>;
  login(email: string, password: string): Promise<Principal>;
  register(details: RegisterDetails): Promise<RegisterOutcome>;
  confirmSignUp(code: string): Promise<Principal>;
  logout(): Promise<void>;
  /** Forgets here a session the server already ended. */
  endSession(): Promise<void>;
  /** Refreshes the auth token; gives the claims the app acts on. */
  refreshToken(user: Principal): Promise<Claims>;
  /** Clerk: Google sign-in through Clerk's OAuth (the browser leaves for Google). */
  continueWithGoogle: (() => Promise<void>) | null;
  /** Bearer tokens for the API and the live socket (Clerk); null when the cookie does it. */
  getToken: TokenProvider | null;
  /** Clerk: called when Clerk's session changes by itself (another tab signed out, it expired). */
  onExternalChange?(listener: () => void): () => void;
}

/** What `GET /api/maps` and the topic `maps:{uid}` carry. */
export const MapList = z.array(MapListItem);

/** The server's own accounts: e-mail and password, kept signed in by an HttpOnly cookie. */
export function createLocalBackend(api: ApiClient = defaultApi): AuthBackend {
  const auth = authApi(api);
  return {
    mode: 'local',
    currentUser: () => auth.me(),
    login: (email, password) => auth.login(email, password),
    register: async (details) => ({ user: await auth.register(details) }),
    confirmSignUp: () => Promise.reject(new Error('Local accounts have no sign-up code.')),
    logout: () => auth.logout(),
    endSession: async () => {},
    // A cookie session has no token to refresh: the server reads the account on every request,
    // so the claims are those of the user it just gave.
    refreshToken: async (user) => ({ admin: user.admin, stripeRole: user.stripeRole }),
    continueWithGoogle: null,
    getToken: null,
  };
}

/** The machine's services: a backend for the session, the API for the user's maps. */
export function authServicesFor(backend: AuthBackend, api: ApiClient = defaultApi): AuthServices {
  return {
    checkSession: () => backend.currentUser(),
    login: (email, password) => backend.login(email, password),
    register: (details) => backend.register(details),
    confirmSignUp: (code) => backend.confirmSignUp(code),
    logout: () => backend.logout(),
    endSession: () => backend.endSession(),
    refreshToken: (user) => backend.refreshToken(user),
    loadMaps: async () => (await api.get('/api/maps', MapList)).result,
    // loadSubscriptions: provided by the billing issue (none until then).
  };
}
