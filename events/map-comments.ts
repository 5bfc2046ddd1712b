/**
 * A map's comments (stream `map-comments-{mapId}`): threads pinned to a point or a location,
 * replies, edits, resolve and reopen, deletes. A stream of their own, beside the map's, so a
 * busy discussion never moves the map's revision (editors wait for revisions) and the map's
 * history, timeline and published document never carry them.
 *
 * Who may is the map's access policy (map-access.ts): `comment` to write, resolve and reopen
 * (viewers, editors, the owner, admins), authors alone change their text, and `manage` (the
 * owner, admins) deletes anyone's comment. The server brings the map's access facts and its
 * people (for mentions) in the context; the decider stays pure.
 */
import { z } from 'zod';
import type { Decider } from './decider.js';
import { streams } from './streams.js';
import { CommentAnchor } from './comments-api.js';
import { DomainError } from './errors.js';
import { can, requireCan, type MapAccessFacts } from './map-access.js';
import type { Principal } from './principal.js';

const at = z.iso.datetime({ offset: true });

// ---- events -------------------------------------------------------------------------------

/** A comment: a thread's first (with its anchor; `threadId` is its own id) or a reply. */
export const CommentAdded = z.object({
  type: z.literal('CommentAdded'),
  data: z.object({
    commentId: z.string(),
    mapId: z.string(),
    threadId: z.string(),
    anchor: CommentAnchor.optional(),
    body: z.string(),
    /** Members it mentions (uids): each was sent a notice. */
    mentions: z.array(z.string()),
    author: z.string(),
    created: at,
  }),
});

export const CommentEdited = z.object({
  type: z.literal('CommentEdited'),
  data: z.object({
    commentId: z.string(),
    mapId: z.string(),
    threadId: z.string(),
    body: z.string(),
    mentions: z.array(z.string()),
    /** Those the new text mentions and no earlier text of it did: only they are sent a notice. */
    newMentions: z.array(z.string()),
    edited: at,
  }),
});

export const ThreadResolved = z.object({
  type: z.literal('ThreadResolved'),
  data: z.object({ mapId: z.string(), threadId: z.string(), by: z.string(), resolved: at }),
});

export const ThreadReopened = z.object({
  type: z.literal('ThreadReopened'),
  data: z.object({ mapId: z.string(), threadId: z.string(), by: z.string(), reopened: at }),
});

export const CommentDeleted = z.object({
  type: z.literal('CommentDeleted'),
  data: z.object({ commentId: z.string(), mapId: z.string(), threadId: z.string(), by: z.string(), deleted: at }),
});

export const MapCommentEvent = z.discriminatedUnion('type', [CommentAdded, CommentEdited, ThreadResolved, ThreadReopened, CommentDeleted]);
export type MapCommentEvent = z.infer<typeof MapCommentEvent>;
export const MAP_COMMENT_EVENT_TYPES: ReadonlySet<string> = new Set(MapCommentEvent.options.map((option) => option.shape.type.value));

// ---- commands -----------------------------------------------------------------------------

/** `mentions`: members picked in the mention picker (uids); `@Name`s in the body count too. */
export type MapCommentCommand =
  | { type: 'AddComment'; data: { mapId: string; commentId: string; anchor: CommentAnchor; body: string; mentions?: readonly string[] | undefined } }
  | { type: 'ReplyToComment'; data: { mapId: string; commentId: string; threadId: string; body: string; mentions?: readonly string[] | undefined } }
  | { type: 'EditComment'; data: { mapId: string; commentId: string; body: string; mentions?: readonly string[] | undefined } }
  | { type: 'ResolveThread'; data: { mapId: string; threadId: string } }
  | { type: 'ReopenThread'; data: { mapId: string; threadId: string } }
  | { type: 'DeleteComment'; data: { mapId: string; commentId: string } };

/** Someone a comment can mention: the map's owner or a member, by the name people see. */
export interface MapPerson {
  uid: string;
  displayName: string;
}

export interface MapCommentContext {
  principal: Principal | null;
  now: Date;
  /** The map's access facts (owner, members); null when there is no such map (never made, or deleted). */
  access: MapAccessFacts | null;
  /** The map's people (owner and members) with their names, for mentions. */
  people: readonly MapPerson[];
  /**
   * The floors and locations a new thread may be pinned to (the map's document now); without
   * them any well-formed anchor is taken.
   */
  places?: { layers: ReadonlySet<string>; locations: ReadonlySet<string> };
}

// ---- state --------------------------------------------------------------------------------

interface CommentRecord {
  threadId: string;
  author: string;
  deleted: boolean;
  /** Everyone the comment ever mentioned: each is sent one notice per comment, however often it is edited. */
  notified: readonly string[];
}

