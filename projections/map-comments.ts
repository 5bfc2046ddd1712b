/**
 * The comments read model: a map's threads and their comments, from the `map-comments-{mapId}`
 * streams. Pushed on topic `comments:{mapId}`; read by `GET /api/maps/{id}/comments`. Never by
 * a public route: comments are for the map's people only.
 *
 * Each comment keeps the name its author went by when they wrote (the event's metadata): what
 * it reads as once they are no longer one of the map's people (a removed member).
 */
import type { MapComments, MapCommentThread } from '../events/comments-api.js';
import { CommentAnchor } from '../events/comments-api.js';
import { MAP_COMMENT_EVENT_TYPES, MapCommentEvent } from '../events/map-comments.js';
import { MAP_COMMENTS_PREFIX } from '../events/streams.js';
import { topics } from '../events/topics.js';
import type { Queryable } from '../ports/database.js';
import type { Projection } from './projection.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS map_comment_threads (
  map_id text NOT NULL,
  thread_id text NOT NULL,
  anchor jsonb NOT NULL,
  resolved boolean NOT NULL DEFAULT false,
  resolved_by text,
  resolved_by_name text,
  last_activity timestamptz NOT NULL,
  PRIMARY KEY (map_id, thread_id)
);
CREATE TABLE IF NOT EXISTS map_comments (
  map_id text NOT NULL,
  comment_id text NOT NULL,
  thread_id text NOT NULL,
  body text NOT NULL,
  mentions jsonb NOT NULL DEFAULT '[]'::jsonb,
  author text NOT NULL,
  author_name text NOT NULL,
  created timestamptz NOT NULL,
  edited timestamptz,
  deleted boolean NOT NULL DEFAULT false,
  PRIMARY KEY (map_id, comment_id)
);
CREATE INDEX IF NOT EXISTS map_comments_thread ON map_comments (map_id, thread_id, created);`;

/** Who an event's metadata says acted, by name; a name-less actor (a script) reads as "Someone". */
function nameOf(metadata: { userName?: string | undefined }): string {
  return metadata.userName?.trim() || 'Someone';
}

export const mapCommentsProjection: Projection = {
  name: 'map_comments',
  version: 1,
  schema: SCHEMA,
  tables: ['map_comment_threads', 'map_comments'],
  streamPrefixes: [MAP_COMMENTS_PREFIX],
  async apply(tx, events, changed) {
    for (const recorded of events) {
      if (!MAP_COMMENT_EVENT_TYPES.has(recorded.type)) continue;
      const event = MapCommentEvent.parse({ type: recorded.type, data: recorded.data });
      const { mapId, threadId } = event.data;
      switch (event.type) {
        case 'CommentAdded': {
          const d = event.data;
          await tx.query(
            `INSERT INTO map_comments (map_id, comment_id, thread_id, body, mentions, author, author_name, created)
             VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8) ON CONFLICT DO NOTHING`,
            [mapId, d.commentId, threadId, d.body, JSON.stringify(d.mentions), d.author, nameOf(recorded.metadata), d.created],
          );
          if (d.anchor) {
            await tx.query(
              `INSERT INTO map_comment_threads (map_id, thread_id, anchor, last_activity) VALUES ($1, $2, $3::jsonb, $4) ON CONFLICT DO NOTHING`,
              [mapId, threadId, JSON.stringify(d.anchor), d.created],
            );
          } else await touch(tx, mapId, threadId, d.created);
          break;
        }
        case 'CommentEdited':
          await tx.query('UPDATE map_comments SET body = $3, mentions = $4::jsonb, edited = $5 WHERE map_id = $1 AND comment_id = $2', [
            mapId,
            event.data.commentId,
            event.data.body,
            JSON.stringify(event.data.mentions),
            event.data.edited,
          ]);
          await touch(tx, mapId, threadId, event.data.edited);
          break;
        case 'ThreadResolved':
          await tx.query('UPDATE map_comment_threads SET resolved = true, resolved_by = $3, resolved_by_name = $4 WHERE map_id = $1 AND thread_id = $2', [
            mapId,
            threadId,
            event.data.by,
            nameOf(recorded.metadata),
          ]);
          await touch(tx, mapId, threadId, event.data.resolved);
          break;
        case 'ThreadReopened':
          await tx.query('UPDATE map_comment_threads SET resolved = false, resolved_by = NULL, resolved_by_name = NULL WHERE map_id = $1 AND thread_id = $2', [mapId, threadId]);
          await touch(tx, mapId, threadId, event.data.reopened);
          break;
        case 'CommentDeleted':
          // The text goes with it: a deleted comment is served as a placeholder, never its words.
          await tx.query(`UPDATE map_comments SET deleted = true, body = '', mentions = '[]'::jsonb WHERE map_id = $1 AND comment_id = $2`, [mapId, event.data.commentId]);
          break;
        default: {
          const unreachable: never = event;
          return unreachable;
        }
      }
      changed.add(topics.comments(mapId));
    }
  },
};

async function touch(tx: Queryable, mapId: string, threadId: string, at: string): Promise<void> {
  await tx.query('UPDATE map_comment_threads SET last_activity = GREATEST(last_activity, $3::timestamptz) WHERE map_id = $1 AND thread_id = $2', [mapId, threadId, at]);
}

interface ThreadRow {
  thread_id: string;
  anchor: unknown;
  resolved: boolean;
  resolved_by: string | null;
  resolved_by_name: string | null;
  last_activity: Date | string;
}

interface CommentRow {
  comment_id: string;
  thread_id: string;
  body: string;
  mentions: unknown;
  author: string;
  author_name: string;
  created: Date | string;
  edited: Date | string | null;
  deleted: boolean;
}

const iso = (value: Date | string) => new Date(value).toISOString();

/**
 * A map's threads, newest activity first, each with its comments oldest first. People are
 * named as `names` (the map's people, as they are called now) has them, else as they were
 * called when they wrote here, else "Someone". A thread whose every comment was deleted is
 * left out.
 */
export async function getMapComments(db: Queryable, mapId: string, names: ReadonlyMap<string, string> = new Map()): Promise<MapComments> {
  const threads = await db.query<ThreadRow>(
    `SELECT thread_id, anchor, resolved, resolved_by, resolved_by_name, last_activity
       FROM map_comment_threads WHERE map_id = $1 ORDER BY last_activity DESC, thread_id`,
    [mapId],
  );
  const comments = await db.query<CommentRow>(
    `SELECT comment_id, thread_id, body, mentions, author, author_name, created, edited, deleted
       FROM map_comments WHERE map_id = $1 ORDER BY created, comment_id`,
    [mapId],
  );
  const known = new Map(names);
  for (const row of comments.rows) if (!known.has(row.author)) known.set(row.author, row.author_name);
  const byThread = new Map<string, MapCommentThread['comments']>();
  for (const row of comments.rows) {
    const list = byThread.get(row.thread_id) ?? [];
    const mentions = Array.isArray(row.mentions) ? (row.mentions as string[]) : [];
    list.push({
      commentId: row.comment_id,
      author: { uid: row.author, displayName: names.get(row.author) || row.author_name },
      body: row.body,
      mentions: mentions.map((uid) => ({ uid, displayName: known.get(uid) ?? 'Someone' })),
      created: iso(row.created),
      edited: row.edited ? iso(row.edited) : null,
      deleted: row.deleted,
    });
    byThread.set(row.thread_id, list);
  }
  const result: MapCommentThread[] = [];
  for (const row of threads.rows) {
    const list = byThread.get(row.thread_id) ?? [];
    if (!list.some((comment) => !comment.deleted)) continue;
    result.push({
      threadId: row.thread_id,
      anchor: CommentAnchor.parse(row.anchor),
      resolved: row.resolved,
      resolvedBy: row.resolved && row.resolved_by ? { uid: row.resolved_by, displayName: names.get(row.resolved_by) || (row.resolved_by_name ?? 'Someone') } : null,
      lastActivity: iso(row.last_activity),
      comments: list,
    });
  }
  return { mapId, threads: result };
}
