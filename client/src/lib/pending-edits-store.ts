/**
 * The edits an editor made that the server has not acknowledged yet, kept in IndexedDB per
 * signed-in user and map, so work done offline survives a reload or a closed tab (issue 16,
 * item 5). The editor session (features/editor/editor-session.ts) writes its unacknowledged
 * edits here as they change; the next session of the same user on the same map replays them on
 * the server's copy.
 *
 * Why IndexedDB (through `idb`, a 1 KB promise wrapper, no dependencies): localStorage is
 * synchronous, shared by every tab as strings and limited to a few MB, too small for a large
 * import made offline; IndexedDB stores the edits as structured data, asynchronously.
 *
 * Keyed by user, map and tab: two people signing in on one browser never see each other's
 * edits, and signing out forgets the user's ({@link forgetPendingEdits}). Each open editor (a
 * tab) writes its own record, so two tabs of one map offline at once never overwrite each
 * other's. A record is taken over by the next editor of that map only once its tab is gone:
 * each tab holds a Web Lock named after its record while it is open (the browser releases it
 * when the tab closes or reloads), and {@link PendingEditsStore.close} lets it go when the editor
 * closes inside the app. Without Web Locks only this page's own open editors count as alive.
 *
 * What comes back is checked (zod): a record written by an older version of the app, or
 * tampered with, is dropped rather than sent.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { z } from 'zod';
import { MapEdit } from '../../../events/map-edits';

export interface PendingEditsStore {
  /**
   * Takes over the edits kept for this user and map by editors that are gone (a closed or
   * reloaded tab), oldest first, and keeps them as this editor's; none when nothing is kept or
   * storage is not there.
   */
  load(): Promise<MapEdit[]>;
  /** Keeps exactly these edits as this editor's (none: forgets them). Rejects when the browser refuses to store. */
  save(edits: readonly MapEdit[]): Promise<void>;
  /** The editor is closed: what it kept may be taken over by the next one. */
  close(): void;
}

const DATABASE = 'mapfold-offline';
const VERSION = 2;
const STORE = 'pending-edits';
const LOCK_PREFIX = 'mapfold-pending-edits:';

interface PendingRecord {
  uid: string;
  mapId: string;
  /** The editor (tab) that wrote it. */
  tab: string;
  edits: unknown;
  /**
   * When its oldest edit was kept (ms since the epoch): records taken over together are replayed
   * oldest first, the best order there is for edits made in different tabs.
   */
  since: number;
}

interface Schema extends DBSchema {
  [STORE]: { key: [string, string, string]; value: PendingRecord; indexes: { uid: string; map: [string, string] } };
}

const StoredEdits = z.array(MapEdit);

/** One connection per IndexedDB factory (the tests give each test a fresh one). */
let opened: { factory: IDBFactory; db: Promise<IDBPDatabase<Schema>> } | null = null;

function database(): Promise<IDBPDatabase<Schema>> {
  if (typeof indexedDB === 'undefined') return Promise.reject(new Error('IndexedDB is not available'));
  if (opened?.factory !== indexedDB) {
    const db = openDB<Schema>(DATABASE, VERSION, {
      upgrade(upgrading) {
        // Version 1 (one record per user and map) lived for an afternoon before release: start afresh.
        if (upgrading.objectStoreNames.contains(STORE)) upgrading.deleteObjectStore(STORE);
        const store = upgrading.createObjectStore(STORE, { keyPath: ['uid', 'mapId', 'tab'] });
        store.createIndex('uid', 'uid');
        store.createIndex('map', ['uid', 'mapId']);
      },
      // A newer version of the app opened in another tab wants to upgrade: let it, reopen on next use.
      blocking() {
        void db.then((connection) => connection.close());
        opened = null;
      },
      terminated() {
        opened = null;
      },
    });
    // A browser that refuses (storage disabled): try again next time rather than keep the failure.
    db.catch(() => {
      if (opened?.db === db) opened = null;
    });
    opened = { factory: indexedDB, db };
  }
  return opened.db;
}

/** The editors open in this page (its tabs' records), alive whatever Web Locks say. */
const openHere = new Set<string>();

function webLocks(): LockManager | null {
  return typeof navigator !== 'undefined' && navigator.locks ? navigator.locks : null;
}

/** The editors open now, in this page and (with Web Locks) in the browser's other tabs. */
async function openEditors(): Promise<Set<string>> {
  const open = new Set(openHere);
  const locks = webLocks();
  if (locks) {
    const { held = [] } = await locks.query().catch(() => ({ held: [] as LockInfo[] }));
    for (const lock of held) if (lock.name?.startsWith(LOCK_PREFIX)) open.add(lock.name.slice(LOCK_PREFIX.length));
  }
  return open;
}

function editsOf(record: PendingRecord): MapEdit[] {
  const edits = StoredEdits.safeParse(record.edits);
  return edits.success ? edits.data : [];
}

function newTabId(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

/** The store of one editor's pending edits: one user, one map, this tab. */
export function pendingEditsStore(uid: string, mapId: string): PendingEditsStore {
  const tab = newTabId();
  openHere.add(tab);
  // Held until the editor closes, or by the browser until the tab goes.
  let release: (() => void) | null = null;
  /** When this editor's oldest kept edit was kept; null while it keeps none. */
  let since: number | null = null;
  void webLocks()
    ?.request(`${LOCK_PREFIX}${tab}`, () => new Promise<void>((resolve) => (release = resolve)))
    .catch(() => undefined);
  return {
    async load() {
      try {
        const open = await openEditors();
        const db = await database();
        const transaction = db.transaction(STORE, 'readwrite');
        const records = await transaction.store.index('map').getAll([uid, mapId]);
        const orphans = records.filter((record) => !open.has(record.tab)).sort((a, b) => a.since - b.since);
        const edits = orphans.flatMap(editsOf);
        since = edits.length > 0 ? orphans[0]!.since : null;
        // Taken over in one transaction: another tab opening the map now cannot take them too.
        for (const orphan of orphans) await transaction.store.delete([uid, mapId, orphan.tab]);
        if (since !== null) await transaction.store.put({ uid, mapId, tab, edits, since });
        await transaction.done;
        return edits;
      } catch {
        // Nothing readable: the map opens with the server's copy alone.
        return [];
      }
    },
    async save(edits) {
      const db = await database();
      since = edits.length === 0 ? null : (since ?? Date.now());
      if (since === null) await db.delete(STORE, [uid, mapId, tab]);
      else await db.put(STORE, { uid, mapId, tab, edits: [...edits], since });
    },
    close() {
      openHere.delete(tab);
      release?.();
    },
  };
}

/** Forgets what is kept for this user: every map's (on signing out), or one map's (no longer theirs to change). */
export async function forgetPendingEdits(uid: string, mapId?: string): Promise<void> {
  try {
    const db = await database();
    const transaction = db.transaction(STORE, 'readwrite');
    const keys = mapId === undefined ? await transaction.store.index('uid').getAllKeys(uid) : await transaction.store.index('map').getAllKeys([uid, mapId]);
    await Promise.all([...keys.map((key) => transaction.store.delete(key)), transaction.done]);
  } catch {
    // No storage, nothing kept.
  }
}
