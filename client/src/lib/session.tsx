/**
 * Who is signed in, as pages see it. The state behind it is the auth machine
 * (features/auth/auth-machine.ts), provided by features/auth/session-provider.tsx; this module
 * holds only the context's shape, so shared code and every feature can read the session.
 *
 * Login, register and logout resolve to their error (or null) instead of throwing (spec §8:
 * "login and logout return the error"), so a form can show it without a try/catch.
 */
import { createContext, use } from 'react';
import type { Principal } from '../../../events/principal';
import type { MapListItem } from '../../../events/read-models';
import type { ApiError } from './api';

export type SessionStatus = 'loading' | 'signedIn' | 'signedOut';

/** Who keeps the accounts: the server's own (cookie sessions) or Clerk (bearer tokens). */
export type AuthMode = 'local' | 'clerk';

export interface RegisterDetails {
  displayName: string;
  email: string;
  password: string;
}

export interface Session {
  status: SessionStatus;
  user: Principal | null;
  mode: AuthMode;
  /** From the token claims, set when the session starts (spec §4). */
  admin: boolean;
  stripeRole: string | null;
  /** The user's maps, loaded when the session starts and kept fresh by the live topic. */
  maps: MapListItem[];
  /** The user's subscriptions (the billing issue loads them; empty until then). */
  subscriptions: unknown[];
  /** Whether `maps` has been loaded for the signed-in user. */
  loaded: boolean;
  login(email: string, password: string): Promise<ApiError | null>;
  /** Registers; resolves to null when signed in, or (Clerk) when {@link Session.pendingSignUp} asks for the code. */
  register(details: RegisterDetails): Promise<ApiError | null>;
  /** Clerk sign-up: the address the verification code went to, while it is awaited. */
  pendingSignUp: { email: string } | null;
  confirmSignUp(code: string): Promise<ApiError | null>;
  logout(): Promise<ApiError | null>;
  /** Asks the server again who is signed in (e.g. after the live socket was refused). */
  refresh(): Promise<void>;
  /** The server answered with the signed-in user (password reset, e-mail verified, profile saved). */
  setUser(user: Principal): void;
  /** The server ended the session (signed out everywhere, account deleted): forget it here too. */
  endSession(): Promise<void>;
  /** Clerk mode: "Continue with Google" (leaves for Google); null in the local mode. */
  continueWithGoogle: (() => Promise<ApiError | null>) | null;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = use(SessionContext);
  if (!session) throw new Error('useSession must be used inside <SessionProvider>');
  return session;
}
