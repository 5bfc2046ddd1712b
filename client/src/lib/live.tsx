/**
 * React's view of the live client: one client per tab, connected while someone is signed in
 * (the socket is authenticated by the session cookie when it opens, or in Clerk mode by the
 * auth message the client sends first, so a new user means a new socket), and hooks to follow
 * a topic or the connection state.
 */
import { use, useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import type { z } from 'zod';
import type { Position } from '../../../events/position';
import { createLiveClient, liveUrlFor, payloadOf, type ConnectionState, type LiveClient, type LiveTopicError } from './live-client';
import { LiveContext } from './live-context';
import { LiveOutdatedNotice } from './live-outdated';
import { useSession, type SessionStatus } from './session';

export { LiveContext };

let browserClient: LiveClient | null = null;

/** The tab's live client, created on first use (with the Clerk token source in Clerk mode). */
export function defaultLiveClient(getToken: (() => Promise<string | null>) | null): LiveClient {
  browserClient ??= createLiveClient({ url: liveUrlFor(window.location), ...(getToken ? { getToken } : {}) });
  return browserClient;
}

/** After a refused socket, wait this long (doubling, up to the max) before trying again while still signed in. */
const RETRY_AFTER_REFUSAL_MS = 1_000;
const RETRY_AFTER_REFUSAL_MAX_MS = 30_000;

export interface LiveProviderProps {
  children: ReactNode;
  client?: LiveClient;
  /** Clerk mode: bearer tokens for the socket's auth message (see LiveClientOptions.getToken). */
  getToken?: (() => Promise<string | null>) | null;
}

/**
 * Keeps `live` connected while someone is signed in (`uid`), and answers its state. Apart from
 * {@link LiveProvider} so that the app shell can run it beside the pages (app/session/).
 */
export function useLiveConnection(live: LiveClient, status: SessionStatus, uid: string | null, refresh: () => Promise<void>): ConnectionState {
  const refreshRef = useRef(refresh);
  refreshRef.current = refresh;

  useEffect(() => {
    if (status !== 'signedIn' || !uid) {
      live.disconnect();
      return;
    }
    let active = true;
    let refusals = 0;
    let retry: ReturnType<typeof setTimeout> | null = null;
    // A refused socket (4401) means the session ended elsewhere or its token expired: ask who
    // is signed in now. Signed out: the session goes signed-out and this effect disconnects.
    // Still signed in (a Clerk token was renewed): connect again, backing off if it keeps failing.
    const stop = live.onStateChange((state) => {
      if (state === 'open') refusals = 0;
      if (state !== 'closed') return;
      void refreshRef.current().then(() => {
        if (!active) return;
        const delay = Math.min(RETRY_AFTER_REFUSAL_MAX_MS, RETRY_AFTER_REFUSAL_MS * 2 ** refusals);
        refusals += 1;
        retry = setTimeout(() => {
          if (active) live.connect();
        }, delay);
      });
    });
    live.connect();
    return () => {
      active = false;
      if (retry) clearTimeout(retry);
      stop();
      live.disconnect();
    };
  }, [live, status, uid]);

  return useSyncExternalStore(
    (onChange) => live.onStateChange(onChange),
    () => live.state,
    () => live.state,
  );
}

export function LiveProvider({ children, client, getToken = null }: LiveProviderProps) {
  const [live] = useState(() => client ?? defaultLiveClient(getToken));
  const { status, user, refresh } = useSession();
  const state = useLiveConnection(live, status, user?.uid ?? null, refresh);
  return (
    <LiveContext value={live}>
      {children}
      <LiveOutdatedNotice state={state} />
    </LiveContext>
  );
}

export function useLiveClient(): LiveClient {
  const live = use(LiveContext);
  if (!live) throw new Error('useLiveClient must be used inside <LiveProvider>');
  return live;
}

/** The tab's live client, or null outside <LiveProvider> (a page rendered on its own). */
export function useOptionalLiveClient(): LiveClient | null {
  return use(LiveContext);
}

export function useConnectionState(): ConnectionState {
  const live = useLiveClient();
  return useSyncExternalStore(
    (onChange) => live.onStateChange(onChange),
    () => live.state,
    () => live.state,
  );
}

export interface LiveTopic<T> {
  /** The topic's current value; undefined until the first snapshot. */
  data: T | undefined;
  position: Position | null;
  error: LiveTopicError | null;
}

/** Follows a topic while mounted; `topic` null follows nothing. Its value (maps, billing, ...) is checked by `schema`. */
export function useLiveTopic<T>(topic: string | null, schema: z.ZodType<T>): LiveTopic<T> {
  const live = useLiveClient();
  const [value, setValue] = useState<LiveTopic<T>>({ data: undefined, position: null, error: null });

  useEffect(() => {
    setValue({ data: undefined, position: null, error: null });
    if (!topic) return;
    return live.subscribe(
      topic,
      (data, position) => {
        const parsed = schema.safeParse(payloadOf(data));
        if (parsed.success) setValue({ data: parsed.data, position, error: null });
        else setValue((previous) => ({ ...previous, error: { code: 'internal', message: 'The server sent data this page does not understand.' } }));
      },
      (error) => setValue((previous) => ({ ...previous, error })),
    );
  }, [live, topic, schema]);

  return value;
}
