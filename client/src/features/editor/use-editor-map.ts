/**
 * Opens a map in the editor: the copy of its owner, a member (editor or viewer) or an admin
 * through the map data query, or, for anyone else, the public copy to explore (the demo behind
 * /demo): edits then stay in the tab. The session then follows the `map:{id}` topic (a snapshot,
 * then the map's events folded in by the live client), so every collaborator's edit appears
 * without reloading, and saves through `editMap`.
 *
 * The person's role (the members route's `yourRole`) picks what the editor offers: a viewer's
 * is read-only. A role change pushed over the socket switches it at once; a socket refusal of
 * the map's topic (the member was removed) turns it read-only with a notice.
 */
import { useEffect, useState } from 'react';
import { z } from 'zod';
import { MapDocument } from '../../../../events/map-document';
import { isDocumentEdit } from '../../../../events/map-edits';
import { MapDataRecord, type HistoryEntry } from '../../../../events/read-models';
import { MapMembers } from '../../../../events/sharing-api';
import type { MapRole } from '../../../../events/map-access';
import { topics } from '../../../../events/topics';
import { api, toApiError, type ApiError } from '../../lib/api';
import { useLiveClient } from '../../lib/live';
import type { FieldRef } from './overwrites';
import { EditorSession, type ServerCopy } from './editor-session';
import { forgetPendingEdits, pendingEditsStore, type PendingEditsStore } from '../../lib/pending-edits-store';

/** What `GET /api/public/maps/:id` answers (server/routes/public-map-routes.ts). */
const PublicMap = z.object({ id: z.string(), title: z.string(), state: z.number(), data: z.unknown(), revision: z.string(), test: z.boolean() });

/**
 * What the editor offers: everything (`owner`, admins too); content but not publishing, billing
 * or deleting (`editor`); looking only (`viewer`, and `removed` once a member lost access while
 * the map was open); edits kept in the tab (`explore`, someone else's public map).
 */
/** The map's title as a field of the overwrite notices (client/src/features/editor/overwrites.ts). */
const TITLE_FIELD: FieldRef = { kind: 'map', id: '', field: 'title' };

export type EditorAccess = MapRole | 'removed' | 'explore';

/** Whether nothing this person does in the editor may change the map. */
export function isReadOnly(access: EditorAccess): boolean {
  return access === 'viewer' || access === 'removed';
}

/**
 * The map's history entries (oldest first) as the server last sent them: with the map data,
 * then with every `map:{id}` snapshot. A tiny external store (`useSyncExternalStore`).
 */
export interface HistoryFeed {
  get(): readonly HistoryEntry[];
  subscribe(listener: () => void): () => void;
}

function historyFeed(initial: readonly HistoryEntry[]): HistoryFeed & { set(entries: readonly HistoryEntry[]): void } {
  let entries = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => entries,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    set(next) {
      if (sameEntries(entries, next)) return;
      entries = next;
      for (const listener of [...listeners]) listener();
    },
  };
}

function sameEntries(a: readonly HistoryEntry[], b: readonly HistoryEntry[]): boolean {
  return a.length === b.length && a.every((entry, index) => JSON.stringify(entry) === JSON.stringify(b[index]));
}

const feeds = new WeakMap<EditorSession, ReturnType<typeof historyFeed>>();

/** The history of the map an owner's session edits; null for a map opened to explore. */
export function historyFeedOf(session: EditorSession): HistoryFeed | null {
  return feeds.get(session) ?? null;
}

export interface OpenedMap {
  access: EditorAccess;
  title: string;
  /** Map state (events/map-states.ts); null when not known. */
  state: number | null;
  session: EditorSession;
  /** The map's history entries; null when exploring someone else's map (not theirs to see). */
  history: HistoryFeed | null;
  /** The owner's display name, for a member ("Ask Ada to make you an editor"); null when not known. */
  ownerName: string | null;
}

export type EditorLoad = { status: 'loading' } | { status: 'failed'; error: ApiError } | ({ status: 'ready' } & OpenedMap);

function copyOf(record: { data: unknown; revision: string }): ServerCopy {
  return { document: MapDocument.parse(record.data), revision: BigInt(record.revision) };
}

/** Who may open the map, and the caller's own role (events/sharing-api.ts). */
function getMapMembers(id: string, signal: AbortSignal) {
  return api.get(`/api/maps/${encodeURIComponent(id)}/members`, MapMembers, { signal });
}

export function getPublicMap(id: string, signal?: AbortSignal) {
  return api.get(`/api/public/maps/${encodeURIComponent(id)}`, PublicMap, signal ? { signal } : {});
}

/**
 * `signedIn` null: the session is not known yet, and nothing is loaded until it is. `uid`: whose
 * edits not yet saved are kept on this device (lib/pending-edits-store.ts) and restored here.
 */
