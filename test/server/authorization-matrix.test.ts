/**
 * The authorization matrix (issue 16, item 7): one row for every callable function (the keys
 * of functionPayloads), every `/api` route the app serves (its own route table) and every live
 * topic kind (events/topics.ts), each with what the owner, an editor, a viewer, a removed
 * member, an invitee who has not accepted yet, a stranger, an anonymous visitor and an admin
 * get. A function, route or topic without a row fails the test: whoever adds one says here
 * who may use it.
 *
 * Expectations: a status (exact), `allowed` (neither 401 nor 403, nor a 5xx: the caller got
 * past the access checks and the rest is the payload's business), and for topics `snapshot`
 * or the error code the subscription is refused with (`closed`: the socket is refused).
 * Bodies of the non-function routes are empty (`{data: {}}`), so the access hooks, which run
 * before validation, show as 401/403 and anything else as the payload's 400.
 */
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functionPayloads, type FunctionName } from '../../events/functions.js';
import { LIVE_PROTOCOL_VERSION, type ServerMessage } from '../../events/live-messages.js';
import { topics } from '../../events/topics.js';
import { DEFAULT_AUTH_LIMITS } from '../../server/security/auth-limits.js';
import { databaseTargets } from '../support/databases.js';
import { invite, share } from '../support/sharing.js';
import { call, openLive, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

const ROLES = ['owner', 'editor', 'viewer', 'removed', 'invitee', 'stranger', 'anonymous', 'admin'] as const;
type Role = (typeof ROLES)[number];
type Expect = number | 'allowed';
type Row = Record<Role, Expect>;
type Person = TestUser & { email: string };

/** A shared map as each role knows it. */
interface World {
  mapId: string;
  historyId: string;
  threadId: string;
  /** The pending invitation of `invitee` (its token and id). */
  invitationToken: string;
  invitationId: string;
  /** A webhook of the map's, its owner's (on: turning it on again records nothing). */
  webhookId: string;
}

/** Statuses by role, in the order of {@link ROLES}. */
function row(...statuses: Expect[]): Row {
  return Object.fromEntries(ROLES.map((role, index) => [role, statuses[index]!])) as Row;
}

// owner, editor, viewer, removed, invitee, stranger, anonymous, admin
const VIEW = row(200, 200, 200, 403, 403, 403, 401, 200);
const EDIT = row(200, 200, 403, 403, 403, 403, 401, 200);
const MANAGE = row(200, 403, 403, 403, 403, 403, 401, 200);
/** `manage`, when the payload names something that does not exist: allowed callers learn that, others only the refusal. */
const MANAGE_MISSING = row(404, 403, 403, 403, 403, 403, 401, 404);
const EDIT_MISSING = row(404, 404, 403, 403, 403, 403, 401, 404);
const SIGNED_IN: Row = row('allowed', 'allowed', 'allowed', 'allowed', 'allowed', 'allowed', 401, 'allowed');
const ANYONE: Row = row('allowed', 'allowed', 'allowed', 'allowed', 'allowed', 'allowed', 'allowed', 'allowed');
const ADMIN_ONLY = row(403, 403, 403, 403, 403, 403, 401, 200);

interface FunctionRow {
  payload: (world: World, role: Role) => unknown;
  expect: Row;
  /** The call changes what the next role would meet: each role that may make it gets a map of its own. */
  fresh?: boolean;
  /** What a refusal must say, where the status alone would not tell an access refusal from another. */
  messages?: Partial<Record<Role, RegExp>>;
}

let unique = 0;

const functionRows: Record<FunctionName, FunctionRow> = {
  createMap: { payload: () => ({ title: 'Matrix map' }), expect: row(200, 200, 200, 200, 200, 200, 401, 200) },
  saveMap: { payload: (w) => ({ id: w.mapId, title: 'Renamed in the matrix' }), expect: EDIT },
  deleteMap: { payload: (w) => ({ id: w.mapId }), expect: MANAGE, fresh: true },
  editMap: { payload: (w) => ({ id: w.mapId, edits: [{ type: 'LayerAdded', layer: { id: `l${++unique}`, name: 'Level' } }] }), expect: EDIT },
  saveMapHistory: { payload: (w) => ({ mapId: w.mapId, name: 'Matrix version' }), expect: EDIT },
  deleteMapHistory: { payload: (w) => ({ mapId: w.mapId, historyMapId: 'no-such-version' }), expect: EDIT_MISSING },
  setMapHistoryName: { payload: (w) => ({ mapId: w.mapId, historyMapId: w.historyId, name: 'Named in the matrix' }), expect: EDIT },
  restoreMapHistory: { payload: (w) => ({ mapId: w.mapId, historyMapId: 'no-such-version' }), expect: EDIT_MISSING },
  adminUpdateMap: { payload: (w) => ({ id: w.mapId, title: 'Set by an admin' }), expect: ADMIN_ONLY },
  // Billing: the caller's own subscription (anyone signed in); a map's slot is its owner's to manage.
  startCheckout: { payload: () => ({ plan: 'basic', interval: 'monthly', quantity: 1 }), expect: row(200, 200, 200, 200, 200, 200, 401, 200) },
  createPortalLink: { payload: () => ({ returnUrl: '/maps' }), expect: row(404, 404, 404, 404, 404, 404, 401, 404) },
  // The owner may, but the map has no licence for a slot here: refused for that, not for access.
  publishMap: {
    payload: (w) => ({ mapId: w.mapId, plan: 'basic' }),
    expect: row(403, 403, 403, 403, 403, 403, 401, 200),
    fresh: true,
    messages: { owner: /Slots only work with registered maps/, editor: /Only the map’s owner/ },
  },
  unpublishMap: { payload: (w) => ({ mapId: w.mapId }), expect: MANAGE, fresh: true },
  registerLicence: { payload: () => ({ mapId: 'x', purchaseCode: 'x' }), expect: row(400, 400, 400, 400, 400, 400, 401, 400) },
  // Sharing.
  inviteToMap: { payload: (w, role) => ({ mapId: w.mapId, email: `matrix-${role}-${++unique}@example.com`, role: 'viewer' }), expect: MANAGE },
  acceptMapInvitation: { payload: (w) => ({ token: w.invitationToken }), expect: row(200, 200, 200, 200, 200, 200, 401, 200), fresh: true },
  revokeMapInvitation: { payload: (w) => ({ mapId: w.mapId, invitationId: 'no-such-invitation' }), expect: MANAGE_MISSING },
  setMapMemberRole: { payload: (w) => ({ mapId: w.mapId, uid: people.editor.uid, role: 'editor' }), expect: MANAGE },
  removeMapMember: { payload: (w) => ({ mapId: w.mapId, uid: people.removed.uid }), expect: MANAGE_MISSING },
  leaveMap: { payload: (w) => ({ mapId: w.mapId }), expect: row(403, 200, 200, 403, 403, 403, 401, 403), fresh: true },
  setMapViewLink: { payload: (w) => ({ mapId: w.mapId, enabled: false }), expect: MANAGE },
  // Publishing (issue 27): editors propose by editing; the owner (and admins) publish, schedule and set the mode.
  setMapPublishMode: { payload: (w) => ({ mapId: w.mapId, mode: 'manual' }), expect: MANAGE },
  publishMapChanges: { payload: (w) => ({ mapId: w.mapId }), expect: MANAGE },
  cancelMapPublishSchedule: { payload: (w) => ({ mapId: w.mapId }), expect: MANAGE },
  // Comments (viewers and editors comment; an author edits their own; the owner deletes any).
  addMapComment: { payload: (w) => ({ mapId: w.mapId, anchor: { kind: 'point', x: 1, y: 2, layer: 'ground' }, body: 'A note' }), expect: VIEW },
  replyToMapComment: { payload: (w) => ({ mapId: w.mapId, threadId: w.threadId, body: 'A reply' }), expect: VIEW },
  editMapComment: { payload: (w) => ({ mapId: w.mapId, commentId: w.threadId, body: 'Changed' }), expect: row(200, 403, 403, 403, 403, 403, 401, 403) },
  resolveMapCommentThread: { payload: (w) => ({ mapId: w.mapId, threadId: w.threadId }), expect: VIEW },
  reopenMapCommentThread: { payload: (w) => ({ mapId: w.mapId, threadId: w.threadId }), expect: VIEW },
  deleteMapComment: { payload: (w) => ({ mapId: w.mapId, commentId: w.threadId }), expect: row(200, 403, 403, 403, 403, 403, 401, 200), fresh: true },
  // API tokens (issue 30): each account's own; revoking one it does not have is not-found for anyone.
  // With a token: authorization-matrix-tokens.test.ts.
  createApiToken: { payload: () => ({ name: 'Matrix token', scopes: ['maps:read'] }), expect: row(200, 200, 200, 200, 200, 200, 401, 200) },
  revokeApiToken: { payload: () => ({ tokenId: 'no-such-token' }), expect: row(404, 404, 404, 404, 404, 404, 401, 404) },
  // Webhooks (issue 30 item 2): a map's are its owner's (and admins') to make and list; an
  // account's own, anyone's signed in; one the caller has no access to is not-found.
  createWebhook: { payload: (w) => ({ mapId: w.mapId, url: 'https://93.184.215.14/matrix-hook', events: ['map.published'] }), expect: MANAGE },
  listWebhooks: { payload: (w) => ({ mapId: w.mapId }), expect: MANAGE },
  deleteWebhook: { payload: () => ({ webhookId: 'no-such-webhook' }), expect: row(404, 404, 404, 404, 404, 404, 401, 404) },
  redeliverWebhook: { payload: () => ({ webhookId: 'no-such-webhook', deliveryId: 'no-such-delivery' }), expect: row(404, 404, 404, 404, 404, 404, 401, 404) },
  sendTestWebhook: { payload: () => ({ webhookId: 'no-such-webhook' }), expect: row(404, 404, 404, 404, 404, 404, 401, 404) },
  // Only who manages the map turns its webhook back on; to anyone else it is not there.
  enableWebhook: { payload: (w) => ({ webhookId: w.webhookId }), expect: row(200, 404, 404, 404, 404, 404, 401, 200) },
  // Live data (issue 30 item 4): whoever may edit the map sets its data source and syncs it; a
  // map of its own (the shared one stays without a source, so a sync is refused as having none: 400).
  setMapDataSource: { payload: (w) => ({ mapId: w.mapId, url: 'https://93.184.215.14/stores.csv', keyColumn: 'id', schedule: 'manual' }), expect: EDIT, fresh: true },
  syncMapNow: { payload: (w) => ({ mapId: w.mapId }), expect: row(400, 400, 403, 403, 403, 403, 401, 400) },
  // A map with no data source has no overridden field: those who may edit it learn that (400).
  resolveSyncOverride: { payload: (w) => ({ mapId: w.mapId, overrides: [{ key: 'store-1', field: 'title', choice: 'keep' }] }), expect: row(400, 400, 403, 403, 403, 403, 401, 400) },
};

/** Every `/api` route but the functions (rows above) and the websocket (topics below), by method and URL pattern. */
const routeRows: Record<string, { expect: Row; body?: boolean; /** Its query string, where the route needs one. */ query?: string; /** Ends the caller's sessions: run with a second session of theirs. */ ownSession?: 'second' | 'throwaway' }> = {
  'GET /api/maps': { expect: SIGNED_IN },
  'GET /api/maps/shared': { expect: SIGNED_IN },
  'GET /api/maps/:id/data': { expect: VIEW },
  'GET /api/maps/:id/export.json': { expect: VIEW },
  'GET /api/maps/:id/locations.csv': { expect: VIEW },
  'GET /api/maps/:id/export.geojson': { expect: VIEW },
  // Whoever may view; the shared map has no calibrated floor nor address, so past the access
  // checks the answer is IMDF's invalid-argument (test/server/imdf-export.test.ts has the archive).
  'GET /api/maps/:id/export.imdf.zip': { expect: row(400, 400, 400, 403, 403, 403, 401, 400) },
  'GET /api/maps/:id/members': { expect: VIEW },
  'GET /api/maps/:id/comments': { expect: VIEW },
  'GET /api/maps/:id/timeline': { expect: VIEW },
  'GET /api/maps/:id/revisions/:revision': { expect: VIEW },
  'GET /api/maps/:id/audit.json': { expect: VIEW },
  'GET /api/maps/:id/audit.csv': { expect: VIEW },
  // Which revision the public sees, the mode and the schedule (issue 27): the editor's publish panel.
  'GET /api/maps/:id/publication': { expect: VIEW },
  // Whether the map's read model has set its stream aside (issue 26): its editors' notice.
  'GET /api/maps/:id/set-aside': { expect: VIEW },
  // Visits' numbers (issue 19): for those who may edit the map, not its viewers.
  'GET /api/maps/:id/insights': { expect: EDIT },
  // How far an import's geocoding has got (issue 29): for those who may edit the map, of their own imports (none here).
  'GET /api/maps/:id/import/progress': { expect: EDIT, query: '?token=matrix-import-1' },
  // A test map: shown to whoever may view it, the same 404 as for no map to anyone else.
  'GET /api/public/maps/:id': { expect: row(200, 200, 200, 404, 404, 404, 404, 200) },
  // The viewer's beacon: no one is identified; `{data: {}}` is no beacon (400) for anyone.
  'POST /api/public/maps/:id/insights': { expect: ANYONE, body: true },
  // A store locator's place search (issue 29 item 4): whoever may see the map, as its JSON.
  'GET /api/public/maps/:id/places': { expect: row(200, 200, 200, 404, 404, 404, 404, 200), query: '?q=Denver' },
  'GET /api/admin/maps': { expect: ADMIN_ONLY },
  // The caller's own API tokens (issue 30).
  'GET /api/account/api-tokens': { expect: SIGNED_IN },
  'GET /api/auth/me': { expect: ANYONE },
  'GET /api/config': { expect: ANYONE },
  'GET /api/client-config': { expect: ANYONE },
  'GET /api/files/limits': { expect: ANYONE },
  'GET /api/templates': { expect: ANYONE },
  'GET /api/templates/:id/preview': { expect: ANYONE },
  'GET /api/health': { expect: ANYONE },
  'GET /api/ready': { expect: ANYONE },
  'GET /api/openapi.json': { expect: ANYONE },
  'POST /api/stripe/webhook': { expect: ANYONE, body: true },
  'POST /api/files': { expect: SIGNED_IN, body: true },
  // Whoever may edit the map, refused before the file is read; past that, `{data: {}}` is not a file it reads (400).
  'POST /api/maps/:id/import': { expect: row('allowed', 'allowed', 403, 403, 403, 403, 401, 'allowed'), body: true },
  'POST /api/files/from-url': { expect: SIGNED_IN, body: true },
  // "Sync now" (issue 30 item 4): whoever may edit the map; the shared map has no data source (400).
  'POST /api/maps/:id/sync': { expect: row(400, 400, 403, 403, 403, 403, 401, 400), body: true },
  'GET /api/maps/:id/data-source': { expect: EDIT },
  'POST /api/auth/register': { expect: ANYONE, body: true },
  'POST /api/auth/login': { expect: ANYONE, body: true },
  'POST /api/auth/logout': { expect: ANYONE, body: true, ownSession: 'second' },
  'POST /api/auth/resend-verification': { expect: SIGNED_IN, body: true },
  'POST /api/auth/reset-request': { expect: ANYONE, body: true },
  'POST /api/auth/reset-password': { expect: ANYONE, body: true },
  'POST /api/auth/verify-email': { expect: ANYONE, body: true },
  'POST /api/auth/update-profile': { expect: SIGNED_IN, body: true },
  'POST /api/auth/change-password': { expect: SIGNED_IN, body: true },
  'POST /api/auth/sign-out-everywhere': { expect: SIGNED_IN, body: true, ownSession: 'throwaway' },
  'POST /api/auth/delete-account': { expect: SIGNED_IN, body: true },
  'POST /api/contact': { expect: ANYONE, body: true },
  'POST /api/templates/:id/instantiate': { expect: SIGNED_IN, body: true },
};

type TopicExpect = 'snapshot' | 'permission-denied' | 'closed';
/** One per kind of topic (the keys of events/topics.ts's builders), with the world's topic of that kind. */
const topicRows: Record<keyof typeof topics, { topic: (world: World) => string; expect: Record<Role, TopicExpect> }> = {
  map: { topic: (w) => topics.map(w.mapId), expect: topicRow(VIEW) },
  comments: { topic: (w) => topics.comments(w.mapId), expect: topicRow(VIEW) },
  // A person's own topics: the owner's, and admins'.
  maps: { topic: () => topics.maps(people.owner.uid), expect: topicRow(MANAGE) },
  billing: { topic: () => topics.billing(people.owner.uid), expect: topicRow(MANAGE) },
};

function topicRow(statuses: Row): Record<Role, TopicExpect> {
  return Object.fromEntries(ROLES.map((role) => [role, statuses[role] === 401 ? 'closed' : statuses[role] === 200 ? 'snapshot' : 'permission-denied'])) as Record<Role, TopicExpect>;
}

let people: Record<Exclude<Role, 'anonymous'>, Person>;

describe.each(databaseTargets)('the authorization matrix on $name', (target) => {
  let server: TestServer;
  let world: World;
  const routes: Array<{ method: string; url: string }> = [];

  const userOf = (role: Role): Person | undefined => (role === 'anonymous' ? undefined : people[role]);

  async function person(name: string): Promise<Person> {
    const email = `${name}-${++unique}-${Date.now()}@example.com`;
    return { ...(await registerUser(server, email)), email };
  }

  /** The owner's map shared with the editor and the viewer; the removed member was an editor; the invitee is invited. */
  async function buildWorld(): Promise<World> {
    const made = await call(server, 'createMap', { title: 'Matrix mall' }, people.owner);
    if (made.status !== 200) throw new Error(`createMap: ${JSON.stringify(made.body)}`);
    const mapId = made.body.result as string;
    await projected(server, made.body.position);
    const version = await call(server, 'saveMapHistory', { mapId, name: 'First' }, people.owner);
    await share(server, people.owner, mapId, people.editor, 'editor');
    await share(server, people.owner, mapId, people.viewer, 'viewer');
    await share(server, people.owner, mapId, people.removed, 'editor');
    const removed = await call(server, 'removeMapMember', { mapId, uid: people.removed.uid }, people.owner);
    await projected(server, removed.body.position);
    const { token, invitationId } = await invite(server, people.owner, mapId, people.invitee.email, 'viewer');
    const thread = await call(server, 'addMapComment', { mapId, anchor: { kind: 'point', x: 5, y: 5, layer: 'ground' }, body: 'Owner’s note' }, people.owner);
    if (thread.status !== 200) throw new Error(`addMapComment: ${JSON.stringify(thread.body)}`);
    await projected(server, thread.body.position);
    const webhook = await call(server, 'createWebhook', { mapId, url: 'https://93.184.215.14/matrix-hook', events: ['map.published'] }, people.owner);
    if (webhook.status !== 200) throw new Error(`createWebhook: ${JSON.stringify(webhook.body)}`);
    return { mapId, historyId: version.body.result.historyId, threadId: thread.body.result.commentId, invitationToken: token, invitationId, webhookId: webhook.body.result.webhookId };
  }

  /**
   * A world's map leaves the owner's test slots (an admin deletes it, if it is still there), and
   * its webhook goes with it: an account holds at most MAX_WEBHOOKS, and every world makes one.
   */
  async function dispose(w: Pick<World, 'mapId'> & { webhookId?: string }): Promise<void> {
    if (w.webhookId) await call(server, 'deleteWebhook', { webhookId: w.webhookId }, people.owner);
    const deleted = await call(server, 'deleteMap', { id: w.mapId }, people.admin);
    if (deleted.body.position) await projected(server, deleted.body.position);
  }

  beforeAll(async () => {
    server = await startTestServer(target, {
      authLimits: { ...DEFAULT_AUTH_LIMITS, registerPerIp: { max: 1000, windowMs: 60_000 }, loginPerIp: { max: 1000, windowMs: 60_000 } },
      onRoute: (route: RouteOptions) => {
        for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push({ method, url: route.url ?? '' });
      },
    });
    people = {
      owner: await person('owner'),
      editor: await person('editor'),
      viewer: await person('viewer'),
      removed: await person('removed'),
      invitee: await person('invitee'),
      stranger: await person('stranger'),
      admin: { ...(await registerUser(server, 'admin@example.com')), email: 'admin@example.com' },
    };
    world = await buildWorld();
    // Seven accounts (scrypt) and a shared map, on a machine other suites share.
  }, 180_000);
  afterAll(() => server?.close());

  it('has a row for every function, every /api route and every kind of topic', () => {
    expect(Object.keys(functionRows).sort()).toEqual(Object.keys(functionPayloads).sort());
    const served = routes
      .filter((route) => route.url.startsWith('/api/') && !route.url.startsWith('/api/fn/') && route.url !== '/api/live')
      .map((route) => `${route.method} ${route.url}`);
    expect([...new Set(served)].sort()).toEqual(Object.keys(routeRows).sort());
    expect(Object.keys(topicRows).sort()).toEqual(Object.keys(topics).sort());
  });

  it.each(Object.keys(functionPayloads) as FunctionName[])('function %s', async (name) => {
    const entry = functionRows[name];
    const answers: Partial<Record<Role, number>> = {};
    for (const role of ROLES) {
      const allowed = entry.expect[role] === 200;
      const own = entry.fresh && allowed ? await buildWorld() : null;
      const answer = await call(server, name, entry.payload(own ?? world, role), userOf(role));
      answers[role] = answer.status;
      const message = entry.messages?.[role];
      if (message) expect(answer.body?.error?.message, `${name} as ${role}`).toMatch(message);
      if (answer.body?.position) await projected(server, answer.body.position);
      if (name === 'createMap' && answer.status === 200) await dispose({ mapId: answer.body.result });
      if (own) await dispose(own);
    }
    expect(answers).toEqual(entry.expect);
    // A row that gives each allowed role a map of its own builds up to eight.
  }, 180_000);

  it.each(Object.keys(routeRows))('route %s', async (key) => {
    const entry = routeRows[key]!;
    const [method, pattern] = key.split(' ') as [string, string];
    const url = pattern.replace(':id', pattern.startsWith('/api/templates') ? 'mall' : world.mapId).replace(':revision', '0') + (entry.query ?? '');
    const answers: Partial<Record<Role, Expect>> = {};
    for (const role of ROLES) {
      let user: TestUser | undefined = userOf(role);
      if (user && entry.ownSession === 'throwaway') user = await person(`throwaway-${role}`);
      if (user && entry.ownSession === 'second') user = await secondSession(userOf(role)!);
      const response = await fetch(`${server.url}${url}`, {
        method,
        headers: { ...(user ? { cookie: user.cookie } : {}), ...(entry.body ? { 'content-type': 'application/json' } : {}) },
        ...(entry.body ? { body: JSON.stringify({ data: {} }) } : {}),
      });
      await response.arrayBuffer();
      const wanted = entry.expect[role];
      answers[role] = wanted === 'allowed' && response.status !== 401 && response.status !== 403 && response.status < 500 ? 'allowed' : response.status;
    }
    expect(answers).toEqual(entry.expect);
    // Signing-out rows register or sign in a throwaway session per role.
  }, 120_000);

  it.each(Object.keys(topicRows) as Array<keyof typeof topics>)('topic %s', async (kind) => {
    const entry = topicRows[kind];
    const topic = entry.topic(world);
    const answers: Partial<Record<Role, TopicExpect>> = {};
    for (const role of ROLES) {
      const live = await openLive(server, userOf(role));
      const first = await Promise.race([live.next((m) => m.type === 'welcome').then(() => 'welcome' as const), live.closed.then(() => 'closed' as const)]);
      if (first === 'closed') {
        answers[role] = 'closed';
        continue;
      }
      live.send({ v: LIVE_PROTOCOL_VERSION, type: 'subscribe', topic });
      const answer = (await live.next((m: ServerMessage) => (m.type === 'snapshot' || m.type === 'error') && m.topic === topic)) as ServerMessage;
      answers[role] = answer.type === 'snapshot' ? 'snapshot' : (answer as Extract<ServerMessage, { type: 'error' }>).code as TopicExpect;
      live.close();
    }
    expect(answers).toEqual(entry.expect);
  });

  /** Another session of the same account (logging out ends only that one). */
  async function secondSession(user: Person): Promise<TestUser> {
    const response = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data: { email: user.email, password: 'a long enough password' } }),
    });
    if (!response.ok) throw new Error(`login failed: ${response.status} ${await response.text()}`);
    return { uid: user.uid, cookie: response.headers.get('set-cookie')!.split(';')[0]! };
  }
});
