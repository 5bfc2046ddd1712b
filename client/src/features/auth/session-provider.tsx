/**
 * The session context (lib/session.tsx) backed by the auth machine: one actor per app, its
 * actors bound to the backend (local accounts or Clerk) and the API.
 */
import { useActorRef, useSelector } from '@xstate/react';
import { createContext, use, useEffect, useMemo, type ReactNode } from 'react';
import type { Principal } from '../../../../events/principal';
import { topics } from '../../../../events/topics';
import { api as defaultApi, toApiError, type ApiClient } from '../../lib/api';
import { useLiveClient } from '../../lib/live';
import type { LiveClient } from '../../lib/live-client';
import { SessionContext, type Session } from '../../lib/session';
import { forgetPendingEdits } from '../../lib/pending-edits-store';
import { authServicesFor, createLocalBackend, MapList, type AuthBackend } from './auth-backend';
import {
  authMachineWith,
  confirmSignUpWith,
  endSessionWith,
  loginWith,
  logoutWith,
  refreshWith,
  registerWith,
  statusOf,
  type AuthActor,
} from './auth-machine';

const AuthActorContext = createContext<AuthActor | null>(null);

export interface SessionProviderProps {
  children: ReactNode;
  /** Defaults to the server's own accounts over `api`. */
  backend?: AuthBackend;
  api?: ApiClient;
}

/**
 * The auth machine behind a session: one actor per call site, its actors bound to `backend`
 * and `api`. {@link SessionProvider} puts it in context; the app shell (app/session/) runs it
 * beside the pages, loaded only once a page needs it.
 */
export function useAuthSession(backend: AuthBackend, api: ApiClient): { session: Session; actor: AuthActor } {
  // The machine is made once per backend: its actors close over this backend and API.
  const machine = useMemo(() => authMachineWith(authServicesFor(backend, api)), [backend, api]);
  const actor = useActorRef(machine);

  const status = useSelector(actor, statusOf);
  const context = useSelector(actor, (snapshot) => snapshot.context);

  // Clerk's session can change by itself (signed out in another tab, expired): ask again.
  useEffect(() => backend.onExternalChange?.(() => actor.send({ type: 'REFRESH' })), [backend, actor]);

  const actions = useMemo(
    () => ({
      login: (email: string, password: string) => loginWith(actor, email, password),
      register: (details: Parameters<Session['register']>[0]) => registerWith(actor, details),
      confirmSignUp: (code: string) => confirmSignUpWith(actor, code),
      // Signing out forgets the edits this user left unsaved on this device (the next person here never sees them).
      logout: () => forgettingPendingEdits(actor, () => logoutWith(actor)),
      refresh: () => refreshWith(actor),
      setUser: (user: Principal) => actor.send({ type: 'USER', user }),
      endSession: () => forgettingPendingEdits(actor, () => endSessionWith(actor)),
      continueWithGoogle: backend.continueWithGoogle
        ? async () => {
            try {
              await backend.continueWithGoogle?.();
              return null;
            } catch (error) {
              return toApiError(error);
            }
          }
        : null,
    }),
    [actor, backend],
  );

  const session = useMemo<Session>(
    () => ({
      status,
      user: status === 'loading' ? null : context.user,
      mode: backend.mode,
      admin: context.admin,
      stripeRole: context.stripeRole,
      maps: context.maps,
      subscriptions: context.subscriptions,
      loaded: context.loaded,
      pendingSignUp: context.pendingSignUp,
      ...actions,
    }),
    [status, context, backend.mode, actions],
  );
  return { session, actor };
}

export function SessionProvider({ children, backend: givenBackend, api = defaultApi }: SessionProviderProps) {
  const backend = useMemo(() => givenBackend ?? createLocalBackend(api), [givenBackend, api]);
  const { session, actor } = useAuthSession(backend, api);
  return (
    <AuthActorContext value={actor}>
      <SessionContext value={session}>{children}</SessionContext>
    </AuthActorContext>
  );
}

/** Signs out, then forgets the user's pending edits kept on this device (not when signing out failed). */
async function forgettingPendingEdits<T>(actor: AuthActor, signOut: () => Promise<T>): Promise<T> {
  const uid = actor.getSnapshot().context.user?.uid ?? null;
  const answer = await signOut();
  if (uid && (answer === null || answer === undefined)) await forgetPendingEdits(uid);
  return answer;
}

/**
 * Keeps the session's maps fresh from the live topic `maps:{uid}` while someone is signed in
 * (the machine loaded them once when the session started). Render it inside the LiveProvider.
 */
export function SessionMapsSync() {
  const actor = use(AuthActorContext);
  const live = useLiveClient();
  useSessionMapsSync(actor, live);
  return null;
}

/** {@link SessionMapsSync} as a hook, for the app shell that holds the actor itself. */
export function useSessionMapsSync(actor: AuthActor | null, live: LiveClient): void {
  const uid = useSelector(actor ?? undefined, (snapshot) => (snapshot && statusOf(snapshot) === 'signedIn' ? (snapshot.context.user?.uid ?? null) : null));

  useEffect(() => {
    if (!actor || !uid) return;
    return live.subscribe(topics.maps(uid), (data) => {
      if (data.kind !== 'maps') return;
      const parsed = MapList.safeParse(data.maps);
      if (parsed.success) actor.send({ type: 'MAPS', maps: parsed.data });
    });
  }, [actor, live, uid]);
}
