/**
 * The map comments decider, given / when / then: who may write, resolve, reopen, edit and
 * delete (the map's access policy), threads and replies, mentions of members only.
 */
import { describe, expect, it } from 'vitest';
import { CommentBody, commentFunctionPayloads } from '../../events/comments-api.js';
import { DomainError } from '../../events/errors.js';
import type { MapAccessFacts } from '../../events/map-access.js';
import {
  decideMapComments,
  evolveMapComments,
  findMentions,
  initialMapCommentsState,
  MapCommentEvent,
  type MapCommentCommand,
  type MapCommentsState,
  type MapPerson,
} from '../../events/map-comments.js';
import type { Principal } from '../../events/principal.js';

const now = new Date('2026-11-24T18:00:00Z');
const at = now.toISOString();
const person = (uid: string, admin = false): Principal => ({ uid, email: `${uid}@example.com`, emailVerified: true, displayName: uid, admin, stripeRole: null });
const owner = person('olga');
const editor = person('eddie');
const viewer = person('vera');
const stranger = person('sam');
const admin = person('root', true);
const access: MapAccessFacts = { ownerUid: 'olga', members: { eddie: 'editor', vera: 'viewer' } };
const people: MapPerson[] = [
  { uid: 'olga', displayName: 'Olga Owner' },
  { uid: 'eddie', displayName: 'Eddie' },
  { uid: 'vera', displayName: 'Vera' },
];

const given = (...events: MapCommentEvent[]): MapCommentsState => events.reduce(evolveMapComments, initialMapCommentsState);
const when = (state: MapCommentsState, command: MapCommentCommand, principal: Principal | null, facts: MapAccessFacts | null = access) =>
  decideMapComments(command, state, { principal, now, access: facts, people });

