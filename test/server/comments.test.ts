/**
 * Comments on a map over HTTP and websockets against a real database: the functions, the
 * read route, the live topic, mention notices in the outbox, who may do what, and that no
 * public route ever carries a comment.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MapComments } from '../../events/comments-api.js';
import { LIVE_PROTOCOL_VERSION, type ServerMessage } from '../../events/live-messages.js';
import { topics } from '../../events/topics.js';
import { databaseTargets } from '../support/databases.js';
import { call, openLive, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

type Snapshot = Extract<ServerMessage, { type: 'snapshot' }>;
/** The topic's value: alone, or (live protocol 2) in its kind's envelope. */
const commentsOf = (data: unknown): MapComments => (data && typeof data === 'object' && 'comments' in data ? (data as { comments: MapComments }).comments : (data as MapComments));

describe.each(databaseTargets)('map comments on $name', (target) => {
  let server: TestServer;
  let olga: TestUser & { email: string };
  let sam: TestUser & { email: string };
  let admin: TestUser & { email: string };
  let mapId: string;

  /** A verified account with a name of its own (mentions find people by name). */
  async function person(name: string, email = `${name.toLowerCase().replace(/\W+/g, '.')}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.com`) {
    const user = await registerUser(server, email);
    const renamed = await fetch(`${server.url}/api/auth/update-profile`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: user.cookie },
      body: JSON.stringify({ data: { displayName: name } }),
    });
    expect(renamed.status).toBe(200);
    return { ...user, email };
  }

  const comments = async (user?: TestUser, id = mapId) => {
    const response = await fetch(`${server.url}/api/maps/${id}/comments`, { headers: user ? { cookie: user.cookie } : {} });
    return { status: response.status, body: (await response.json()) as { result: MapComments; position: string; error?: { status: string; message: string } } };
  };
  const streamTypes = async (id = mapId) => (await server.services.store.readStream(`map-comments-${id}`)).map((event) => event.type);
  const mailsTo = async (email: string) => (await server.services.outbox!.list(500)).filter((message) => message.to === email);

  beforeAll(async () => {
    server = await startTestServer(target);
    olga = await person('Olga Owner');
    sam = await person('Sam Stranger');
    admin = await person('Ada Admin', 'admin@example.com');
    const made = await call(server, 'createMap', { title: 'Harbour site', mapData: { layers: [{ id: 'ground', name: 'Ground' }], locations: [{ id: 'gate', title: 'Gate', layer: 'ground' }] } }, olga);
    mapId = made.body.result;
    await projected(server, made.body.position);
  });
  afterAll(() => server.close());

  it('the owner pins a thread to a point, replies, edits, resolves and reopens; the route shows it with names', async () => {
    const added = await call(server, 'addMapComment', { mapId, anchor: { kind: 'point', x: 120.5, y: 80, layer: 'ground' }, body: '  Is the gate wide enough for trucks?  ' }, olga);
    expect(added.status).toBe(200);
    const threadId = added.body.result.commentId as string;
    expect(added.body.position).toMatch(/^\d+:\d+$/);
    const reply = await call(server, 'replyToMapComment', { mapId, threadId, body: 'Checking with the port.' }, admin);
    expect(reply.status).toBe(200);
    const edited = await call(server, 'editMapComment', { mapId, commentId: threadId, body: 'Is the gate wide enough for lorries?' }, olga);
    expect(edited.status).toBe(200);
    const resolved = await call(server, 'resolveMapCommentThread', { mapId, threadId }, admin);
    await projected(server, resolved.body.position);

    const answer = await comments(olga);
    expect(answer.status).toBe(200);
    expect(answer.body.result).toEqual({
      mapId,
      threads: [
        {
          threadId,
          anchor: { kind: 'point', x: 120.5, y: 80, layer: 'ground' },
          resolved: true,
          resolvedBy: { uid: admin.uid, displayName: 'Ada Admin' },
          lastActivity: expect.any(String),
          comments: [
            {
              commentId: threadId,
              author: { uid: olga.uid, displayName: 'Olga Owner' },
              body: 'Is the gate wide enough for lorries?',
              mentions: [],
              created: expect.any(String),
              edited: expect.any(String),
              deleted: false,
            },
            expect.objectContaining({ commentId: reply.body.result.commentId, author: { uid: admin.uid, displayName: 'Ada Admin' }, body: 'Checking with the port.', edited: null }),
          ],
        },
      ],
    });
    // Resolving twice changes nothing; reopening brings it back.
    const again = await call(server, 'resolveMapCommentThread', { mapId, threadId }, olga);
    expect(again.body).toEqual({ result: null, position: null });
    const reopened = await call(server, 'reopenMapCommentThread', { mapId, threadId }, olga);
    await projected(server, reopened.body.position);
    expect((await comments(olga)).body.result.threads[0]).toMatchObject({ resolved: false, resolvedBy: null });
    expect(await streamTypes()).toEqual(['CommentAdded', 'CommentAdded', 'CommentEdited', 'ThreadResolved', 'ThreadReopened']);
    // The map's own stream never carries them: its revision and history stay as they were.
    expect((await server.services.store.readStream(`map-${mapId}`)).map((event) => event.type)).toEqual(['MapCreated']);
  });

  it('threads pinned to a location; newest activity first', async () => {
    const first = await call(server, 'addMapComment', { mapId, anchor: { kind: 'location', locationId: 'gate' }, body: 'Paint the gate?' }, olga);
    const second = await call(server, 'addMapComment', { mapId, anchor: { kind: 'point', x: 1, y: 2, layer: 'ground' }, body: 'Parking here' }, olga);
    await projected(server, second.body.position);
    let threads = (await comments(olga)).body.result.threads;
    expect(threads.slice(0, 2).map((thread) => thread.threadId)).toEqual([second.body.result.commentId, first.body.result.commentId]);
    const reply = await call(server, 'replyToMapComment', { mapId, threadId: first.body.result.commentId, body: 'Blue.' }, olga);
    await projected(server, reply.body.position);
    threads = (await comments(olga)).body.result.threads;
    expect(threads[0]).toMatchObject({ threadId: first.body.result.commentId, anchor: { kind: 'location', locationId: 'gate' } });
  });

  it('deletes: its author or the owner; a deleted comment keeps its place without its words; a thread with none left is gone', async () => {
    const byAdmin = await call(server, 'addMapComment', { mapId, anchor: { kind: 'point', x: 5, y: 5, layer: 'ground' }, body: 'Admin note' }, admin);
    const threadId = byAdmin.body.result.commentId as string;
    const reply = await call(server, 'replyToMapComment', { mapId, threadId, body: 'Owner reply' }, olga);
    // The owner deletes anyone's comment.
    const deleted = await call(server, 'deleteMapComment', { mapId, commentId: threadId }, olga);
    expect(deleted.status).toBe(200);
    await projected(server, deleted.body.position);
    const thread = (await comments(olga)).body.result.threads.find((candidate) => candidate.threadId === threadId)!;
    expect(thread.comments[0]).toMatchObject({ commentId: threadId, deleted: true, body: '' });
    expect(JSON.stringify(thread)).not.toContain('Admin note');
    const gone = await call(server, 'deleteMapComment', { mapId, commentId: reply.body.result.commentId }, olga);
    await projected(server, gone.body.position);
    expect((await comments(olga)).body.result.threads.map((candidate) => candidate.threadId)).not.toContain(threadId);
    const missing = await call(server, 'deleteMapComment', { mapId, commentId: threadId }, olga);
    expect(missing).toMatchObject({ status: 404, body: { error: { status: 'NOT_FOUND', message: 'Comment not found.' } } });
  });

  it('mentions: a person of the map named with @ gets a mail with a link to the thread; never the writer, never anyone else', async () => {
    const samMails = (await mailsTo(sam.email)).length;
    const olgaMails = (await mailsTo(olga.email)).length;
    const added = await call(
      server,
      'addMapComment',
      { mapId, anchor: { kind: 'point', x: 9, y: 9, layer: 'ground' }, body: '@Olga Owner can you check this? cc @Sam Stranger', mentions: [sam.uid] },
      admin,
    );
    expect(added.status).toBe(200);
    const threadId = added.body.result.commentId as string;
    const mails = await mailsTo(olga.email);
    expect(mails).toHaveLength(olgaMails + 1);
    expect(mails[0]).toMatchObject({ subject: 'Ada Admin mentioned you on “Harbour site”' });
    expect(mails[0]!.text).toContain('@Olga Owner can you check this?');
    expect(mails[0]!.text).toContain(`/maps/${mapId}?comment=${threadId}`);
    expect(await mailsTo(sam.email)).toHaveLength(samMails);
    await projected(server, added.body.position);
    const thread = (await comments(olga)).body.result.threads.find((candidate) => candidate.threadId === threadId)!;
    expect(thread.comments[0]!.mentions).toEqual([{ uid: olga.uid, displayName: 'Olga Owner' }]);

    // The owner naming herself is no mention; an edit mails only whom it newly names.
    await call(server, 'replyToMapComment', { mapId, threadId, body: 'Noted, @Olga Owner here.' }, olga);
    expect(await mailsTo(olga.email)).toHaveLength(olgaMails + 1);
    await call(server, 'editMapComment', { mapId, commentId: threadId, body: '@Olga Owner please check this, thanks' }, admin);
    expect(await mailsTo(olga.email)).toHaveLength(olgaMails + 1);
  });

  it('who may: strangers are refused, signed-out callers unauthenticated, unverified users refused; nothing is written', async () => {
    const started = await call(server, 'addMapComment', { mapId, anchor: { kind: 'point', x: 3, y: 3, layer: 'ground' }, body: 'Mine' }, olga);
    const threadId = started.body.result.commentId as string;
    const unverified = await registerUser(server, undefined, { verified: false });
    const payloads: Array<[string, unknown]> = [
      ['addMapComment', { mapId, anchor: { kind: 'point', x: 1, y: 1, layer: 'ground' }, body: 'Hi' }],
      ['replyToMapComment', { mapId, threadId, body: 'Hi' }],
      ['editMapComment', { mapId, commentId: threadId, body: 'Hi' }],
      ['resolveMapCommentThread', { mapId, threadId }],
      ['reopenMapCommentThread', { mapId, threadId }],
      ['deleteMapComment', { mapId, commentId: threadId }],
    ];
    const before = await streamTypes();
    for (const [name, data] of payloads) {
      expect(await call(server, name, data, sam), `${name} by a stranger`).toMatchObject({ status: 403, body: { error: { status: 'PERMISSION_DENIED', message: 'You do not have access to this map.' } } });
      expect(await call(server, name, data), `${name} signed out`).toMatchObject({ status: 401, body: { error: { status: 'UNAUTHENTICATED' } } });
      expect(await call(server, name, data, unverified), `${name} unverified`).toMatchObject({ status: 403, body: { error: { message: 'Verify your email address first.' } } });
      expect(await call(server, name, { ...(data as object), mapId: 'no-such-map' }, olga), `${name} on no map`).toMatchObject({ status: 404, body: { error: { message: 'Map not found.' } } });
    }
    expect(await streamTypes()).toEqual(before);
    // An admin may comment, and edit only their own.
    expect((await call(server, 'editMapComment', { mapId, commentId: threadId, body: 'Hijack' }, admin)).body.error).toEqual({ status: 'PERMISSION_DENIED', message: 'Only its author can change a comment.' });
    // The read route: owner and admins; a stranger 403, signed out 401, no map 404.
    expect((await comments(olga)).status).toBe(200);
    expect((await comments(admin)).status).toBe(200);
    expect((await comments(sam)).body).toMatchObject({ error: { status: 'PERMISSION_DENIED' } });
    expect((await comments()).status).toBe(401);
    expect((await comments(olga, 'no-such-map')).status).toBe(404);
    expect((await comments(olga, 'x'.repeat(300))).status).toBe(404);
  });

  it('bad input answers invalid-argument naming the field', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ mapId, anchor: { kind: 'point', x: 1, y: 1, layer: 'ground' }, body: '   ' }, /Write something first/],
      [{ mapId, anchor: { kind: 'point', x: 1, y: 1, layer: 'ground' }, body: 'x'.repeat(2001) }, /at most 2000 characters/],
      [{ mapId, anchor: { kind: 'point', x: 1, y: 1, layer: 'ground' }, body: 'a\u0000b' }, /NUL/],
      [{ mapId, anchor: { kind: 'shape' }, body: 'Hi' }, /anchor/i],
      [{ mapId, body: 'Hi' }, /anchor/],
      [{ mapId, anchor: { kind: 'point', x: 1, y: 1, layer: 'attic' }, body: 'Hi' }, /^anchor\.layer: there is no floor attic$/],
      [{ mapId, anchor: { kind: 'location', locationId: 'nowhere' }, body: 'Hi' }, /^anchor\.locationId: there is no location nowhere$/],
    ];
    for (const [data, message] of cases) {
      const answer = await call(server, 'addMapComment', data, olga);
      expect(answer.status).toBe(400);
      expect(answer.body.error.message).toMatch(message);
    }
  });

  it('live: comments:{mapId} pushes the threads to the owner and admins after each change; strangers are refused', async () => {
    const topic = topics.comments(mapId);
    const live = await openLive(server, olga);
    live.send({ v: LIVE_PROTOCOL_VERSION, type: 'subscribe', topic });
    await live.next((m) => m.type === 'snapshot' && m.topic === topic);
    const added = await call(server, 'addMapComment', { mapId, anchor: { kind: 'point', x: 7, y: 7, layer: 'ground' }, body: 'Live one' }, admin);
    const pushed = (await live.next(
      (m) => m.type === 'snapshot' && m.topic === topic && commentsOf(m.data).threads.some((thread) => thread.threadId === added.body.result.commentId),
    )) as Snapshot;
    expect(commentsOf(pushed.data).threads[0]!.comments[0]).toMatchObject({ body: 'Live one', author: { displayName: 'Ada Admin' } });
    live.close();

    const stranger = await openLive(server, sam);
    stranger.send({ v: LIVE_PROTOCOL_VERSION, type: 'subscribe', topic });
    expect(await stranger.next((m) => m.type === 'error' && m.topic === topic)).toMatchObject({ code: 'permission-denied' });
    stranger.send({ v: LIVE_PROTOCOL_VERSION, type: 'subscribe', topic: topics.comments('no-such-map') });
    expect(await stranger.next((m) => m.type === 'error' && m.topic === topics.comments('no-such-map'))).toMatchObject({ code: 'not-found' });
    stranger.close();
    const byAdmin = await openLive(server, admin);
    byAdmin.send({ v: LIVE_PROTOCOL_VERSION, type: 'subscribe', topic });
    await byAdmin.next((m) => m.type === 'snapshot' && m.topic === topic);
    byAdmin.close();
  });

  it('no public route carries a comment: the published map, its viewer page', async () => {
    const marker = `Secret remark ${Date.now()}`;
    const added = await call(server, 'addMapComment', { mapId, anchor: { kind: 'location', locationId: 'gate' }, body: marker }, olga);
    await projected(server, added.body.position);
    // Live (state 1), so anyone may load it.
    const live = await call(server, 'adminUpdateMap', { id: mapId, state: 1 }, admin);
    await projected(server, live.body.position);
    for (const user of [undefined, olga, admin]) {
      const headers = user ? { cookie: user.cookie } : {};
      const api = await fetch(`${server.url}/api/public/maps/${mapId}`, { headers });
      expect(api.status).toBe(200);
      const text = await api.text();
      expect(text).not.toContain(marker);
      expect(text).not.toMatch(/comment/i);
      const page = await fetch(`${server.url}/m/${mapId}`, { headers });
      expect(await page.text()).not.toContain(marker);
    }
    // And comments have no public address of their own.
    expect((await fetch(`${server.url}/api/public/maps/${mapId}/comments`)).status).toBe(404);
  });

  it('a deleted map takes its comments with it: not found, to write or to read', async () => {
    const made = await call(server, 'createMap', { title: 'Short-lived' }, admin);
    const id = made.body.result as string;
    await projected(server, made.body.position);
    const added = await call(server, 'addMapComment', { mapId: id, anchor: { kind: 'point', x: 1, y: 1, layer: 'ground' }, body: 'Soon gone' }, admin);
    await projected(server, added.body.position);
    expect((await comments(admin, id)).body.result.threads).toHaveLength(1);
    const deleted = await call(server, 'deleteMap', { id }, admin);
    await projected(server, deleted.body.position);
    expect((await comments(admin, id)).status).toBe(404);
    expect(await call(server, 'replyToMapComment', { mapId: id, threadId: added.body.result.commentId, body: 'Hello?' }, admin)).toMatchObject({ status: 404, body: { error: { message: 'Map not found.' } } });
  });
});
