/**
 * One open editor's copy of a map: the server's document (the last snapshot pushed over the
 * websocket) with this tab's unsaved edits on top, undo and redo of this tab's own edits, and
 * the saving that sends the edits to the server in order.
 *
 * Why rebase instead of merging answers: the server pushes whole snapshots of the map data with
 * their stream revision. The document shown is always "latest snapshot + pending edits", the
 * pending edits replayed with the same `applyEdit` the projection uses and skipped when they no
 * longer fit (a collaborator removed the location). An edit stays pending until a snapshot of
 * the revision its save answered with (or a later one) arrives, so nothing flickers back. Edits
 * are idempotent enough for the overlap (re-adding an existing location is skipped; setting a
 * field twice sets it once), the last write wins per field, as the architecture says.
 *
 * Edits not yet acknowledged are kept on the device through an injected store (IndexedDB,
 * lib/pending-edits-store.ts) as they change, and a later session of the same user on the same map
 * starts with them (`restored`): replayed in order on the server's copy, the ones that no longer
 * apply skipped, and sent. They are not on this tab's undo stack: undo is this tab's own edits.
 *
 * An import is recorded by the server itself (POST /api/maps/{id}/import), not sent from here: its
 * events arrive over the live hub like a collaborator's. The page says when this tab started one
 * and which revision it answered (`serverStepStarted`, `serverStepDone`); the session takes this
 * user's import events in that range, as they arrive, and makes them one undo step, their inverse
 * computed against the document each one was applied to.
 *
 * No React here: the page reads it through `subscribe`/`getSnapshot` (useSyncExternalStore),
 * and the tests drive it with fake timers.
 */
import type { MapDocument } from '../../../../events/map-document';
import type { MapEdit } from '../../../../events/map-edits';
import { applyEdits, invertEdit } from '../../../../events/map-edit-inverse';
import { editOf, isEditEvent } from '../../../../events/map';
import type { ApiError } from '../../lib/api';
import type { LiveMapEvent } from '../../../../events/live-messages';
import { OverwriteWatch, RECENT_MS, type FieldRef, type OverwriteNotice } from './overwrites';
import type { EditOptions } from './panels/panel-props';
import type { PendingEditsStore } from '../../lib/pending-edits-store';

/** What the status line says: everything saved, saving, waiting for the network, or only local. */
export type SaveStatus = 'saved' | 'saving' | 'offline' | 'local';

export interface EditorSnapshot {
  document: MapDocument;
  status: SaveStatus;
  canUndo: boolean;
  canRedo: boolean;
  /** The last save the server refused (its edits are taken back), until dismissed. */
  error: string | null;
  /** How many edits wait to be saved. */
  unsaved: number;
  /** Collaborators' writes that overwrote what this tab had just changed ("Ben changed the title to …"). */
  notices: readonly OverwriteNotice[];
}

export interface ServerCopy {
  document: MapDocument;
  /** The map stream's revision the document reflects. */
  revision: bigint;
}

export interface EditorSessionOptions {
  initial: ServerCopy;
  /**
   * Saves edits (editMap), answering the stream revision after them. Null: exploring a map one
   * may not change (the demo); edits stay in the tab.
   */
  save: ((edits: MapEdit[]) => Promise<{ revision: string }>) | null;
  /** Reads the server's copy again (when a push seems lost). */
  reload?: () => Promise<ServerCopy>;
  /** This tab's user: events by anyone else that overwrite this tab's recent changes are told. */
  me?: string | null;
  /** Keeps the edits not yet acknowledged across reloads; without it they live as long as the tab. */
  store?: PendingEditsStore;
  /** Edits an earlier session kept in the store, oldest first: replayed on `initial` and sent. */
  restored?: readonly MapEdit[];
  /** Is the network there at all (navigator.onLine)? */
  online?: () => boolean;
  now?: () => number;
}

interface Batch {
  edits: MapEdit[];
  /** Sent and answered: waits for a snapshot of this revision. */
  revision: bigint | null;
  sending: boolean;
}

interface UndoStep {
  /** The edits that take this step back, in the order to apply them. */
  edits: MapEdit[];
  coalesce: string | undefined;
  at: number;
}