function refusal(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

const anchor = { kind: 'point', x: 10, y: 20, layer: 'ground' } as const;
const added = (commentId: string, author: string, threadId = commentId, mentions: string[] = []): MapCommentEvent => ({
  type: 'CommentAdded',
  data: { commentId, mapId: 'm1', threadId, ...(threadId === commentId ? { anchor } : {}), body: `said by ${author}`, mentions, author, created: at },
});
const add = (commentId: string, body = 'Is this the right entrance?', mentions?: string[]): MapCommentCommand => ({
  type: 'AddComment',
  data: { mapId: 'm1', commentId, anchor, body, mentions },
});

describe('map comments decider', () => {
  it('viewers, editors, the owner and admins start a thread pinned where they clicked; its id is the first comment’s', () => {
    for (const who of [viewer, editor, owner, admin]) {
      expect(when(given(), add('c1'), who)).toEqual([
        { type: 'CommentAdded', data: { commentId: 'c1', mapId: 'm1', threadId: 'c1', anchor, body: 'Is this the right entrance?', mentions: [], author: who.uid, created: at } },
      ]);
    }
  });

  it('a stranger is refused, nobody signed in is unauthenticated, a missing map is not found', () => {
    expect(refusal(() => when(given(), add('c1'), stranger))).toMatchObject({ code: 'permission-denied', message: 'You do not have access to this map.' });
    expect(refusal(() => when(given(), add('c1'), null)).code).toBe('unauthenticated');
    expect(refusal(() => when(given(), add('c1'), owner, null))).toMatchObject({ code: 'not-found', message: 'Map not found.' });
    // A removed member is a stranger again.
    const removed = { ...access, members: { eddie: 'editor' as const } };
    expect(refusal(() => when(given(added('c1', 'vera')), { type: 'ReplyToComment', data: { mapId: 'm1', commentId: 'c2', threadId: 'c1', body: 'me again' } }, viewer, removed)).code).toBe(
      'permission-denied',
    );
  });

  it('replies carry their thread’s id and no anchor; a reply to a resolved thread opens it again', () => {
    const state = given(added('c1', 'olga'));
    const reply: MapCommentCommand = { type: 'ReplyToComment', data: { mapId: 'm1', commentId: 'c2', threadId: 'c1', body: 'Yes, the north one.' } };
    expect(when(state, reply, viewer)).toEqual([
      { type: 'CommentAdded', data: { commentId: 'c2', mapId: 'm1', threadId: 'c1', body: 'Yes, the north one.', mentions: [], author: 'vera', created: at } },
    ]);
    const resolved = given(added('c1', 'olga'), { type: 'ThreadResolved', data: { mapId: 'm1', threadId: 'c1', by: 'olga', resolved: at } });
    expect(when(resolved, reply, viewer).map((event) => event.type)).toEqual(['ThreadReopened', 'CommentAdded']);
    expect(refusal(() => when(state, { ...reply, data: { ...reply.data, threadId: 'nope' } }, viewer))).toMatchObject({ code: 'not-found', message: 'Thread not found.' });
    // A reply to a reply's id is not a thread.
    const withReply = given(added('c1', 'olga'), added('c2', 'vera', 'c1'));
    expect(refusal(() => when(withReply, { ...reply, data: { ...reply.data, commentId: 'c3', threadId: 'c2' } }, viewer)).code).toBe('not-found');
    expect(refusal(() => when(withReply, { ...reply, data: { ...reply.data, commentId: 'c2' } }, viewer)).code).toBe('aborted');
  });

  it('resolve and reopen: any commenter, once (again is a no-op)', () => {
    const state = given(added('c1', 'olga'));
    const resolve: MapCommentCommand = { type: 'ResolveThread', data: { mapId: 'm1', threadId: 'c1' } };
    const reopen: MapCommentCommand = { type: 'ReopenThread', data: { mapId: 'm1', threadId: 'c1' } };
    expect(when(state, resolve, viewer)).toEqual([{ type: 'ThreadResolved', data: { mapId: 'm1', threadId: 'c1', by: 'vera', resolved: at } }]);
    expect(when(state, reopen, viewer)).toEqual([]);
    const resolved = given(added('c1', 'olga'), ...when(state, resolve, editor));
    expect(when(resolved, resolve, owner)).toEqual([]);
    expect(when(resolved, reopen, editor)).toEqual([{ type: 'ThreadReopened', data: { mapId: 'm1', threadId: 'c1', by: 'eddie', reopened: at } }]);
    expect(refusal(() => when(state, resolve, stranger)).code).toBe('permission-denied');
  });

  it('only its author edits a comment; a deleted one is gone', () => {
    const state = given(added('c1', 'vera'));
    const edit: MapCommentCommand = { type: 'EditComment', data: { mapId: 'm1', commentId: 'c1', body: 'Better words' } };
    expect(when(state, edit, viewer)).toEqual([
      { type: 'CommentEdited', data: { commentId: 'c1', mapId: 'm1', threadId: 'c1', body: 'Better words', mentions: [], newMentions: [], edited: at } },
    ]);
    expect(refusal(() => when(state, edit, owner))).toMatchObject({ code: 'permission-denied', message: 'Only its author can change a comment.' });
    expect(refusal(() => when(state, edit, admin)).code).toBe('permission-denied');
    const deleted = given(added('c1', 'vera'), { type: 'CommentDeleted', data: { commentId: 'c1', mapId: 'm1', threadId: 'c1', by: 'vera', deleted: at } });
    expect(refusal(() => when(deleted, edit, viewer))).toMatchObject({ code: 'not-found', message: 'Comment not found.' });
  });

  it('its author, the owner or an admin deletes a comment; an editor or viewer cannot delete another’s', () => {
    const state = given(added('c1', 'vera'), added('c2', 'eddie', 'c1'));
    const del = (commentId: string): MapCommentCommand => ({ type: 'DeleteComment', data: { mapId: 'm1', commentId } });
    expect(when(state, del('c1'), viewer)).toEqual([{ type: 'CommentDeleted', data: { commentId: 'c1', mapId: 'm1', threadId: 'c1', by: 'vera', deleted: at } }]);
    expect(when(state, del('c1'), owner)[0]!.data).toMatchObject({ by: 'olga' });
    expect(when(state, del('c2'), admin)[0]!.data).toMatchObject({ by: 'root' });
    expect(refusal(() => when(state, del('c1'), editor))).toMatchObject({ code: 'permission-denied', message: 'Only its author or the map’s owner can delete a comment.' });
    expect(refusal(() => when(state, del('c2'), viewer)).code).toBe('permission-denied');
    expect(refusal(() => when(state, del('c2'), stranger))).toMatchObject({ message: 'You do not have access to this map.' });
    // The thread lives on while one of its comments does; then it is gone.
    const first = given(added('c1', 'vera'), added('c2', 'eddie', 'c1'), ...when(state, del('c1'), owner));
    expect(when(first, { type: 'ResolveThread', data: { mapId: 'm1', threadId: 'c1' } }, editor)).toHaveLength(1);
    const none = [first].map((s) => evolveMapComments(s, when(s, del('c2'), owner)[0]!))[0]!;
    expect(refusal(() => when(none, { type: 'ResolveThread', data: { mapId: 'm1', threadId: 'c1' } }, editor)).code).toBe('not-found');
    expect(refusal(() => when(none, del('c2'), owner)).code).toBe('not-found');
  });

  it('mentions the members named with @, never the writer nor a non-member; an edit notifies only the newly mentioned', () => {
    const [event] = when(given(), add('c1', '@Eddie and @vera, see this. @Olga Owner too. @Sam? @Eddie again', ['sam']), viewer);
    expect(event!.data).toMatchObject({ mentions: ['eddie', 'olga'] });
    const state = given(event!);
    const [edited] = when(state, { type: 'EditComment', data: { mapId: 'm1', commentId: 'c1', body: '@Eddie @Olga Owner and @Vera' } }, viewer);
    expect(edited!.data).toMatchObject({ mentions: ['eddie', 'olga'], newMentions: [] });
    const [again] = when(given(added('c1', 'olga')), { type: 'EditComment', data: { mapId: 'm1', commentId: 'c1', body: 'now @Vera' } }, owner);
    expect(again!.data).toMatchObject({ mentions: ['vera'], newMentions: ['vera'] });
    // Taken out and put back: no second notice for the same comment.
    const edits = given(added('c1', 'olga'), again!, ...when(given(added('c1', 'olga'), again!), { type: 'EditComment', data: { mapId: 'm1', commentId: 'c1', body: 'never mind' } }, owner));
    const [back] = when(edits, { type: 'EditComment', data: { mapId: 'm1', commentId: 'c1', body: 'now @Vera again' } }, owner);
    expect(back!.data).toMatchObject({ mentions: ['vera'], newMentions: [] });
  });

  it('findMentions: the longest name at each @ wins; namesakes are told apart by the picker, else all are named', () => {
    const folks: MapPerson[] = [
      { uid: 'a1', displayName: 'Ada' },
      { uid: 'a2', displayName: 'Ada Lovelace' },
      { uid: 't1', displayName: 'Test User' },
      { uid: 't2', displayName: 'Test User' },
      { uid: 'x', displayName: 'Outsider' },
    ];
    const facts: MapAccessFacts = { ownerUid: 'a1', members: { a2: 'viewer', t1: 'editor', t2: 'viewer' } };
    expect(findMentions('@Ada Lovelace look', folks, [], 'w', facts)).toEqual(['a2']);
    expect(findMentions('@Ada, look', folks, [], 'w', facts)).toEqual(['a1']);
    expect(findMentions('@Adam look', folks, [], 'w', facts)).toEqual([]);
    expect(findMentions('email ada@ada.com', folks, [], 'w', facts)).toEqual([]);
    expect(findMentions('@test user!', folks, [], 'w', facts)).toEqual(['t1', 't2']);
    expect(findMentions('@Test User!', folks, ['t2'], 'w', facts)).toEqual(['t2']);
    expect(findMentions('@Outsider', folks, ['x'], 'w', facts)).toEqual([]);
    expect(findMentions('@Ada', folks, ['a1'], 'a1', facts)).toEqual([]);
    // Picked but no longer in the text: not mentioned.
    expect(findMentions('never mind', folks, ['a2'], 'w', facts)).toEqual([]);
  });

  it('a new thread is pinned to a floor or a location the map has now', () => {
    const places = { layers: new Set(['ground']), locations: new Set(['gate']) };
    const at = (anchor: MapCommentCommand & { type: 'AddComment' }) => decideMapComments(anchor, given(), { principal: viewer, now, access, people, places });
    expect(at({ type: 'AddComment', data: { mapId: 'm1', commentId: 'c1', anchor: { kind: 'location', locationId: 'gate' }, body: 'Here' } })).toHaveLength(1);
    expect(refusal(() => at({ type: 'AddComment', data: { mapId: 'm1', commentId: 'c1', anchor: { kind: 'location', locationId: 'gone' }, body: 'Here' } }))).toMatchObject({
      code: 'invalid-argument',
      message: 'anchor.locationId: there is no location gone',
    });
    expect(refusal(() => at({ type: 'AddComment', data: { mapId: 'm1', commentId: 'c1', anchor: { kind: 'point', x: 1, y: 1, layer: 'attic' }, body: 'Here' } })).message).toBe(
      'anchor.layer: there is no floor attic',
    );
  });

  it('an id like __proto__ is just an id', () => {
    expect(refusal(() => when(given(), { type: 'ResolveThread', data: { mapId: 'm1', threadId: '__proto__' } }, owner)).code).toBe('not-found');
    expect(when(given(), add('__proto__'), owner)).toHaveLength(1);
  });
});

describe('comment payloads', () => {
  it('a body is trimmed plain text of 1 to 2,000 characters, with no NUL or lone surrogate', () => {
    expect(CommentBody.parse('  hello  ')).toBe('hello');
    expect(CommentBody.safeParse('   ').error?.issues[0]?.message).toBe('Write something first.');
    expect(CommentBody.safeParse('x'.repeat(2001)).error?.issues[0]?.message).toBe('A comment must be at most 2000 characters.');
    expect(CommentBody.safeParse('x'.repeat(2000)).success).toBe(true);
    expect(CommentBody.safeParse('a\u0000b').success).toBe(false);
    expect(CommentBody.safeParse('a\ud800b').success).toBe(false);
    expect(CommentBody.parse('<b>not markup</b> 🎉')).toBe('<b>not markup</b> 🎉');
  });

  it('an anchor is a point on a floor or a location', () => {
    const add = commentFunctionPayloads.addMapComment;
    expect(add.safeParse({ mapId: 'm1', body: 'hi', anchor: { kind: 'point', x: 1, y: 2, layer: 'ground' } }).success).toBe(true);
    expect(add.safeParse({ mapId: 'm1', body: 'hi', anchor: { kind: 'location', locationId: 'cafe' } }).success).toBe(true);
    expect(add.safeParse({ mapId: 'm1', body: 'hi', anchor: { kind: 'point', x: Infinity, y: 2, layer: 'ground' } }).success).toBe(false);
    expect(add.safeParse({ mapId: 'm1', body: 'hi', anchor: { kind: 'area' } }).success).toBe(false);
    expect(add.safeParse({ mapId: 'm1', body: 'hi' }).success).toBe(false);
  });
});
