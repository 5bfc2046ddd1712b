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
 * Keyed by [uid, mapId]: two people signing in on one browser never see each other's edits,
 * and signing out forgets the user's ({@link forgetPendingEdits}). One record per user and map:
 * two tabs of the same map offline at once each send their own edits while open, but only the
 * last one to change keeps its edits across a reload.
 *
 * What comes back is checked (zod): a record written by an older version of the app, or
 * tampered with, is dropped rather than sent.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { z } from 'zod';
import { MapEdit } from '../../../events/map-edits';

export interface PendingEditsStore {
  /** The edits kept for this user and map, oldest first; none when nothing is kept or storage is not there. */
  load(): Promise<MapEdit[]>;
  /** Keeps exactly these edits (none: forgets the map's). Rejects when the browser refuses to store. */
  save(edits: readonly MapEdit[]): Promise<void>;
}

const DATABASE = 'mapfold-offline';
const VERSION = 1;
const STORE = 'pending-edits';

interface PendingRecord {
  uid: string;
  mapId: string;
  edits: unknown;
  /** When last written (ms since the epoch), to tell how old a kept record is. */
  savedAt: number;
}

interface Schema extends DBSchema {
  [STORE]: { key: [string, string]; value: PendingRecord; indexes: { uid: string } };
}

const StoredEdits = z.array(MapEdit);

/** One connection per IndexedDB factory (the tests give each test a fresh one). */
let opened: { factory: IDBFactory; db: Promise<IDBPDatabase<Schema>> } | null = null;

function database(): Promise<IDBPDatabase<Schema>> {
  if (typeof indexedDB === 'undefined') return Promise.reject(new Error('IndexedDB is not available'));
  if (opened?.factory !== indexedDB) {
    const db = openDB<Schema>(DATABASE, VERSION, {
      upgrade(upgrading) {
        upgrading.createObjectStore(STORE, { keyPath: ['uid', 'mapId'] }).createIndex('uid', 'uid');
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

/** The store of one user's pending edits on one map. */
export function pendingEditsStore(uid: string, mapId: string): PendingEditsStore {
  return {
    async load() {
      try {
        const record = await (await database()).get(STORE, [uid, mapId]);
        if (!record) return [];
        const edits = StoredEdits.safeParse(record.edits);
        return edits.success ? edits.data : [];
      } catch {
        // Nothing readable: the map opens with the server's copy alone.
        return [];
      }
    },
    async save(edits) {
      const db = await database();
      if (edits.length === 0) await db.delete(STORE, [uid, mapId]);
      else await db.put(STORE, { uid, mapId, edits: [...edits], savedAt: Date.now() });
    },
  };
}

/** Forgets every map's pending edits of this user (on signing out). */
export async function forgetPendingEdits(uid: string): Promise<void> {
  try {
    const db = await database();
    const transaction = db.transaction(STORE, 'readwrite');
    const keys = await transaction.store.index('uid').getAllKeys(uid);
    await Promise.all([...keys.map((key) => transaction.store.delete(key)), transaction.done]);
  } catch {
    // No storage, nothing kept.
  }
}
