/**
 * The session for the local accounts mode, in two steps. First a plain request says who is
 * signed in (first-requests.ts): enough for the header and the marketing pages, with neither zod
 * nor XState loaded. The full runtime (session-runtime.tsx: the auth machine, the live
 * connection) is a chunk loaded when a page behind {@link SessionGate} needs it, or when an
 * action (log in, log out, refresh...) is called; it runs beside the pages and takes over the
 * session and live contexts, so nothing below remounts when it arrives.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type ComponentType, type ReactNode } from 'react';
import type { Principal } from '../../../../events/principal';
import type { ApiClient } from '../../lib/api';
import { LiveContext } from '../../lib/live-context';
import type { LiveClient } from '../../lib/live-client';
import { SessionContext, type Session, type SessionStatus } from '../../lib/session';
import { fetchSignedInUser } from './first-requests';
import { SessionRuntimeContext, type SessionRuntimeControl } from './runtime-context';
import type { RuntimeReport, SessionRuntimeProps } from './session-runtime';

let runtimeImport: Promise<{ default: ComponentType<SessionRuntimeProps> }> | null = null;
/** The runtime's chunk, imported once per page (also used to preload it on hover). */
export const loadSessionRuntime = () => (runtimeImport ??= import('./session-runtime'));

export interface LocalSessionShellProps {
  children: ReactNode;
  api?: ApiClient | undefined;
  live?: LiveClient | undefined;
  /** Who is signed in, when the page already asked (main.tsx asks before React starts). */
  signedInUser?: Promise<Principal | null> | undefined;
}

interface LightState {
  status: SessionStatus;
  user: Principal | null;
}

export function LocalSessionShell({ children, api, live, signedInUser }: LocalSessionShellProps) {
  const [light, setLight] = useState<LightState>({ status: 'loading', user: null });
  const [Runtime, setRuntime] = useState<ComponentType<SessionRuntimeProps> | null>(null);
  const [report, setReport] = useState<RuntimeReport | null>(null);
  const [ready] = useState(() => {
    let resolve: () => void = () => {};
    const promise = new Promise<void>((done) => (resolve = done));
    return { promise, resolve };
  });
  const latest = useRef<Session | null>(null);
  const [firstAnswer, setFirstAnswer] = useState<Promise<Principal | null> | null>(null);

  useEffect(() => {
    let active = true;
    const answer = signedInUser ?? fetchSignedInUser();
    setFirstAnswer(answer);
    answer
      .then((user) => active && setLight({ status: user ? 'signedIn' : 'signedOut', user }))
      // Unreachable or not understood: signed out for now; the runtime asks again when needed.
      .catch(() => active && setLight({ status: 'signedOut', user: null }));
    return () => {
      active = false;
    };
  }, [signedInUser]);

  const whenReady = useCallback(() => {
    void loadSessionRuntime().then((module) => setRuntime(() => module.default));
    return ready.promise;
  }, [ready]);

  const onReport = useCallback((next: RuntimeReport) => {
    latest.current = next.session;
    setReport(next);
  }, []);

  // After the commit that put the runtime's session in context: gates waiting on it go on.
  useEffect(() => {
    if (report) ready.resolve();
  }, [report, ready]);

  const lightSession = useMemo<Session>(() => {
    // An action asked of the light session loads the runtime and is done by it.
    const later =
      <A extends unknown[], R>(pick: (session: Session) => (...args: A) => Promise<R>) =>
      async (...args: A): Promise<R> => {
        await whenReady();
        return pick(latest.current as Session)(...args);
      };
    return {
      status: light.status,
      user: light.user,
      mode: 'local',
      admin: light.user?.admin ?? false,
      stripeRole: light.user?.stripeRole ?? null,
      maps: [],
      subscriptions: [],
      loaded: false,
      pendingSignUp: null,
      login: later((session) => session.login),
      register: later((session) => session.register),
      confirmSignUp: later((session) => session.confirmSignUp),
      logout: later((session) => session.logout),
      refresh: later((session) => session.refresh),
      endSession: later((session) => session.endSession),
      setUser: (user) => {
        setLight({ status: 'signedIn', user });
        void whenReady().then(() => latest.current?.setUser(user));
      },
      continueWithGoogle: null,
    };
  }, [light, whenReady]);

  const isReady = report !== null;
  const control = useMemo<SessionRuntimeControl>(() => ({ ready: isReady, whenReady }), [isReady, whenReady]);

  return (
    <SessionRuntimeContext value={control}>
      <SessionContext value={report?.session ?? lightSession}>
        <LiveContext value={report?.live ?? null}>
          {children}
          {Runtime ? <Runtime api={api} firstAnswer={firstAnswer} live={live} onReport={onReport} /> : null}
        </LiveContext>
      </SessionContext>
    </SessionRuntimeContext>
  );
}
