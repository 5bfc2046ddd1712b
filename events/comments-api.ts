/**
 * Comments on a map (issue 16): the callable functions' payloads and results, and what
 * `GET /api/maps/{id}/comments` and the live topic `comments:{mapId}` carry. The single source
 * of truth for the server's validation and the client's types.
 *
 * Comments are for the map's people (owner, members, admins): they never reach the published
 * viewer or any public route.
 */
import { z } from 'zod';
import { ElementId } from './map-document.js';
import { isSafeText } from './safe-text.js';

/** A comment's body is plain text of at most this many characters (after trimming). */
export const COMMENT_BODY_MAX = 2000;
/** At most this many people named in one comment's mention list. */
export const MENTIONS_MAX = 50;

const MapId = z.string({ error: 'Map id must be text.' }).regex(/^[A-Za-z0-9_-]{1,64}$/, 'Map id is not valid.');
/** Comment and thread ids are the server's UUIDs (a thread's id is its first comment's). */
export const CommentId = z.string({ error: 'Comment id must be text.' }).regex(/^[A-Za-z0-9_-]{1,64}$/, 'Comment id is not valid.');

/**
 * What a comment says: plain text (never markup: the client shows it as text), trimmed,
 * 1 to {@link COMMENT_BODY_MAX} characters, with no NUL or lone surrogate (safe-text.ts).
 */
export const CommentBody = z
  .string({ error: 'Comment must be text.' })
  .trim()
  .min(1, 'Write something first.')
  .max(COMMENT_BODY_MAX, `A comment must be at most ${COMMENT_BODY_MAX} characters.`)
  .refine(isSafeText, 'Comment must not contain NUL characters or unpaired surrogates.');

/**
 * Where a thread is pinned: a point on a floor (map coordinates, as locations' positions), or
 * a location (followed wherever it moves). Only a thread's first comment has one.
 */
export const CommentAnchor = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('point'), x: z.number({ error: 'x must be a number.' }).finite(), y: z.number({ error: 'y must be a number.' }).finite(), layer: ElementId }),
    z.object({ kind: z.literal('location'), locationId: ElementId }),
  ],
  { error: 'Anchor must be a point {kind, x, y, layer} or a location {kind, locationId}.' },
);
export type CommentAnchor = z.infer<typeof CommentAnchor>;

/**
 * Members the writer picked in the mention picker (uids). The server also finds `@Name` of
 * members typed by hand; anyone who is not a member of the map (or is the writer) is dropped.
 */
const Mentions = z.array(z.string().min(1).max(128), { error: 'Mentions must be a list of user ids.' }).max(MENTIONS_MAX, `At most ${MENTIONS_MAX} mentions.`);

export const commentFunctionPayloads = {
  /** A new thread pinned to a point or a location; answers its first comment's id (the thread's id). */
  addMapComment: z.object({ mapId: MapId, anchor: CommentAnchor, body: CommentBody, mentions: Mentions.optional() }),
  /** A reply in a thread; replying to a resolved thread opens it again. */
  replyToMapComment: z.object({ mapId: MapId, threadId: CommentId, body: CommentBody, mentions: Mentions.optional() }),
  /** Its author changes a comment's text. */
  editMapComment: z.object({ mapId: MapId, commentId: CommentId, body: CommentBody, mentions: Mentions.optional() }),
  resolveMapCommentThread: z.object({ mapId: MapId, threadId: CommentId }),
  reopenMapCommentThread: z.object({ mapId: MapId, threadId: CommentId }),
  /** Its author, or the map's owner (and admins), deletes a comment. */
  deleteMapComment: z.object({ mapId: MapId, commentId: CommentId }),
} as const;

export interface CommentFunctionResults {
  addMapComment: { commentId: string };
  replyToMapComment: { commentId: string };
  editMapComment: null;
  resolveMapCommentThread: null;
  reopenMapCommentThread: null;
  deleteMapComment: null;
}

export const commentFunctionResults = {
  addMapComment: z.object({ commentId: z.string() }),
  replyToMapComment: z.object({ commentId: z.string() }),
  editMapComment: z.null(),
  resolveMapCommentThread: z.null(),
  reopenMapCommentThread: z.null(),
  deleteMapComment: z.null(),
} satisfies { [N in keyof CommentFunctionResults]: z.ZodType<CommentFunctionResults[N]> };

const Person = z.object({ uid: z.string(), displayName: z.string() });

/** One comment as the read model serves it; a deleted one keeps its place, without its text. */
export const MapComment = z.object({
  commentId: z.string(),
  author: Person,
  body: z.string(),
  mentions: z.array(Person),
  created: z.string(),
  /** When its author last changed it; null if never. */
  edited: z.string().nullable(),
  deleted: z.boolean(),
});
export type MapComment = z.infer<typeof MapComment>;

export const MapCommentThread = z.object({
  threadId: z.string(),
  anchor: CommentAnchor,
  resolved: z.boolean(),
  /** Who resolved it, while it is resolved. */
  resolvedBy: Person.nullable(),
  /** The newest comment, edit, resolve or reopen in it. */
  lastActivity: z.string(),
  /** Oldest first; the first is the one the thread was started with. */
  comments: z.array(MapComment),
});
export type MapCommentThread = z.infer<typeof MapCommentThread>;

/**
 * `GET /api/maps/{id}/comments` and the `comments:{mapId}` topic's payload: a map's threads,
 * newest activity first (threads whose every comment was deleted are left out).
 */
export const MapComments = z.object({ mapId: z.string(), threads: z.array(MapCommentThread) });
export type MapComments = z.infer<typeof MapComments>;