interface ThreadRecord {
  resolved: boolean;
  /** Comments of the thread not deleted. */
  live: number;
}

/** Maps by id (not plain objects): an id like `__proto__` is a valid id, never a key lookup. */
export interface MapCommentsState {
  comments: ReadonlyMap<string, CommentRecord>;
  threads: ReadonlyMap<string, ThreadRecord>;
}

export const initialMapCommentsState: MapCommentsState = { comments: new Map(), threads: new Map() };

function withComment(state: MapCommentsState, id: string, record: CommentRecord): MapCommentsState {
  return { ...state, comments: new Map(state.comments).set(id, record) };
}

function withThread(state: MapCommentsState, id: string, change: Partial<ThreadRecord>): MapCommentsState {
  const thread = state.threads.get(id) ?? { resolved: false, live: 0 };
  return { ...state, threads: new Map(state.threads).set(id, { ...thread, ...change }) };
}

export function evolveMapComments(state: MapCommentsState, event: MapCommentEvent): MapCommentsState {
  switch (event.type) {
    case 'CommentAdded': {
      const { commentId, threadId, author, mentions } = event.data;
      const next = withComment(state, commentId, { threadId, author, deleted: false, notified: mentions });
      return withThread(next, threadId, { live: (state.threads.get(threadId)?.live ?? 0) + 1 });
    }
    case 'CommentEdited': {
      const comment = state.comments.get(event.data.commentId);
      return comment ? withComment(state, event.data.commentId, { ...comment, notified: [...new Set([...comment.notified, ...event.data.mentions])] }) : state;
    }
    case 'ThreadResolved':
      return withThread(state, event.data.threadId, { resolved: true });
    case 'ThreadReopened':
      return withThread(state, event.data.threadId, { resolved: false });
    case 'CommentDeleted': {
      const comment = state.comments.get(event.data.commentId);
      if (!comment || comment.deleted) return state;
      const next = withComment(state, event.data.commentId, { ...comment, deleted: true });
      return withThread(next, comment.threadId, { live: Math.max(0, (state.threads.get(comment.threadId)?.live ?? 1) - 1) });
    }
  }
}

// ---- mentions -----------------------------------------------------------------------------

/** The owner or a member (admins and view-link holders are neither). */
function isMapPerson(uid: string, access: MapAccessFacts): boolean {
  return uid === access.ownerUid || Object.hasOwn(access.members, uid);
}

const WORD_CHARACTER = /[\p{L}\p{N}_]/u;

/**
 * Who a comment mentions: the map's people whose `@Name` the body holds (any case, ending at a
 * word's end). At each `@` the longest name that fits wins (`@Ada Lovelace` is not also
 * `@Ada`), and an `@` inside a word (an address) is none; when several people share that name, those picked in the mention picker, or all of
 * them when none was picked. Never the writer, never anyone who is not the owner or a member.
 * In order of first mention.
 */
export function findMentions(body: string, people: readonly MapPerson[], picked: readonly string[], writer: string, access: MapAccessFacts): string[] {
  const candidates = people
    .filter((person) => person.uid !== writer && person.displayName.trim() !== '' && isMapPerson(person.uid, access))
    .map((person) => ({ uid: person.uid, name: `@${person.displayName.trim().toLowerCase()}` }));
  const text = body.toLowerCase();
  const pickedSet = new Set(picked);
  const found: string[] = [];
  for (let index = text.indexOf('@'); index !== -1; index = text.indexOf('@', index + 1)) {
    // An address (ada@example.com) is not a mention: the @ starts a word.
    if (index > 0 && WORD_CHARACTER.test(text.charAt(index - 1))) continue;
    const here = candidates.filter(({ name }) => text.startsWith(name, index) && !WORD_CHARACTER.test(text.charAt(index + name.length)));
    if (here.length === 0) continue;
    const longest = Math.max(...here.map(({ name }) => name.length));
    const named = here.filter(({ name }) => name.length === longest);
    const chosen = named.some(({ uid }) => pickedSet.has(uid)) ? named.filter(({ uid }) => pickedSet.has(uid)) : named;
    for (const { uid } of chosen) if (!found.includes(uid)) found.push(uid);
  }
  return found;
}

// ---- decide -------------------------------------------------------------------------------

function requireMap(context: MapCommentContext): MapAccessFacts {
  if (!context.access) throw new DomainError('not-found', 'Map not found.');
  return context.access;
}

