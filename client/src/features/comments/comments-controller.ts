/**
 * The comments of the map open in the editor, as one small external store the panel and the
 * pins on the canvas share: the threads (from the `comments:{mapId}` topic, live), which one
 * is selected, the "Add comment" mode (pick a point or a location, then write), the open or
 * resolved filter, and the map's people for the mention picker. Commands go to the callable
 * functions; what they change comes back through the topic, to every open editor alike.
 */
import { MapComments, type CommentAnchor, type MapCommentThread } from '../../../../events/comments-api';
import { MapMembers } from '../../../../events/sharing-api';
import { topics } from '../../../../events/topics';
import { api, toApiError } from '../../lib/api';
import type { LiveClient } from '../../lib/live-client';

/** Someone the writer can mention. */
export interface MentionOption {
  uid: string;
  displayName: string;
}

export type CommentsMode =
  /** Reading. */
  | { kind: 'idle' }
  /** "Add comment": the next click on the map (or a location) pins the new thread. */
  | { kind: 'picking' }
  /** Writing the new thread's first comment, pinned at `anchor`. */
  | { kind: 'drafting'; anchor: CommentAnchor };

export interface CommentsSnapshot {
  /** Null until the first snapshot arrives. */
  threads: readonly MapCommentThread[] | null;
  /** Thread numbers by id: 1 for the oldest, so a pin keeps its number while others move. */
  numbers: ReadonlyMap<string, number>;
  filter: 'open' | 'resolved';
  selectedId: string | null;
  mode: CommentsMode;
  /** The map's people but the reader (for mentions). */
  people: readonly MentionOption[];
  /** Whether the reader may delete anyone's comment (the owner, admins). */
  canManage: boolean;
  /** What went wrong last (a refused command, a lost topic); null when all is well. */
  error: string | null;
}

export interface CommentsControllerOptions {
  mapId: string;
  /** The reader's uid. */
  me: string;
  /** The reader manages the map (owner or admin) before the members list says so. */
  manages: boolean;
  /** A thread to open once the comments arrive (the link in a mention notice: `?comment={id}`). */
  openThread?: string | null;
}

/** Numbers by age: the thread started first is 1. */
function numberThreads(threads: readonly MapCommentThread[]): Map<string, number> {
  const byAge = [...threads].sort((a, b) => (a.comments[0]?.created ?? '').localeCompare(b.comments[0]?.created ?? '') || a.threadId.localeCompare(b.threadId));
  return new Map(byAge.map((thread, index) => [thread.threadId, index + 1]));
}

export class CommentsController {
  private snapshot: CommentsSnapshot;
  private readonly listeners = new Set<() => void>();

  private readonly options: CommentsControllerOptions;

  constructor(options: CommentsControllerOptions) {
    this.options = { ...options };
    this.snapshot = { threads: null, numbers: new Map(), filter: 'open', selectedId: null, mode: { kind: 'idle' }, people: [], canManage: options.manages, error: null };
  }

  get mapId(): string {
    return this.options.mapId;
  }

  get me(): string {
    return this.options.me;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): CommentsSnapshot => this.snapshot;

