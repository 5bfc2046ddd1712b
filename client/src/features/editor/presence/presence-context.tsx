/**
 * Presence in the editor: one {@link PresenceSession} per open map, given to the parts of the
 * editor that show or report it (the top bar's avatars, the canvas's pointers and outlines, the
 * location form's notice) through a context. Without a live client (a page rendered on its own,
 * the demo map explored without an account) there is none, and every hook here does nothing.
 */
import { createContext, use, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import type { PresenceState } from '../../../../../events/presence';
import { useOptionalLiveClient } from '../../../lib/live';
import type { LiveClient } from '../../../lib/live-client';
import { PresenceSession, type PresenceSnapshot } from './presence-session';

const PresenceContext = createContext<PresenceSession | null>(null);

export interface PresenceProviderProps {
  mapId: string;
  /** False: nobody else may be in this map (the demo explored), so nothing is sent. */
  enabled: boolean;
  children: ReactNode;
  /** The live client (default: the tab's, from <LiveProvider>). */
  live?: LiveClient | null;
}

export function PresenceProvider({ mapId, enabled, children, live: given }: PresenceProviderProps) {
  const tabs = useOptionalLiveClient();
  const live = given ?? tabs;
  const [session, setSession] = useState<PresenceSession | null>(null);
  useEffect(() => {
    if (!live || !enabled) return;
    const next = new PresenceSession(live, mapId);
    next.start();
    setSession(next);
    return () => {
      next.stop();
      setSession(null);
    };
  }, [live, mapId, enabled]);
  return <PresenceContext value={session}>{children}</PresenceContext>;
}

export function usePresenceSession(): PresenceSession | null {
  return use(PresenceContext);
}

const NOBODY: PresenceSnapshot = { self: null, peers: [] };
const noSubscription = () => () => {};
const nobody = () => NOBODY;

/** Who is here and what they have open; re-renders on arrivals, departures, selections and forms only. */
export function usePresenceRoster(): PresenceSnapshot {
  const session = usePresenceSession();
  return useSyncExternalStore(session?.subscribe ?? noSubscription, session?.getRoster ?? nobody, session?.getRoster ?? nobody);
}

/** Everyone with their pointers; re-renders as they move (the canvas's overlay only). */
export function usePresencePeers(): PresenceSnapshot {
  const session = usePresenceSession();
  return useSyncExternalStore(session?.subscribe ?? noSubscription, session?.getSnapshot ?? nobody, session?.getSnapshot ?? nobody);
}

/** Tells the others which location this tab has selected and which one's form it has open. */
export function usePresenceReport(state: Pick<PresenceState, 'selection' | 'editing'>): void {
  const session = usePresenceSession();
  const { selection, editing } = state;
  useEffect(() => {
    session?.set({ selection, editing });
  }, [session, selection, editing]);
}
