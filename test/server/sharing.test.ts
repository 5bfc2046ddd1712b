/**
 * Sharing a map against the real server (issue 16): the invitation mailed with its link,
 * accepted by another account, the members list and "Shared with me", editors editing and
 * viewers refused, role changes and removals taking effect at once on open sockets, the view
 * link, and shared maps never counting against the member's test slots.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_PROTOCOL_VERSION, type ServerMessage } from '../../events/live-messages.js';
import type { MapMembers, SharedMapItem } from '../../events/sharing-api.js';
import { topics } from '../../events/topics.js';
import { buildApp } from '../../server/app.js';
import { INVITATIONS_PER_HOUR } from '../../server/commands/sharing-commands.js';
import { loadConfig } from '../../server/config.js';
import { openPostgresDatabase } from '../../server/db/postgres-database.js';
import { openServices } from '../../server/services.js';
import { databaseTargets, postgresUrl } from '../support/databases.js';
import { invitationTokenFromOutbox, invite, share } from '../support/sharing.js';
import { call, openLive, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

type Person = TestUser & { email: string };

async function person(server: TestServer, name: string): Promise<Person> {
  const email = `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  return { ...(await registerUser(server, email)), email };
}

async function get(server: TestServer, path: string, user?: TestUser) {
  const response = await fetch(`${server.url}${path}`, { headers: user ? { cookie: user.cookie } : {} });
  return { status: response.status, body: (await response.json()) as any };
}

async function newMap(server: TestServer, owner: TestUser, title = 'Shared mall'): Promise<string> {
  const made = await call(server, 'createMap', { title }, owner);
  expect(made.status).toBe(200);
  await projected(server, made.body.position);
  return made.body.result as string;
}

describe.each(databaseTargets)('sharing a map on $name', (target) => {
  let server: TestServer;
  let ada: Person;
  let ben: Person;
  let cy: Person;
  let dee: Person;
  let admin: Person;

  beforeAll(async () => {
    server = await startTestServer(target);
    [ada, ben, cy, dee] = [await person(server, 'ada'), await person(server, 'ben'), await person(server, 'cy'), await person(server, 'dee')];
    admin = { ...(await registerUser(server, 'admin@example.com')), email: 'admin@example.com' };
  }, 120_000);
  afterAll(() => server.close());

  it('mails the invitation with its link; the invitee accepts and sees the map in "Shared with me"', async () => {
    const mapId = await newMap(server, ada, 'Harbour mall');
    const invited = await call(server, 'inviteToMap', { mapId, email: ben.email.toUpperCase(), role: 'editor' }, ada);
    expect(invited.status).toBe(200);
    await projected(server, invited.body.position);
    const mail = (await server.services.outbox!.list(50)).find((message) => message.to === ben.email)!;
    expect(mail.subject).toContain('“Harbour mall”');
    expect(mail.text).toMatch(/invited you to edit the map “Harbour mall”/);
    const token = await invitationTokenFromOutbox(server, ben.email);
    expect(mail.text).toContain(`/invitations/${token}`);

    // Pending: the owner sees it; the invitee is not a member yet.
    const pending = await get(server, `/api/maps/${mapId}/members`, ada);
    expect(pending.status).toBe(200);
    expect((pending.body.result as MapMembers).invitations).toEqual([expect.objectContaining({ email: ben.email, role: 'editor', invitedBy: ada.uid })]);
    expect((await get(server, `/api/maps/${mapId}/data`, ben)).status).toBe(403);

    const accepted = await call(server, 'acceptMapInvitation', { token }, ben);
    expect(accepted).toMatchObject({ status: 200, body: { result: { mapId } } });
    await projected(server, accepted.body.position);
    // Once: another account cannot use the same link.
    expect(await call(server, 'acceptMapInvitation', { token }, cy)).toMatchObject({ status: 403, body: { error: { message: 'This invitation has already been used.' } } });
    // A made-up token is not valid.
    expect((await call(server, 'acceptMapInvitation', { token: 'x'.repeat(43) }, cy)).status).toBe(404);

    const members = (await get(server, `/api/maps/${mapId}/members`, ben)).body.result as MapMembers;
    expect(members).toMatchObject({ mapId, owner: { uid: ada.uid, displayName: 'Test User', email: ada.email }, invitations: [], viewLink: null, yourRole: 'editor' });
    expect(members.members).toEqual([expect.objectContaining({ uid: ben.uid, email: ben.email, role: 'editor' })]);

    const shared = (await get(server, '/api/maps/shared', ben)).body.result as SharedMapItem[];
    expect(shared).toEqual([expect.objectContaining({ id: mapId, title: 'Harbour mall', role: 'editor', owner: { uid: ada.uid, displayName: 'Test User' } })]);
    expect((await get(server, '/api/maps/shared', ada)).body.result).toEqual([]);

    // The editor edits and saves versions; the timeline says who shared what.
    const edited = await call(server, 'editMap', { id: mapId, edits: [{ type: 'LayerAdded', layer: { id: 'l2', name: 'Level 2' } }] }, ben);
    expect(edited.status).toBe(200);
    expect((await call(server, 'saveMapHistory', { mapId, name: 'Ben’s version' }, ben)).status).toBe(200);
    // Managing stays the owner's.
    expect((await call(server, 'deleteMap', { id: mapId }, ben)).status).toBe(403);
    expect((await call(server, 'inviteToMap', { mapId, email: cy.email, role: 'viewer' }, ben)).status).toBe(403);
    expect((await call(server, 'publishMap', { mapId, plan: 'basic' }, ben)).status).toBe(403);
    const timeline = await get(server, `/api/maps/${mapId}/timeline`, ben);
    const words = (timeline.body.result.items as Array<{ summary: string }>).map((item) => item.summary);
    expect(words).toEqual(expect.arrayContaining([`Test User invited ${ben.email} as editor`, 'Test User joined as editor']));
    expect(JSON.stringify(timeline.body)).not.toContain(token);
  });

  it('a viewer follows the map but is refused edits with why; shared maps use none of the member’s test slots', async () => {
    const mapId = await newMap(server, ada);
    await share(server, ada, mapId, cy, 'viewer');
    expect((await get(server, `/api/maps/${mapId}/data`, cy)).status).toBe(200);
    expect((await get(server, `/api/maps/${mapId}/timeline`, cy)).status).toBe(200);
    expect(await call(server, 'saveMap', { id: mapId, title: 'Mine now' }, cy)).toMatchObject({
      status: 403,
      body: { error: { message: 'You can view this map but not change it: ask its owner to make you an editor.' } },
    });
    // Cy's own two free test maps are still free.
    expect((await call(server, 'createMap', { title: 'Cy 1' }, cy)).status).toBe(200);
    expect((await call(server, 'createMap', { title: 'Cy 2' }, cy)).status).toBe(200);
  });

  it('a role change and a removal reach open sockets at once; the removed member can no longer edit', async () => {
    const owner = await person(server, 'owner');
    const mapId = await newMap(server, owner);
    await share(server, owner, mapId, dee, 'editor');
    const live = await openLive(server, dee);
    await live.next((m) => m.type === 'welcome');
    const topic = topics.map(mapId);
    live.send({ v: LIVE_PROTOCOL_VERSION, type: 'subscribe', topic });
    await live.next((m) => m.type === 'snapshot' && m.topic === topic);

    const demoted = await call(server, 'setMapMemberRole', { mapId, uid: dee.uid, role: 'viewer' }, owner);
    expect(demoted.status).toBe(200);
    expect(await live.next((m: ServerMessage) => m.type === 'access' && m.topic === topic)).toEqual({ v: LIVE_PROTOCOL_VERSION, type: 'access', topic, role: 'viewer' });
    await projected(server, demoted.body.position);
    expect((await call(server, 'editMap', { id: mapId, edits: [{ type: 'LayerAdded', layer: { id: 'x', name: 'X' } }] }, dee)).status).toBe(403);

    const removed = await call(server, 'removeMapMember', { mapId, uid: dee.uid }, owner);
    expect(removed.status).toBe(200);
    expect(await live.next((m: ServerMessage) => m.type === 'error' && m.topic === topic)).toEqual({
      v: LIVE_PROTOCOL_VERSION, type: 'error', topic, code: 'permission-denied', message: 'You no longer have access to this map.',
    });
    await projected(server, removed.body.position);
    expect((await call(server, 'editMap', { id: mapId, edits: [{ type: 'LayerAdded', layer: { id: 'y', name: 'Y' } }] }, dee)).status).toBe(403);
    expect((await get(server, `/api/maps/${mapId}/data`, dee)).status).toBe(403);
    expect((await get(server, '/api/maps/shared', dee)).body.result.some((item: SharedMapItem) => item.id === mapId)).toBe(false);
    // Unsubscribed: a later change of the map is not pushed to them.
    const count = live.messages.length;
    const saved = await call(server, 'saveMap', { id: mapId, title: 'After removal' }, owner);
    await projected(server, saved.body.position);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(live.messages.slice(count).some((m) => m.type === 'snapshot' && m.topic === topic)).toBe(false);
    live.close();
  });

  it('revokes an invitation; members leave; the owner cannot', async () => {
    const owner = await person(server, 'owner');
    const mapId = await newMap(server, owner);
    const { invitationId, token } = await invite(server, owner, mapId, 'nobody-yet@example.com', 'viewer');
    const revoked = await call(server, 'revokeMapInvitation', { mapId, invitationId }, owner);
    expect(revoked.status).toBe(200);
    await projected(server, revoked.body.position);
    expect(await call(server, 'acceptMapInvitation', { token }, cy)).toMatchObject({ status: 403, body: { error: { message: 'This invitation was withdrawn by the map’s owner.' } } });
    expect(((await get(server, `/api/maps/${mapId}/members`, owner)).body.result as MapMembers).invitations).toEqual([]);

    await share(server, owner, mapId, cy, 'viewer');
    const left = await call(server, 'leaveMap', { mapId }, cy);
    expect(left.status).toBe(200);
    await projected(server, left.body.position);
    expect((await get(server, `/api/maps/${mapId}/data`, cy)).status).toBe(403);
    expect(await call(server, 'leaveMap', { mapId }, owner)).toMatchObject({ status: 403, body: { error: { message: 'The owner cannot leave their own map.' } } });
  });

  it('a map sends at most 50 invitations an hour (each is a mail to any address)', async () => {
    const owner = await person(server, 'owner');
    const mapId = await newMap(server, owner);
    for (let n = 0; n < INVITATIONS_PER_HOUR.max; n++) {
      expect((await call(server, 'inviteToMap', { mapId, email: `guest${n}@example.com`, role: 'viewer' }, owner)).status).toBe(200);
    }
    expect((await call(server, 'inviteToMap', { mapId, email: 'one-too-many@example.com', role: 'viewer' }, owner)).status).toBe(429);
    expect((await server.services.outbox!.list(500)).some((message) => message.to === 'one-too-many@example.com')).toBe(false);
  }, 120_000);

  it('the view link shows an unpublished map to anyone holding it, until it is made anew or turned off', async () => {
    const owner = await person(server, 'owner');
    const mapId = await newMap(server, owner, 'Link mall');
    expect((await get(server, `/api/public/maps/${mapId}`)).status).toBe(404);
    const set = await call(server, 'setMapViewLink', { mapId, enabled: true }, owner);
    expect(set.status).toBe(200);
    const url = new URL(set.body.result.url as string);
    expect(url.pathname).toBe(`/m/${mapId}`);
    const key = url.searchParams.get('key')!;
    await projected(server, set.body.position);
    expect(await get(server, `/api/public/maps/${mapId}?key=${key}`)).toMatchObject({ status: 200, body: { result: { id: mapId, test: true } } });
    expect((await get(server, `/api/public/maps/${mapId}?key=${key}x`)).status).toBe(404);
    // The owner and admins see the link again; members do not.
    expect(((await get(server, `/api/maps/${mapId}/members`, owner)).body.result as MapMembers).viewLink).toBe(set.body.result.url);
    expect(((await get(server, `/api/maps/${mapId}/members`, admin)).body.result as MapMembers).viewLink).toBe(set.body.result.url);
    await share(server, owner, mapId, ben, 'editor');
    expect(((await get(server, `/api/maps/${mapId}/members`, ben)).body.result as MapMembers).viewLink).toBeNull();
    expect((await call(server, 'setMapViewLink', { mapId, enabled: true }, ben)).status).toBe(403);
    // The key is in no event: not in the audit log.
    expect((await fetch(`${server.url}/api/maps/${mapId}/audit.json`, { headers: { cookie: owner.cookie } }).then((r) => r.text()))).not.toContain(key);

    const again = await call(server, 'setMapViewLink', { mapId, enabled: true }, owner);
    await projected(server, again.body.position);
    expect((await get(server, `/api/public/maps/${mapId}?key=${key}`)).status).toBe(404);
    const newKey = new URL(again.body.result.url as string).searchParams.get('key')!;
    expect((await get(server, `/api/public/maps/${mapId}?key=${newKey}`)).status).toBe(200);
    const off = await call(server, 'setMapViewLink', { mapId, enabled: false }, owner);
    expect(off).toMatchObject({ status: 200, body: { result: { url: null } } });
    await projected(server, off.body.position);
    expect((await get(server, `/api/public/maps/${mapId}?key=${newKey}`)).status).toBe(404);
  });
});

describe.skipIf(!postgresUrl)('a removal reaches the sockets of another server process at once', () => {
  let server: TestServer;
  let other: FastifyInstance;
  let otherUrl: string;

  beforeAll(async () => {
    server = await startTestServer(databaseTargets.find((t) => t.name === 'postgres')!);
    // A second process's app on the same database: no projections of its own, its hub LISTENs.
    const db = await openPostgresDatabase(server.database.url!);
    const services = await openServices(loadConfig({ PUBLIC_URL: server.url }), { db, logger: { info: () => {}, error: () => {} } });
    other = await buildApp(services);
    await other.listen({ port: 0, host: '127.0.0.1' });
    const address = other.server.address();
    otherUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    await other?.close();
    await server?.close();
  });

  it('the member following the map on the other process is told and unsubscribed', async () => {
    const owner = await person(server, 'owner');
    const member = await person(server, 'member');
    const mapId = await newMap(server, owner);
    await share(server, owner, mapId, member, 'viewer');
    const live = await openLive({ ...server, url: otherUrl }, member);
    await live.next((m) => m.type === 'welcome');
    const topic = topics.map(mapId);
    live.send({ v: LIVE_PROTOCOL_VERSION, type: 'subscribe', topic });
    await live.next((m) => m.type === 'snapshot' && m.topic === topic);
    const promoted = await call(server, 'setMapMemberRole', { mapId, uid: member.uid, role: 'editor' }, owner);
    expect(promoted.status).toBe(200);
    expect(await live.next((m: ServerMessage) => m.type === 'access' && m.topic === topic)).toMatchObject({ role: 'editor' });
    expect((await call(server, 'removeMapMember', { mapId, uid: member.uid }, owner)).status).toBe(200);
    expect(await live.next((m: ServerMessage) => m.type === 'error' && m.topic === topic)).toMatchObject({ code: 'permission-denied', message: 'You no longer have access to this map.' });
    live.close();
  });
});