  private set(change: Partial<CommentsSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...change };
    for (const listener of this.listeners) listener();
  }

  /** Follows the map's comments topic; returns the function that stops. */
  follow(live: LiveClient): () => void {
    return live.subscribe(
      topics.comments(this.options.mapId),
      (data) => {
        // The topic's value, alone or (live protocol 2) inside its kind's envelope.
        const value = typeof data === 'object' && data !== null && 'kind' in data && 'comments' in data ? (data as { comments: unknown }).comments : data;
        const parsed = MapComments.safeParse(value);
        if (!parsed.success) return this.set({ error: 'The server sent comments this page does not understand.' });
        const threads = parsed.data.threads;
        const selected = threads.find((thread) => thread.threadId === this.snapshot.selectedId);
        // The open thread stays in view: resolved (here or by someone else), the list it is in follows it.
        const follow = selected ? { filter: selected.resolved ? ('resolved' as const) : ('open' as const) } : { selectedId: null };
        this.set({ threads, numbers: numberThreads(threads), ...follow });
      },
      (error) => this.set({ error: error.message, threads: this.snapshot.threads ?? [] }),
    );
  }

  /** The map's owner and members (but the reader), for the mention picker; quietly none if the list cannot be read. */
  async loadPeople(signal?: AbortSignal): Promise<void> {
    try {
      const { result } = await api.get(`/api/maps/${encodeURIComponent(this.options.mapId)}/members`, MapMembers, signal ? { signal } : undefined);
      const people = [result.owner, ...result.members].filter((person) => person.uid !== this.options.me).map(({ uid, displayName }) => ({ uid, displayName }));
      this.set({ people, canManage: this.options.manages || result.yourRole === 'owner' });
    } catch {
      // No members list (not shared yet, or the route is not there): mentions offer nobody.
    }
  }

  setFilter(filter: 'open' | 'resolved'): void {
    this.set({ filter });
  }

  /** Selects a thread (null: none), showing the list it is in. */
  select(threadId: string | null): void {
    const thread = this.snapshot.threads?.find((candidate) => candidate.threadId === threadId);
    this.set({ selectedId: threadId, ...(thread ? { filter: thread.resolved ? 'resolved' : 'open' } : {}) });
  }

  /**
   * The thread the page was opened at (a mention notice's link), once the comments are here:
   * selected, and answered once (null after, or when there is none).
   */
  takeOpenThread(): string | null {
    const wanted = this.options.openThread;
    if (!wanted || !this.snapshot.threads) return null;
    this.options.openThread = null;
    if (!this.snapshot.threads.some((thread) => thread.threadId === wanted)) return null;
    this.select(wanted);
    return wanted;
  }

  startPicking(): void {
    this.set({ mode: { kind: 'picking' }, selectedId: null, error: null });
  }

  /** The new thread's place was chosen: write its first comment. */
  pin(anchor: CommentAnchor): void {
    this.set({ mode: { kind: 'drafting', anchor } });
  }

  cancel(): void {
    this.set({ mode: { kind: 'idle' } });
  }

  dismissError(): void {
    this.set({ error: null });
  }

  /** Runs a command; its refusal is shown, never thrown. Resolves true when it went through. */
  private async run(command: () => Promise<unknown>): Promise<boolean> {
    try {
      await command();
      this.set({ error: null });
      return true;
    } catch (error) {
      this.set({ error: toApiError(error).message });
      return false;
    }
  }

  async add(body: string, mentions: readonly string[]): Promise<boolean> {
    const mode = this.snapshot.mode;
    if (mode.kind !== 'drafting') return false;
    let threadId: string | null = null;
    const ok = await this.run(async () => {
      const { result } = await api.callFunction('addMapComment', { mapId: this.options.mapId, anchor: mode.anchor, body, mentions: [...mentions] });
      threadId = result.commentId;
    });
    if (ok) this.set({ mode: { kind: 'idle' }, selectedId: threadId, filter: 'open' });
    return ok;
  }

  reply(threadId: string, body: string, mentions: readonly string[]): Promise<boolean> {
    return this.run(() => api.callFunction('replyToMapComment', { mapId: this.options.mapId, threadId, body, mentions: [...mentions] }));
  }

  edit(commentId: string, body: string, mentions: readonly string[]): Promise<boolean> {
    return this.run(() => api.callFunction('editMapComment', { mapId: this.options.mapId, commentId, body, mentions: [...mentions] }));
  }

  resolve(threadId: string): Promise<boolean> {
    return this.run(() => api.callFunction('resolveMapCommentThread', { mapId: this.options.mapId, threadId }));
  }

  reopen(threadId: string): Promise<boolean> {
    return this.run(() => api.callFunction('reopenMapCommentThread', { mapId: this.options.mapId, threadId }));
  }

  remove(commentId: string): Promise<boolean> {
    return this.run(() => api.callFunction('deleteMapComment', { mapId: this.options.mapId, commentId }));
  }
}
