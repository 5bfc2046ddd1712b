/**
 * The comment functions (issue 16): from a validated payload and the caller to the comments
 * decider (events/map-comments.ts), with the map's access facts and people it needs, on the
 * map's comments stream. Whoever a recorded comment newly mentions gets a notice by mail
 * (SMTP, or the outbox), with a link to the thread.
 */
import type { z } from 'zod';
import type { commentFunctionPayloads } from '../../events/comments-api.js';
import { mapCommentsDecider, type MapCommentCommand, type MapCommentEvent } from '../../events/map-comments.js';
import type { IdGenerator } from '../clock.js';
import { loadMapPeople, type MapPeople } from '../comments/map-people.js';
import type { Queryable } from '../../ports/database.js';
import type { EventStore } from '../../ports/event-store.js';
import { commentLink, mentionMail } from '../mail/comment-mails.js';
import type { Mailer } from '../mail/mailer.js';
import { decideCommand, type CommandMetadata, type CommandOutcome } from './command-handler.js';

export interface CommentDeps {
  store: EventStore;
  db: Queryable;
  ids: IdGenerator;
  publicUrl: string;
  /** Mention notices go out through it; without one none are sent. */
  mailer?: Mailer;
  /** Told of a notice that could not be sent (the comment stands either way). */
  onMailError?: (error: unknown) => void;
}

type Payload<N extends keyof typeof commentFunctionPayloads> = z.output<(typeof commentFunctionPayloads)[N]>;

async function runCommentCommand(deps: CommentDeps, command: MapCommentCommand, meta: CommandMetadata): Promise<CommandOutcome<MapCommentEvent>> {
  const people = await loadMapPeople(deps.db, command.data.mapId);
  const context = { principal: meta.principal, now: meta.now, access: people?.access ?? null, people: people?.people ?? [], ...(people ? { places: people.places } : {}) };
  const outcome = await decideCommand(deps, mapCommentsDecider, command.data.mapId, command, context, meta);
  if (people) await sendMentionNotices(deps, people, outcome.events, meta);
  return outcome;
}

/** One mail per person a recorded comment newly mentions; a failure is reported, never thrown. */
async function sendMentionNotices(deps: CommentDeps, people: MapPeople, events: readonly MapCommentEvent[], meta: CommandMetadata): Promise<void> {
  if (!deps.mailer) return;
  for (const event of events) {
    const notified = event.type === 'CommentAdded' ? event.data.mentions : event.type === 'CommentEdited' ? event.data.newMentions : [];
    if (notified.length === 0 || (event.type !== 'CommentAdded' && event.type !== 'CommentEdited')) continue;
    const url = commentLink(deps.publicUrl, event.data.mapId, event.data.threadId);
    for (const uid of notified) {
      const person = people.people.find((candidate) => candidate.uid === uid);
      if (!person?.email) continue;
      const mail = mentionMail({
        to: person.email,
        recipientName: person.displayName,
        authorName: meta.principal?.displayName || 'Someone',
        mapTitle: people.title,
        body: event.data.body,
        url,
      });
      await deps.mailer.send(mail).catch((error: unknown) => deps.onMailError?.(error));
    }
  }
}

export async function addMapComment(deps: CommentDeps, payload: Payload<'addMapComment'>, meta: CommandMetadata) {
  const commentId = deps.ids.uuid();
  const outcome = await runCommentCommand(deps, { type: 'AddComment', data: { ...payload, commentId } }, meta);
  return { result: { commentId }, position: outcome.position };
}

export async function replyToMapComment(deps: CommentDeps, payload: Payload<'replyToMapComment'>, meta: CommandMetadata) {
  const commentId = deps.ids.uuid();
  const outcome = await runCommentCommand(deps, { type: 'ReplyToComment', data: { ...payload, commentId } }, meta);
  return { result: { commentId }, position: outcome.position };
}

export async function editMapComment(deps: CommentDeps, payload: Payload<'editMapComment'>, meta: CommandMetadata) {
  const outcome = await runCommentCommand(deps, { type: 'EditComment', data: payload }, meta);
  return { result: null, position: outcome.position };
}

export async function resolveMapCommentThread(deps: CommentDeps, payload: Payload<'resolveMapCommentThread'>, meta: CommandMetadata) {
  const outcome = await runCommentCommand(deps, { type: 'ResolveThread', data: payload }, meta);
  return { result: null, position: outcome.position };
}

export async function reopenMapCommentThread(deps: CommentDeps, payload: Payload<'reopenMapCommentThread'>, meta: CommandMetadata) {
  const outcome = await runCommentCommand(deps, { type: 'ReopenThread', data: payload }, meta);
  return { result: null, position: outcome.position };
}

export async function deleteMapComment(deps: CommentDeps, payload: Payload<'deleteMapComment'>, meta: CommandMetadata) {
  const outcome = await runCommentCommand(deps, { type: 'DeleteComment', data: payload }, meta);
  return { result: null, position: outcome.position };
}

export const commentFunctionHandlers = {
  addMapComment,
  replyToMapComment,
  editMapComment,
  resolveMapCommentThread,
  reopenMapCommentThread,
  deleteMapComment,
};