/** The server takes at most this many edits in one call (events/functions.ts). */
const MAX_EDITS_PER_SAVE = 500;
/** Typing in one field within this long is one undo step. */
const COALESCE_MS = 1_200;
/** Edits wait this long for more before they are sent (typing sends every so often, not per key). */
const SEND_DELAY_MS = 120;
const COALESCED_SEND_DELAY_MS = 400;
/** After this long without the snapshot a save answered for, read the server's copy again. */
const SNAPSHOT_WAIT_MS = 4_000;
const RETRY_MIN_MS = 1_000;
const RETRY_MAX_MS = 15_000;
const UNDO_LIMIT = 200;
/**
 * The edits the server records for an import (events/import-planner.ts: the file's chunks, or a
 * whole Mapfold document, drawings or calibrations put on existing floors, and the new map's
 * empty starter floor removed when the file brings its own): what `serverStepDone` adopts.
 */
const SERVER_STEP_TYPES: ReadonlySet<MapEdit['type']> = new Set(['ImportApplied', 'DocumentImported', 'LayerFileReplaced', 'LayerCalibrated', 'LayerRemoved']);
/** Import events of this user's heard but not (yet) adopted, kept for a while. */
const SERVER_STEPS_KEPT = 50;

/** Answers that mean "try again later": the network or the server is away, or asked us to slow down (429). */
function isTransient(error: ApiError): boolean {
  return error.status === 0 || error.code === 'unavailable' || error.code === 'deadline-exceeded' || error.code === 'aborted' || error.code === 'resource-exhausted';
}

export class EditorSession {
  private server: ServerCopy;
  private queue: Batch[] = [];
  private undoSteps: UndoStep[] = [];
  private redoSteps: UndoStep[] = [];
  private offline = false;
  private error: string | null = null;
  private snapshot: EditorSnapshot;
  private readonly listeners = new Set<() => void>();
  private sendTimer: ReturnType<typeof setTimeout> | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private reloadTimer: ReturnType<typeof setTimeout> | null = null;
  private retryDelay = RETRY_MIN_MS;
  private disposed = false;
  /** A viewer's (or a removed member's) editor: nothing this tab does changes the map. */
  private readOnly = false;
  private readonly overwrites = new OverwriteWatch();
  /** Fields outside the document (the title) -> when this tab last changed them. */
  private readonly fieldsTouchedAt = new Map<string, number>();
  private readonly now: () => number;
  /** The unacknowledged edits the store should hold, and whether it holds them (written, no write failed). */
  private toKeep: readonly MapEdit[] = [];
  private kept = true;
  private keeping = false;
  /** This user's import events heard lately, each with what takes it back, oldest first. */
  private serverSteps: Array<{ revision: bigint; inverse: MapEdit[] }> = [];
  /** The revision this tab's import started from (`serverStepStarted`). */
  private serverStepFrom: bigint | null = null;
  /** An import this tab recorded whose events may still be on their way, and its undo step once it has one. */
  private adopting: { from: bigint; to: bigint; step: UndoStep | null } | null = null;

  constructor(private readonly options: EditorSessionOptions) {
    this.server = options.initial;
    this.now = options.now ?? (() => Date.now());
    this.snapshot = this.build(this.server.document);
    // Kept by an earlier visit: what still applies to the server's copy now, in order.
    const restored = options.restored?.length ? applyEdits(this.server.document, options.restored).applied : [];
    this.toKeep = options.restored ?? [];
    if (restored.length > 0) this.enqueue(restored, 0);
    else this.persist();
  }