function requireLiveComment(state: MapCommentsState, commentId: string): CommentRecord {
  const comment = state.comments.get(commentId);
  if (!comment || comment.deleted) throw new DomainError('not-found', 'Comment not found.');
  return comment;
}

/** A thread with at least one comment left; a thread whose every comment was deleted is gone. */
function requireThread(state: MapCommentsState, threadId: string): ThreadRecord {
  const thread = state.threads.get(threadId);
  if (!thread || thread.live === 0) throw new DomainError('not-found', 'Thread not found.');
  return thread;
}

/** A new thread is pinned to a floor or a location the map has now. */
function requirePlace(anchor: CommentAnchor, places: MapCommentContext['places']): void {
  if (!places) return;
  if (anchor.kind === 'point' && !places.layers.has(anchor.layer)) throw new DomainError('invalid-argument', `anchor.layer: there is no floor ${anchor.layer}`);
  if (anchor.kind === 'location' && !places.locations.has(anchor.locationId)) {
    throw new DomainError('invalid-argument', `anchor.locationId: there is no location ${anchor.locationId}`);
  }
}

export function decideMapComments(command: MapCommentCommand, state: MapCommentsState, context: MapCommentContext): MapCommentEvent[] {
  const access = requireMap(context);
  const principal = context.principal;
  // Writing, resolving, reopening and deleting one's own all start with `comment`.
  requireCan(principal, access, 'comment');
  const me = principal!.uid;
  const now = context.now.toISOString();
  const mapId = command.data.mapId;
  switch (command.type) {
    case 'AddComment': {
      const { commentId, anchor, body, mentions } = command.data;
      if (state.comments.has(commentId)) throw new DomainError('aborted', 'A comment with this id already exists.');
      requirePlace(anchor, context.places);
      return [
        {
          type: 'CommentAdded',
          data: { commentId, mapId, threadId: commentId, anchor, body, mentions: findMentions(body, context.people, mentions ?? [], me, access), author: me, created: now },
        },
      ];
    }
    case 'ReplyToComment': {
      const { commentId, threadId, body, mentions } = command.data;
      const thread = requireThread(state, threadId);
      if (state.comments.has(commentId)) throw new DomainError('aborted', 'A comment with this id already exists.');
      const added: MapCommentEvent = {
        type: 'CommentAdded',
        data: { commentId, mapId, threadId, body, mentions: findMentions(body, context.people, mentions ?? [], me, access), author: me, created: now },
      };
      // A reply brings a resolved thread back: someone still has something to say.
      return thread.resolved ? [{ type: 'ThreadReopened', data: { mapId, threadId, by: me, reopened: now } }, added] : [added];
    }
    case 'EditComment': {
      const { commentId, body, mentions } = command.data;
      const comment = requireLiveComment(state, commentId);
      if (comment.author !== me) throw new DomainError('permission-denied', 'Only its author can change a comment.');
      const found = findMentions(body, context.people, mentions ?? [], me, access);
      const newMentions = found.filter((uid) => !comment.notified.includes(uid));
      return [{ type: 'CommentEdited', data: { commentId, mapId, threadId: comment.threadId, body, mentions: found, newMentions, edited: now } }];
    }
    case 'ResolveThread': {
      const thread = requireThread(state, command.data.threadId);
      if (thread.resolved) return [];
      return [{ type: 'ThreadResolved', data: { mapId, threadId: command.data.threadId, by: me, resolved: now } }];
    }
    case 'ReopenThread': {
      const thread = requireThread(state, command.data.threadId);
      if (!thread.resolved) return [];
      return [{ type: 'ThreadReopened', data: { mapId, threadId: command.data.threadId, by: me, reopened: now } }];
    }
    case 'DeleteComment': {
      const comment = requireLiveComment(state, command.data.commentId);
      // Its author, or whoever manages the map (the owner, admins): the owner keeps the discussion civil.
      if (comment.author !== me && !can(principal, access, 'manage')) {
        throw new DomainError('permission-denied', 'Only its author or the map’s owner can delete a comment.');
      }
      return [{ type: 'CommentDeleted', data: { commentId: command.data.commentId, mapId, threadId: comment.threadId, by: me, deleted: now } }];
    }
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

/** A map's comments as the command handler takes them: stream `map-comments-{mapId}`, read with {@link MapCommentEvent}. */
export const mapCommentsDecider: Decider<MapCommentCommand, MapCommentEvent, MapCommentsState, MapCommentContext> = {
  name: 'map-comments',
  streamId: streams.mapComments,
  schema: MapCommentEvent,
  eventTypes: MAP_COMMENT_EVENT_TYPES,
  initialState: initialMapCommentsState,
  evolve: evolveMapComments,
  decide: decideMapComments,
};
