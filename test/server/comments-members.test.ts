/**
 * Comments on a shared map, against a real server: viewers and editors write, reply, resolve
 * and reopen; only authors edit; authors and the owner delete; a removed member, an invitee who
 * has not accepted and a stranger are refused, over HTTP and on the live topic; mentions mail
 * members only, never the writer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MapComments } from '../../events/comments-api.js';
import { LIVE_PROTOCOL_VERSION } from '../../events/live-messages.js';
import { topics } from '../../events/topics.js';
import { databaseTargets } from '../support/databases.js';
import { invite, share } from '../support/sharing.js';
import { call, openLive, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

type Person = TestUser & { email: string };

describe.each(databaseTargets)('comments on a shared map on $name', (target) => {
  let server: TestServer;
  let olga: Person;
  let eddie: Person;
  let vera: Person;
  let rex: Person;
  let ivan: Person;
  let sam: Person;
  let admin: Person;
  let mapId: string;

  async function person(name: string, email = `${name.toLowerCase().replace(/\W+/g, '.')}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.com`): Promise<Person> {
    const user = await registerUser(server, email);
    const renamed = await fetch(`${server.url}/api/auth/update-profile`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: user.cookie },
      body: JSON.stringify({ data: { displayName: name } }),
    });
    expect(renamed.status).toBe(200);
    return { ...user, email };
  }
  const mailsTo = async (email: string) => (await server.services.outbox!.list(500)).filter((message) => message.to === email && /mentioned you/.test(message.subject));
  const read = async (user?: TestUser) => {
    const response = await fetch(`${server.url}/api/maps/${mapId}/comments`, { headers: user ? { cookie: user.cookie } : {} });
    return { status: response.status, body: (await response.json()) as { result: MapComments } };
  };
  const point = { kind: 'point', x: 10, y: 10, layer: 'ground' } as const;

  beforeAll(async () => {
    server = await startTestServer(target);
    [olga, eddie, vera, rex, ivan, sam] = [
      await person('Olga Owner'),
      await person('Eddie Editor'),
      await person('Vera Viewer'),
      await person('Rex Removed'),
      await person('Ivan Invitee'),
      await person('Sam Stranger'),
    ];
    admin = await person('Ada Admin', 'admin@example.com');
    const made = await call(server, 'createMap', { title: 'Shared site' }, olga);
    mapId = made.body.result;
    await projected(server, made.body.position);
    await share(server, olga, mapId, eddie, 'editor');
    await share(server, olga, mapId, vera, 'viewer');
    await share(server, olga, mapId, rex, 'editor');
    const removed = await call(server, 'removeMapMember', { mapId, uid: rex.uid }, olga);
    expect(removed.status).toBe(200);
    await projected(server, removed.body.position);
    await invite(server, olga, mapId, ivan.email, 'viewer');
  });
  afterAll(() => server.close());

  it('viewers and editors write, reply, resolve and reopen; the read route shows them to every member', async () => {
    const byViewer = await call(server, 'addMapComment', { mapId, anchor: point, body: 'Viewer here' }, vera);
    expect(byViewer.status).toBe(200);
    const threadId = byViewer.body.result.commentId as string;
    expect((await call(server, 'replyToMapComment', { mapId, threadId, body: 'Editor reply' }, eddie)).status).toBe(200);
    expect((await call(server, 'resolveMapCommentThread', { mapId, threadId }, eddie)).status).toBe(200);
    const reopened = await call(server, 'reopenMapCommentThread', { mapId, threadId }, vera);
    expect(reopened.status).toBe(200);
    await projected(server, reopened.body.position);
    for (const user of [olga, eddie, vera, admin]) {
      const answer = await read(user);
      expect(answer.status).toBe(200);
      expect(answer.body.result.threads.find((thread) => thread.threadId === threadId)).toMatchObject({
        resolved: false,
        comments: [{ author: { displayName: 'Vera Viewer' }, body: 'Viewer here' }, { author: { displayName: 'Eddie Editor' }, body: 'Editor reply' }],
      });
    }
  });

  it('comments show their authors as they are called now; a removed member’s as they were', async () => {
    const added = await call(server, 'addMapComment', { mapId, anchor: point, body: 'Before the rename' }, eddie);
    const renamed = await fetch(`${server.url}/api/auth/update-profile`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: eddie.cookie },
      body: JSON.stringify({ data: { displayName: 'Edward Editor' } }),
    });
    expect(renamed.status).toBe(200);
    await projected(server, added.body.position);
    const thread = (await read(olga)).body.result.threads.find((candidate) => candidate.threadId === added.body.result.commentId)!;
    expect(thread.comments[0]!.author).toEqual({ uid: eddie.uid, displayName: 'Edward Editor' });
    await fetch(`${server.url}/api/auth/update-profile`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: eddie.cookie },
      body: JSON.stringify({ data: { displayName: 'Eddie Editor' } }),
    });
  });

  it('only its author edits; its author or the owner deletes; an editor cannot delete a viewer’s comment', async () => {
    const byViewer = await call(server, 'addMapComment', { mapId, anchor: point, body: 'Mine' }, vera);
    const commentId = byViewer.body.result.commentId as string;
    expect((await call(server, 'editMapComment', { mapId, commentId, body: 'Not yours' }, eddie)).body.error).toEqual({ status: 'PERMISSION_DENIED', message: 'Only its author can change a comment.' });
    expect((await call(server, 'editMapComment', { mapId, commentId, body: 'Still mine' }, vera)).status).toBe(200);
    expect((await call(server, 'deleteMapComment', { mapId, commentId }, eddie)).body.error).toEqual({
      status: 'PERMISSION_DENIED',
      message: 'Only its author or the map’s owner can delete a comment.',
    });
    expect((await call(server, 'deleteMapComment', { mapId, commentId }, olga)).status).toBe(200);
    const own = await call(server, 'addMapComment', { mapId, anchor: point, body: 'Mine again' }, vera);
    expect((await call(server, 'deleteMapComment', { mapId, commentId: own.body.result.commentId }, vera)).status).toBe(200);
  });

  it('a removed member, an invitee before accepting and a stranger may do nothing; signed out is unauthenticated', async () => {
    const started = await call(server, 'addMapComment', { mapId, anchor: point, body: 'Open to members' }, olga);
    const threadId = started.body.result.commentId as string;
    const payloads: Array<[string, unknown]> = [
      ['addMapComment', { mapId, anchor: point, body: 'Hi' }],
      ['replyToMapComment', { mapId, threadId, body: 'Hi' }],
      ['editMapComment', { mapId, commentId: threadId, body: 'Hi' }],
      ['resolveMapCommentThread', { mapId, threadId }],
      ['reopenMapCommentThread', { mapId, threadId }],
      ['deleteMapComment', { mapId, commentId: threadId }],
    ];
    for (const [name, data] of payloads) {
      for (const [who, user] of [['removed member', rex], ['invitee', ivan], ['stranger', sam]] as const) {
        expect(await call(server, name, data, user), `${name} by the ${who}`).toMatchObject({ status: 403, body: { error: { status: 'PERMISSION_DENIED' } } });
      }
      expect((await call(server, name, data)).status, `${name} signed out`).toBe(401);
    }
    for (const user of [rex, ivan, sam]) expect((await read(user)).status).toBe(403);
    expect((await read()).status).toBe(401);
  });

  it('the live topic: members follow it; a removed member, an invitee and a stranger are refused', async () => {
    const topic = topics.comments(mapId);
    const viewer = await openLive(server, vera);
    viewer.send({ v: LIVE_PROTOCOL_VERSION, type: 'subscribe', topic });
    await viewer.next((m) => m.type === 'snapshot' && m.topic === topic);
    const added = await call(server, 'addMapComment', { mapId, anchor: point, body: 'Pushed to members' }, eddie);
    await viewer.next((m) => m.type === 'snapshot' && m.topic === topic && JSON.stringify(m.data).includes(added.body.result.commentId));
    viewer.close();
    for (const user of [rex, ivan, sam]) {
      const live = await openLive(server, user);
      live.send({ v: LIVE_PROTOCOL_VERSION, type: 'subscribe', topic });
      expect(await live.next((m) => m.type === 'error' && m.topic === topic)).toMatchObject({ code: 'permission-denied' });
      live.close();
    }
  });

  it('a member removed while following the topic is told at once and hears no more', async () => {
    const leaving = await person('Lena Leaving');
    await share(server, olga, mapId, leaving, 'viewer');
    const topic = topics.comments(mapId);
    const live = await openLive(server, leaving);
    live.send({ v: LIVE_PROTOCOL_VERSION, type: 'subscribe', topic });
    await live.next((m) => m.type === 'snapshot' && m.topic === topic);
    const removed = await call(server, 'removeMapMember', { mapId, uid: leaving.uid }, olga);
    await projected(server, removed.body.position);
    expect(await live.next((m) => m.type === 'error' && m.topic === topic)).toMatchObject({ code: 'permission-denied' });
    const after = live.messages.length;
    const added = await call(server, 'addMapComment', { mapId, anchor: point, body: 'Not for Lena' }, olga);
    await projected(server, added.body.position);
    // Another member's socket hears it; Lena's does not.
    const other = await openLive(server, eddie);
    other.send({ v: LIVE_PROTOCOL_VERSION, type: 'subscribe', topic });
    await other.next((m) => m.type === 'snapshot' && m.topic === topic && JSON.stringify(m.data).includes('Not for Lena'));
    other.close();
    expect(live.messages.slice(after).some((m) => m.type === 'snapshot' && JSON.stringify(m.data).includes('Not for Lena'))).toBe(false);
    live.close();
    expect((await call(server, 'addMapComment', { mapId, anchor: point, body: 'Still here?' }, leaving)).status).toBe(403);
  });

  it('mentions mail the members named, with a link to the thread; never the writer, the removed, the invitee or a stranger', async () => {
    const before = new Map<string, number>();
    for (const user of [olga, eddie, vera, rex, ivan, sam]) before.set(user.email, (await mailsTo(user.email)).length);
    const added = await call(
      server,
      'addMapComment',
      { mapId, anchor: point, body: '@Eddie Editor and @Olga Owner: look. (cc @Vera Viewer @Rex Removed @Ivan Invitee @Sam Stranger)' },
      vera,
    );
    expect(added.status).toBe(200);
    const threadId = added.body.result.commentId as string;
    for (const user of [eddie, olga]) {
      const mails = await mailsTo(user.email);
      expect(mails).toHaveLength(before.get(user.email)! + 1);
      expect(mails[0]!.subject).toBe('Vera Viewer mentioned you on “Shared site”');
      expect(mails[0]!.text).toContain(`/maps/${mapId}?comment=${threadId}`);
    }
    for (const user of [vera, rex, ivan, sam]) expect(await mailsTo(user.email)).toHaveLength(before.get(user.email)!);
  });
});