  // ---- reading ------------------------------------------------------------------------------

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): EditorSnapshot => this.snapshot;

  get document(): MapDocument {
    return this.snapshot.document;
  }

  /**
   * Every edit not yet on the server is kept on this device (or there are none): leaving the
   * page loses nothing, the next visit sends them.
   */
  get keptOnDevice(): boolean {
    return this.options.store !== undefined && this.kept && !this.keeping;
  }

  /** The server's revision this tab has seen. */
  get revision(): bigint {
    return this.server.revision;
  }

  // ---- editing ------------------------------------------------------------------------------

  /** Applies edits at once and saves them; one call (or a run of coalesced calls) is one undo step. */
  readonly apply = (edits: MapEdit[], options: EditOptions = {}): void => {
    if (this.readOnly) return;
    const result = applyEdits(this.snapshot.document, edits);
    if (result.applied.length === 0) return;
    const top = this.undoSteps.at(-1);
    const now = this.now();
    if (options.coalesce && top && top.coalesce === options.coalesce && now - top.at < COALESCE_MS) {
      // The newer step's inverse goes first: it undoes the later change before the earlier one.
      top.edits = [...result.inverse, ...top.edits];
      top.at = now;
    } else {
      this.undoSteps.push({ edits: result.inverse, coalesce: options.coalesce, at: now });
      if (this.undoSteps.length > UNDO_LIMIT) this.undoSteps.shift();
    }
    this.redoSteps = [];
    this.overwrites.touched(result.applied, now);
    this.enqueue(result.applied, options.coalesce ? COALESCED_SEND_DELAY_MS : SEND_DELAY_MS);
  };

  readonly undo = (): void => this.step(this.undoSteps, this.redoSteps);

  /** This tab is about to ask the server to record an import: its events will come after this revision. */
  readonly serverStepStarted = (): void => {
    this.serverStepFrom = this.server.revision;
  };

  /**
   * The server recorded this tab's import, up to `revision`: undo takes it back, as one step,
   * once its events are here (they may be already).
   */
  readonly serverStepDone = (revision: bigint): void => {
    if (this.readOnly) return;
    const from = this.serverStepFrom ?? this.server.revision;
    this.serverStepFrom = null;
    this.adopting = { from, to: revision, step: null };
    this.adoptServerSteps();
  };

  readonly redo = (): void => this.step(this.redoSteps, this.undoSteps);

  /** Replays a step's edits (what still applies), and records what takes them back on the other stack. */
  private step(from: UndoStep[], to: UndoStep[]): void {
    if (this.readOnly) return;
    while (from.length > 0) {
      const step = from.pop()!;
      const result = applyEdits(this.snapshot.document, step.edits);
      // Nothing of it applies any more (a collaborator removed what it touched): the next one.
      if (result.applied.length === 0) continue;
      to.push({ edits: result.inverse, coalesce: undefined, at: 0 });
      this.overwrites.touched(result.applied, this.now());
      this.enqueue(result.applied, SEND_DELAY_MS);
      return;
    }
    this.publish();
  }

  /**
   * Read-only (the person's role became viewer, or they were removed): edits, undo and redo do
   * nothing until it is lifted; the server's snapshots keep coming.
   */
  readonly setReadOnly = (on: boolean): void => {
    if (this.readOnly === on) return;
    this.readOnly = on;
    this.publish();
  };

  readonly dismissError = (): void => {
    this.error = null;
    this.publish();
  };

  readonly dismissNotice = (id: number): void => {
    if (this.overwrites.dismiss(id)) this.publish();
  };

  /** This tab changed something outside the document (the map's title, saved on its own). */
  readonly touchField = (field: FieldRef): void => {
    this.fieldsTouchedAt.set(`${field.kind}:${field.id}:${field.field}`, this.now());
  };

  /** A collaborator changed such a field; told if this tab changed it within the last few seconds. */
  readonly heardField = (field: FieldRef, by: string, text: string): void => {
    const at = this.fieldsTouchedAt.get(`${field.kind}:${field.id}:${field.field}`);
    if (at === undefined || this.now() - at >= RECENT_MS) return;
    this.overwrites.add(by, text, field);
    this.publish();
  };

  // ---- the server's side --------------------------------------------------------------------

  /**
   * The server's copy moved (a snapshot, or the map's events folded in by the live client, given
   * as `events` to tell who overwrote what). Older copies than what we have are ignored.
   */
  readonly receive = (copy: ServerCopy, events: readonly LiveMapEvent[] = []): void => {
    if (copy.revision < this.server.revision) return;
    const before = this.snapshot.document;
    this.hearServerSteps(events);
    this.server = copy;
    this.queue = this.queue.filter((batch) => batch.revision === null || batch.revision > copy.revision);
    if (!this.queue.some((batch) => batch.revision !== null) && this.reloadTimer) {
      clearTimeout(this.reloadTimer);
      this.reloadTimer = null;
    }
    this.overwrites.heard(events, this.options.me ?? null, copy.document, this.now());
    this.adoptServerSteps(false);
    this.publishNoticing(before);
  };

  /**
   * Notes this user's import events among `events` (newer than the server's copy so far), each
   * with its inverse against the document as it was just before it: the events are folded onto
   * the current copy in order to know it.
   */
  private hearServerSteps(events: readonly LiveMapEvent[]): void {
    const me = this.options.me;
    const after = this.server.revision;
    const ours = (entry: LiveMapEvent) => entry.by?.uid === me && entry.event !== null && SERVER_STEP_TYPES.has(entry.event.type as MapEdit['type']) && BigInt(entry.revision) > after;
    if (!me || !events.some(ours)) return;
    let document = this.server.document;
    for (const entry of events) {
      if (!entry.event || !isEditEvent(entry.event) || BigInt(entry.revision) <= after) continue;
      const edit = editOf(entry.event);
      if (ours(entry)) this.serverSteps.push({ revision: BigInt(entry.revision), inverse: invertEdit(document, edit) });
      document = applyEdits(document, [edit]).document;
    }
    if (this.serverSteps.length > SERVER_STEPS_KEPT) this.serverSteps.splice(0, this.serverSteps.length - SERVER_STEPS_KEPT);
  }

  /** Makes the import this tab recorded (the events of it heard so far) its undo step. */
  private adoptServerSteps(publish = true): void {
    const adopting = this.adopting;
    if (!adopting) return;
    const taken = this.serverSteps.filter((step) => step.revision > adopting.from && step.revision <= adopting.to);
    if (taken.length > 0) {
      this.serverSteps = this.serverSteps.filter((step) => !taken.includes(step));
      // The latest event is taken back first.
      const inverse = taken.reverse().flatMap((step) => step.inverse);
      if (adopting.step) adopting.step.edits = [...inverse, ...adopting.step.edits];
      else {
        adopting.step = { edits: inverse, coalesce: undefined, at: this.now() };
        this.undoSteps.push(adopting.step);
        if (this.undoSteps.length > UNDO_LIMIT) this.undoSteps.shift();
        this.redoSteps = [];
      }
    }
    if (this.server.revision >= adopting.to) this.adopting = null;
    if (publish && taken.length > 0) this.publish();
  }

  /** The network is back (or the socket reconnected): try what waits now. */
  readonly retryNow = (): void => {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.retryDelay = RETRY_MIN_MS;
    this.flush();
  };

  /** Sends what waits at once (before the page is left, or in tests). */
  readonly flushNow = (): void => {
    if (this.sendTimer) clearTimeout(this.sendTimer);
    this.sendTimer = null;
    this.flush();
  };

  dispose(): void {
    this.disposed = true;
    // What is kept stays kept: the next editor of this map takes it over.
    this.options.store?.close();
    for (const timer of [this.sendTimer, this.retryTimer, this.reloadTimer]) if (timer) clearTimeout(timer);
    this.listeners.clear();
  }

  private enqueue(edits: MapEdit[], delay: number): void {
    const last = this.queue.at(-1);
    if (last && !last.sending && last.revision === null) last.edits.push(...edits);
    else this.queue.push({ edits: [...edits], revision: null, sending: false });
    this.publish();
    if (!this.options.save) return;
    if (this.sendTimer) clearTimeout(this.sendTimer);
    this.sendTimer = setTimeout(() => {
      this.sendTimer = null;
      this.flush();
    }, delay);
  }

  /** Sends the first batch not yet sent, one call at a time, so the server sees our order. */
  private flush(): void {
    const save = this.options.save;
    if (!save || this.disposed || this.retryTimer) return;
    if (this.queue.some((batch) => batch.sending)) return;
    const next = this.queue.find((batch) => batch.revision === null);
    if (!next) return;
    // A large import goes in several calls; the rest stays queued behind this one.
    if (next.edits.length > MAX_EDITS_PER_SAVE) {
      const rest = next.edits.splice(MAX_EDITS_PER_SAVE);
      this.queue.splice(this.queue.indexOf(next) + 1, 0, { edits: rest, revision: null, sending: false });
    }
    next.sending = true;
    save(next.edits).then(
      ({ revision }) => {
        next.sending = false;
        this.offline = false;
        this.retryDelay = RETRY_MIN_MS;
        const at = BigInt(revision);
        const before = this.snapshot.document;
        if (at <= this.server.revision) this.queue = this.queue.filter((batch) => batch !== next);
        else {
          next.revision = at;
          this.awaitSnapshot();
        }
        // Settled after a collaborator's later write to the same field: theirs shows now.
        this.publishNoticing(before);
        this.flush();
      },
      (error: ApiError) => {
        next.sending = false;
        if (this.disposed) return;
        if (isTransient(error)) {
          // Kept, and tried again later: nothing typed offline is lost.
          this.offline = error.status === 0 || this.options.online?.() === false;
          this.scheduleRetry();
        } else {
          // Refused (not valid any more, no longer allowed): these edits are taken back.
          this.queue = this.queue.filter((batch) => batch !== next);
          this.error = error.message;
          this.flush();
        }
        this.publish();
      },
    );
    this.publish();
  }

  private scheduleRetry(): void {
    if (this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.flush();
    }, this.retryDelay);
    this.retryDelay = Math.min(RETRY_MAX_MS, this.retryDelay * 2);
  }

  /** A save was answered; its snapshot should follow over the socket. If it does not, read it. */
  private awaitSnapshot(): void {
    const reload = this.options.reload;
    if (!reload || this.reloadTimer) return;
    this.reloadTimer = setTimeout(() => {
      this.reloadTimer = null;
      if (this.disposed || !this.queue.some((batch) => batch.revision !== null)) return;
      reload().then(
        (copy) => {
          if (this.disposed) return;
          this.receive(copy);
          if (this.queue.some((batch) => batch.revision !== null)) this.awaitSnapshot();
        },
        () => {
          if (!this.disposed) this.awaitSnapshot();
        },
      );
    }, SNAPSHOT_WAIT_MS);
  }

  private build(document: MapDocument): EditorSnapshot {
    const unsaved = this.queue.reduce((count, batch) => count + batch.edits.length, 0);
    const status: SaveStatus = !this.options.save ? 'local' : unsaved === 0 ? 'saved' : this.offline ? 'offline' : 'saving';
    return {
      document,
      status,
      canUndo: !this.readOnly && this.undoSteps.length > 0,
      canRedo: !this.readOnly && this.redoSteps.length > 0,
      error: this.error,
      unsaved,
      notices: this.overwrites.notices,
    };
  }

  /** Publishes, then tells the fields of this tab's that now show a collaborator's write. */
  private publishNoticing(before: MapDocument): void {
    this.publish();
    const pending = this.queue.flatMap((batch) => batch.edits);
    if (this.overwrites.check(before, this.snapshot.document, pending, this.now())) this.publish();
  }

  private publish(): void {
    let document = this.server.document;
    for (const batch of this.queue) document = applyEdits(document, batch.edits).document;
    this.snapshot = this.build(document);
    this.persist();
    for (const listener of this.listeners) listener();
  }

  /**
   * Writes the edits the server has not acknowledged to the store when they changed: one write at
   * a time, the last one with the latest edits, so an older write never lands after a newer one.
   */
  private persist(): void {
    const store = this.options.store;
    if (!store || this.disposed) return;
    const pending = this.queue.filter((batch) => batch.revision === null).flatMap((batch) => batch.edits);
    if (pending.length === this.toKeep.length && pending.every((edit, index) => edit === this.toKeep[index])) return;
    this.toKeep = pending;
    this.kept = false;
    if (this.keeping) return;
    const write = (): void => {
      const edits = this.toKeep;
      this.keeping = true;
      store.save(edits).then(
        () => {
          if (this.toKeep !== edits && !this.disposed) return write();
          this.keeping = false;
          this.kept = this.toKeep === edits;
        },
        () => {
          // The browser would not store them (quota, private mode): the tab still sends them.
          this.keeping = false;
          this.kept = false;
        },
      );
    };
    write();
  }
}
