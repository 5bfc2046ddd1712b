/**
 * The session's full runtime for the local accounts mode, a chunk of its own: the auth machine
 * (XState, zod-checked answers) and the tab's live connection. The app shell
 * (local-session-shell.tsx) loads it when a page first needs it and renders it beside the pages;
 * it reports the session and the live client up, so the pages stay mounted when it arrives.
 */
import { useLayoutEffect, useRef, useState } from 'react';
import type { Principal } from '../../../../events/principal';
import { createLocalBackend, type AuthBackend } from '../../features/auth/auth-backend';
import { useAuthSession, useSessionMapsSync } from '../../features/auth/session-provider';
import { api as defaultApi, type ApiClient } from '../../lib/api';
import { defaultLiveClient, useLiveConnection } from '../../lib/live';
import type { LiveClient } from '../../lib/live-client';
import { LiveOutdatedNotice } from '../../lib/live-outdated';
import type { Session } from '../../lib/session';

export interface RuntimeReport {
  session: Session;
  live: LiveClient;
}

export interface SessionRuntimeProps {
  api?: ApiClient | undefined;
  /** The shell's own answer to who is signed in: the machine's first check reuses it (one request, not two). */
  firstAnswer: Promise<Principal | null> | null;
  live?: LiveClient | undefined;
  /**
   * Called with the session once the machine has its first answer (until then the shell keeps
   * showing what its own request said, so the header does not flicker), then on every change.
   */
  onReport(report: RuntimeReport): void;
}

/** The local backend, its first `currentUser` answered by `firstAnswer` (asked again if that failed). */
function backendWith(api: ApiClient, firstAnswer: Promise<Principal | null> | null): AuthBackend {
  const backend = createLocalBackend(api);
  let first = firstAnswer;
  return {
    ...backend,
    currentUser: () => {
      const answer = first;
      first = null;
      return answer ? answer.catch(() => backend.currentUser()) : backend.currentUser();
    },
  };
}

export default function SessionRuntime({ api = defaultApi, firstAnswer, live: givenLive, onReport }: SessionRuntimeProps) {
  const [backend] = useState(() => backendWith(api, firstAnswer));
  const [live] = useState(() => givenLive ?? defaultLiveClient(null));
  const { session, actor } = useAuthSession(backend, api);
  const state = useLiveConnection(live, session.status, session.user?.uid ?? null, session.refresh);
  useSessionMapsSync(actor, live);

  const settled = useRef(false);
  useLayoutEffect(() => {
    if (session.status !== 'loading') settled.current = true;
    if (settled.current) onReport({ session, live });
  }, [session, live, onReport]);

  return <LiveOutdatedNotice state={state} />;
}