export function useEditorMap(mapId: string, signedIn: boolean | null, uid: string | null = null): { load: EditorLoad; setTitle: (title: string) => void } {
  const [load, setLoad] = useState<EditorLoad>({ status: 'loading' });
  const live = useLiveClient();

  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    let session: EditorSession | null = null;
    let store: PendingEditsStore | undefined;
    setLoad({ status: 'loading' });
    if (signedIn === null) return;

    const openOwned = async (): Promise<OpenedMap | null> => {
      if (!signedIn) return null;
      try {
        const kept = uid ? pendingEditsStore(uid, mapId) : undefined;
        store = kept;
        const [{ result }, published, restored, members] = await Promise.all([
          api.get(`/api/maps/${encodeURIComponent(mapId)}/data`, MapDataRecord, { signal }),
          getPublicMap(mapId, signal).catch(() => null),
          kept?.load() ?? [],
          // Who the person is on this map; without an answer, the server's checks still hold.
          getMapMembers(mapId, signal).catch(() => null),
        ]);
        const role: MapRole = members?.result.yourRole ?? 'owner';
        session = new EditorSession({
          initial: copyOf(result),
          ...(kept ? { store: kept, restored } : {}),
          // Only editors' edits reach here (a restore is the server's own); the guard says so to the types.
          save: (edits) => api.callFunction('editMap', { id: mapId, edits: edits.filter(isDocumentEdit) }).then((answer) => answer.result),
          reload: () => api.get(`/api/maps/${encodeURIComponent(mapId)}/data`, MapDataRecord).then((answer) => copyOf(answer.result)),
          online: () => navigator.onLine,
          me: uid,
        });
        const history = historyFeed(result.history);
        feeds.set(session, history);
        if (role === 'viewer') session.setReadOnly(true);
        return { access: role, title: result.title, state: published?.result.state ?? null, session, history, ownerName: members?.result.owner.displayName ?? null };
      } catch (error) {
        const failure = toApiError(error);
        // No longer one's to change (removed, or the map is gone): edits kept for it can never be sent.
        if (uid && (failure.code === 'permission-denied' || failure.code === 'not-found')) void forgetPendingEdits(uid, mapId);
        // Someone else's map: explore its public copy, if it has one.
        if (failure.code === 'permission-denied' || failure.code === 'unauthenticated') return null;
        throw failure;
      }
    };

    const openPublic = async (): Promise<OpenedMap> => {
      const { result } = await getPublicMap(mapId, signal);
      session = new EditorSession({ initial: copyOf(result), save: null });
      return { access: 'explore', title: result.title, state: result.state, session, history: null, ownerName: null };
    };

    (async () => {
      try {
        const opened = (await openOwned()) ?? (await openPublic());
        if (!signal.aborted) setLoad({ status: 'ready', ...opened });
      } catch (error) {
        if (!signal.aborted) setLoad({ status: 'failed', error: toApiError(error) });
      }
    })();

    return () => {
      controller.abort();
      session?.dispose();
      // Opened no editor (failed, or left while loading): what it took over goes to the next one.
      store?.close();
    };
  }, [mapId, signedIn, uid]);

  // Everyone with a role follows the map live: its events (a collaborator's edit, a rename) are
  // folded into the map by the live client, and the session rebases this tab's pending edits on
  // the result; a refusal of the topic means the person was removed.
  const session = load.status === 'ready' && load.access !== 'explore' ? load.session : null;
  // The socket is back (it was down with the network): send what waits now, as on `online`.
  useEffect(() => {
    if (!session) return;
    return live.onStateChange((state) => {
      if (state === 'open') session.retryNow();
    });
  }, [live, session]);
  useEffect(() => {
    if (!session) return;
    const setAccess = (access: EditorAccess) => {
      session.setReadOnly(isReadOnly(access));
      setLoad((current) => (current.status === 'ready' && current.access !== access && current.access !== 'explore' ? { ...current, access } : current));
    };
    const topic = topics.map(mapId);
    // A role change arrives at once (`access`; null: an admin without a role, who may do all).
    const stopAccess = live.onServerMessage((message) => {
      if (message.type === 'access' && message.topic === topic) setAccess(message.role ?? 'owner');
    });
    const stopTopic = live.subscribe(topic, (data) => {
      if (data.kind !== 'map') return;
      const { map } = data;
      session.receive({ document: map.document, revision: map.revision }, data.events);
      // The map's title is saved on its own (saveMap): a collaborator's rename right after this
      // tab's is told too. Only the last rename of the batch counts: a later one of ours wins.
      const renamed = data.events.findLast((entry) => entry.event?.type === 'MapSaved' && entry.event.data.title !== undefined);
      if (renamed?.by && renamed.by.uid !== uid) session.heardField(TITLE_FIELD, renamed.by.name, `${renamed.by.name} changed the map's title to “${map.title}”`);
      feeds.get(session)?.set(map.history);
      setLoad((current) => (current.status === 'ready' && current.title !== map.title ? { ...current, title: map.title } : current));
    }, (error) => {
      if (error.code === 'permission-denied') setAccess('removed');
    });
    return () => {
      stopAccess();
      stopTopic();
    };
  }, [live, session, mapId, uid]);

  // This tab renamed the map (saved): a collaborator's rename in the next few seconds is told.
  const setTitle = (title: string) => {
    if (load.status === 'ready') load.session.touchField(TITLE_FIELD);
    setLoad((current) => (current.status === 'ready' ? { ...current, title } : current));
  };
  return { load, setTitle };
}
