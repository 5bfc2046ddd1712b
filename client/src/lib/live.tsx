/**
 * React's view of the live client: one client per tab, connected while someone is signed in
 * (the socket is authenticated by the session cookie when it opens, so a new user means a new
 * socket), and hooks to follow a topic or the connection state.
 */
import { createContext, use, useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import type { z } from 'zod';
import type { Position } from '../../../events/position';
import { createLiveClient, liveUrlFor, type ConnectionState, type LiveClient, type LiveTopicError } from './live-client';
import { useSession } from './session';

const LiveContext = createContext<LiveClient | null>(null);

let browserClient: LiveClient | null = null;

/** The tab's live client, created on first use. */
function defaultClient(): LiveClient {
  browserClient ??= createLiveClient({ url: liveUrlFor(window.location) });
  return browserClient;
}

export function LiveProvider({ children, client }: { children: ReactNode; client?: LiveClient }) {
  const [live] = useState(() => client ?? defaultClient());
  const { status, user, refresh } = useSession();
  const uid = user?.uid ?? null;
  const refreshRef = useRef(refresh);
  refreshRef.current = refresh;

  useEffect(() => {
    if (status !== 'signedIn' || !uid) {
      live.disconnect();
      return;
    }
    // A refused socket means the session ended elsewhere: ask who is signed in now.
    const stop = live.onStateChange((state) => {
      if (state === 'closed') void refreshRef.current();
    });
    live.connect();
    return () => {
      stop();
      live.disconnect();
    };
  }, [live, status, uid]);

  return <LiveContext value={live}>{children}</LiveContext>;
}

export function useLiveClient(): LiveClient {
  const live = use(LiveContext);
  if (!live) throw new Error('useLiveClient must be used inside <LiveProvider>');
  return live;
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

/** Follows a topic while mounted; `topic` null follows nothing. Snapshots are checked by `schema`. */
export function useLiveTopic<T>(topic: string | null, schema: z.ZodType<T>): LiveTopic<T> {
  const live = useLiveClient();
  const [value, setValue] = useState<LiveTopic<T>>({ data: undefined, position: null, error: null });

  useEffect(() => {
    setValue({ data: undefined, position: null, error: null });
    if (!topic) return;
    return live.subscribe(
      topic,
      (data, position) => {
        const parsed = schema.safeParse(data);
        if (parsed.success) setValue({ data: parsed.data, position, error: null });
        else setValue((previous) => ({ ...previous, error: { code: 'internal', message: 'The server sent data this page does not understand.' } }));
      },
      (error) => setValue((previous) => ({ ...previous, error })),
    );
  }, [live, topic, schema]);

  return value;
}
