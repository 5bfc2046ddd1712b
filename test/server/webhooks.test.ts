/**
 * Outbound webhooks (issue 30 item 2) against a real HTTP receiver on loopback
 * (ALLOW_LOOPBACK_TARGETS=1): the signature verifies with the README's recipe, events become
 * deliveries by the reactor that follows the log (map.changed debounced with the location ids),
 * failures are retried with backoff on the test's clock, nothing is lost across a restart of
 * the reactor or a worker that died mid-delivery, a replayed event is delivered once, a webhook
 * failing for over a day is disabled with one mail and can be turned back on, map.published and
 * map.unpublished reach a receiver when a map is published and unpublished, and loopback is
 * refused without the flag.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../server/clock.js';
import { claimDueDeliveries } from '../../server/webhooks/webhook-deliveries.js';
import { DirectionsBatcher } from '../../server/webhooks/webhook-directions.js';
import { webhookReactor } from '../../server/webhooks/webhook-reactor.js';
import { checkWebhookTarget } from '../../server/webhooks/webhook-target.js';
import { DISABLE_AFTER_FAILURES, MAX_RETRY_MS } from '../../server/webhooks/webhook-worker.js';
import { databaseTargets } from '../support/databases.js';
import { call, createMapAs, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver that records what it gets and answers the next status in `answers` (200 when none is left). */
async function startReceiver() {
  const received: Received[] = [];
  const answers: number[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.statusCode = answers.shift() ?? 200;
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { url, received, answers, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The README's recipe, as a receiver writes it. */
function verify(secret: string, header: string, rawBody: string, nowSeconds: number): boolean {
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=')));
  if (Math.abs(nowSeconds - Number(parts.t)) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${parts.t}.${rawBody}`).digest('hex');
  return parts.v1?.length === expected.length && timingSafeEqual(Buffer.from(parts.v1), Buffer.from(expected));
}

let offsetMs = 0;
const clock: Clock = { now: () => new Date(Date.now() + offsetMs) };

describe('webhook targets', () => {
  it('refuses http, loopback and private addresses without ALLOW_LOOPBACK_TARGETS, and private ones with it', async () => {
    const off = { allowLoopback: false };
    const on = { allowLoopback: true };
    await expect(checkWebhookTarget('http://93.184.215.14/hook', off)).rejects.toThrow('must start with https://');
    await expect(checkWebhookTarget('https://127.0.0.1/hook', off)).rejects.toThrow('not a public one');
    await expect(checkWebhookTarget('https://[::1]/hook', off)).rejects.toThrow('not a public one');
    await expect(checkWebhookTarget('https://169.254.169.254/latest', on)).rejects.toThrow('not a public one');
    await expect(checkWebhookTarget('https://10.0.0.1/hook', on)).rejects.toThrow('not a public one');
    await expect(checkWebhookTarget('https://user:pw@93.184.215.14/hook', off)).rejects.toThrow('user name or password');
    await expect(checkWebhookTarget('https://hook.example/x', { allowLoopback: false, resolve: async () => [{ address: '192.168.1.10', family: 4 }] })).rejects.toThrow(
      'not a public one',
    );
    expect(await checkWebhookTarget('https://93.184.215.14/hook', off)).toBe('https://93.184.215.14/hook');
    expect(await checkWebhookTarget('http://127.0.0.1:9/hook', on)).toBe('http://127.0.0.1:9/hook');
  });
});

describe.each(databaseTargets)('outbound webhooks on $name', (target) => {
  let server: TestServer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let owner: TestUser;
  const ownerEmail = `webhook-owner-${Date.now()}@example.com`;
  let mapId: string;
  let webhookId: string;
  let secret: string;

  const run = () => server.app.webhooks.worker.runOnce();
  const reactorAt = async (position: string) => {
    await projected(server, position);
    const [commit, prepare] = position.split(':').map(BigInt) as [bigint, bigint];
    await server.app.webhooks.reactor.waitFor({ commit, prepare });
  };
  const list = async (payload: { mapId?: string }, user = owner) => {
    const answer = await call(server, 'listWebhooks', payload, user);
    expect(answer.status).toBe(200);
    return answer.body.result.webhooks as Array<{ webhookId: string; disabled: boolean; deliveries: Array<{ deliveryId: string; type: string; status: string; attempts: number; responseCode: number | null }> }>;
  };
  const comment = async (body: string) => {
    const added = await call(server, 'addMapComment', { mapId, anchor: { kind: 'point', x: 1, y: 2, layer: 'ground' }, body }, owner);
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    await reactorAt(added.body.position);
    return added.body.result.commentId as string;
  };

  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startTestServer(target, { clock, env: { ALLOW_LOOPBACK_TARGETS: '1' } });
    owner = await registerUser(server, ownerEmail);
    mapId = await createMapAs(server, owner, 'Webhook mall', {
      layers: [{ id: 'ground', name: 'Ground', file: null }],
      locations: [],
      groups: [],
    });
    const made = await call(server, 'createWebhook', { mapId, url: receiver.url, events: ['comment.created', 'map.changed'] }, owner);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    ({ webhookId, secret } = made.body.result);
    expect(secret).toMatch(/^whsec_/);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  it('delivers comment.created signed the documented way, once, with an id', async () => {
    receiver.received.length = 0;
    const commentId = await comment('Signed, sealed');
    await run();
    expect(receiver.received).toHaveLength(1);
    const [got] = receiver.received as [Received];
    const signature = got.headers['mapfold-signature'] as string;
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verify(secret, signature, got.body, Math.floor(clock.now().getTime() / 1000))).toBe(true);
    expect(verify('whsec_not-the-secret-at-all-nope', signature, got.body, Math.floor(clock.now().getTime() / 1000))).toBe(false);
    const body = JSON.parse(got.body);
    expect(body).toMatchObject({ type: 'comment.created', data: { mapId, commentId, body: 'Signed, sealed' } });
    expect(body.id).toMatch(/^evt_/);
    expect(Object.keys(body).sort()).toEqual(['created', 'data', 'id', 'type']);
    const [listed] = await list({ mapId });
    expect(listed!.deliveries[0]).toMatchObject({ type: 'comment.created', status: 'delivered', attempts: 1, responseCode: 200 });
    // Nothing more goes out.
    await run();
    expect(receiver.received).toHaveLength(1);
  });

  it('debounces map.changed per map and carries the changed location ids', async () => {
    receiver.received.length = 0;
    for (const id of ['shop-1', 'shop-2']) {
      const edited = await call(server, 'editMap', { id: mapId, edits: [{ type: 'LocationAdded', location: { id, title: id, layer: 'ground', position: { x: 10, y: 10 } } }] }, owner);
      expect(edited.status, JSON.stringify(edited.body)).toBe(200);
      await reactorAt(edited.body.position);
    }
    await run();
    expect(receiver.received).toHaveLength(0);
    offsetMs += 31_000;
    await run();
    expect(receiver.received).toHaveLength(1);
    const body = JSON.parse(receiver.received[0]!.body);
    expect(body.type).toBe('map.changed');
    expect(body.data).toEqual({ mapId, locationIds: ['shop-1', 'shop-2'] });
  });

  it('retries a failing receiver with backoff on the clock, and redelivers and sends a test event on demand', async () => {
    receiver.received.length = 0;
    receiver.answers.push(500, 503);
    await comment('Try again');
    await run();
    expect(receiver.received).toHaveLength(1);
    let [listed] = await list({ mapId });
    expect(listed!.deliveries[0]).toMatchObject({ status: 'pending', attempts: 1, responseCode: 500 });
    // Not before the backoff's 30 s.
    offsetMs += 20_000;
    await run();
    expect(receiver.received).toHaveLength(1);
    offsetMs += 11_000;
    await run();
    expect(receiver.received).toHaveLength(2);
    // Then 60 s.
    offsetMs += 45_000;
    await run();
    expect(receiver.received).toHaveLength(2);
    offsetMs += 16_000;
    await run();
    expect(receiver.received).toHaveLength(3);
    [listed] = await list({ mapId });
    expect(listed!.deliveries[0]).toMatchObject({ status: 'delivered', attempts: 3, responseCode: 200 });
    // The same event each time: one id to deduplicate by.
    expect(new Set(receiver.received.map((r) => JSON.parse(r.body).id)).size).toBe(1);

    const again = await call(server, 'redeliverWebhook', { webhookId, deliveryId: listed!.deliveries[0]!.deliveryId }, owner);
    expect(again.status).toBe(200);
    const test = await call(server, 'sendTestWebhook', { webhookId }, owner);
    expect(test.status).toBe(200);
    await run();
    expect(receiver.received).toHaveLength(5);
    expect(JSON.parse(receiver.received[3]!.body).id).toBe(JSON.parse(receiver.received[0]!.body).id);
    expect(JSON.parse(receiver.received[4]!.body).type).toBe('webhook.test');
  });

  it('delivers map.published and map.unpublished, signed with the documented body, when the map is published and unpublished', async () => {
    const hooked = await startReceiver();
    try {
      const shop = await createMapAs(server, owner, 'Shop to publish', { layers: [{ id: 'ground', name: 'Ground', file: null }], locations: [], groups: [] });
      const made = await call(server, 'createWebhook', { mapId: shop, url: hooked.url, events: ['map.published', 'map.unpublished'] }, owner);
      expect(made.status).toBe(200);
      const hookSecret = made.body.result.secret as string;
      const delivered = () =>
        hooked.received.map((got) => {
          const now = Math.floor(clock.now().getTime() / 1000);
          expect(verify(hookSecret, got.headers['mapfold-signature'] as string, got.body, now)).toBe(true);
          const body = JSON.parse(got.body);
          expect(Object.keys(body).sort()).toEqual(['created', 'data', 'id', 'type']);
          expect(body.id).toMatch(/^evt_/);
          expect(Number.isNaN(Date.parse(body.created))).toBe(false);
          return { type: body.type, data: body.data };
        });

      // The owner has no subscription here: an admin puts the map in a slot (admins' slots are
      // unlimited), which publishes it, its document as it is its first published revision.
      const admin = await registerUser(server, 'admin@example.com');
      const on = await call(server, 'publishMap', { mapId: shop, plan: 'basic' }, admin);
      expect(on.status, JSON.stringify(on.body)).toBe(200);
      await reactorAt(on.body.position);
      await run();
      expect(delivered()).toEqual([{ type: 'map.published', data: { mapId: shop, revision: expect.any(String), rollback: false } }]);

      // Its owner takes it down: map.unpublished, and why.
      const off = await call(server, 'unpublishMap', { mapId: shop }, owner);
      expect(off.status, JSON.stringify(off.body)).toBe(200);
      await reactorAt(off.body.position);
      await run();
      expect(delivered().slice(1)).toEqual([{ type: 'map.unpublished', data: { mapId: shop, reason: 'unpublished' } }]);

      // A test map edited and taken down again is no news: nothing more is sent.
      const again = await call(server, 'unpublishMap', { mapId: shop }, owner);
      if (again.body.position) await reactorAt(again.body.position);
      await run();
      expect(hooked.received).toHaveLength(2);
    } finally {
      await hooked.close();
    }
  });

  it('loses nothing across a restart of the reactor or a worker that died mid-delivery, and delivers a replayed event once', async () => {
    receiver.received.length = 0;
    await server.app.webhooks.reactor.stop();
    const added = await call(server, 'addMapComment', { mapId, anchor: { kind: 'point', x: 1, y: 2, layer: 'ground' }, body: 'While it was down' }, owner);
    expect(added.status).toBe(200);
    await projected(server, added.body.position);
    await run();
    expect(receiver.received).toHaveLength(0);
    // The only worker dies (stopped: it polls no more) ...
    await server.app.webhooks.worker.stop();
    await server.app.webhooks.reactor.start();
    await reactorAt(added.body.position);
    // ... after it claimed the delivery, before sending it. the delivery and dies before sending it.
    const claimed = await claimDueDeliveries(server.services.db, clock.now(), 60_000, 10);
    expect(claimed).toHaveLength(1);
    await run();
    expect(receiver.received).toHaveLength(0);
    offsetMs += 61_000;
    await run();
    expect(receiver.received).toHaveLength(1);
    expect(JSON.parse(receiver.received[0]!.body).data.body).toBe('While it was down');
    server.app.webhooks.worker.start();
    // The reactor handed the same event again (at least once): no second delivery.
    const [recorded] = (await server.services.store.readStream(`map-comments-${mapId}`)).slice(-1);
    const reactor = webhookReactor({
      db: server.services.db,
      ids: server.services.ids,
      clock,
      ownerOf: async () => owner.uid,
    });
    await reactor.handle(recorded!);
    await run();
    expect(receiver.received).toHaveLength(1);
  });

  it('turns the directions counted in a window into one directions.requested per map', async () => {
    const made = await call(server, 'createWebhook', { mapId, url: receiver.url, events: ['directions.requested'] }, owner);
    expect(made.status).toBe(200);
    receiver.received.length = 0;
    const batcher = new DirectionsBatcher();
    batcher.add(mapId, 'shop-1', 2);
    batcher.add(mapId, 'shop-2', 1);
    batcher.add(mapId, 'shop-1', 3);
    const deps = { db: server.services.db, ids: server.services.ids, ownerOf: async () => owner.uid };
    expect(await batcher.flush(deps, clock.now())).toBe(1);
    expect(await batcher.flush(deps, clock.now())).toBe(0);
    await run();
    expect(receiver.received).toHaveLength(1);
    const body = JSON.parse(receiver.received[0]!.body);
    expect(body).toMatchObject({ type: 'directions.requested', data: { mapId, directions: [{ locationId: 'shop-1', count: 5 }, { locationId: 'shop-2', count: 1 }] } });
    expect((await call(server, 'deleteWebhook', { webhookId: made.body.result.webhookId }, owner)).status).toBe(200);
  });

  it('disables a webhook after a long run of failures and mails its owner once', async () => {
    const failing = await startReceiver();
    try {
      const made = await call(server, 'createWebhook', { url: failing.url, events: ['comment.created'] }, owner);
      expect(made.status).toBe(200);
      failing.answers.push(...Array<number>(100).fill(500));
      await comment('Nobody is listening');
      let rounds = 0;
      while (rounds < 40 && !(await list({})).find((w) => w.webhookId === made.body.result.webhookId)!.disabled) {
        await server.app.webhooks.worker.runOnce();
        offsetMs += MAX_RETRY_MS;
        // Keep it failing: a test event each round.
        await call(server, 'sendTestWebhook', { webhookId: made.body.result.webhookId }, owner);
        rounds++;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const [webhook] = (await list({})).filter((w) => w.webhookId === made.body.result.webhookId);
      expect(webhook!.disabled).toBe(true);
      expect(failing.received.length).toBeGreaterThanOrEqual(DISABLE_AFTER_FAILURES);
      const sent = failing.received.length;
      // Disabled: nothing more is sent, and no second mail.
      offsetMs += MAX_RETRY_MS;
      await run();
      expect(failing.received.length).toBe(sent);
      const mails = (await server.services.outbox!.list(200)).filter((m) => m.to === ownerEmail && /webhook/i.test(m.subject));
      expect(mails).toHaveLength(1);
      expect(mails[0]!.text).toContain(failing.url);
      // Refused while disabled; only its owner (or the map's manager) turns it back on.
      const hookId = made.body.result.webhookId as string;
      expect((await call(server, 'sendTestWebhook', { webhookId: hookId }, owner)).status).toBe(400);
      expect((await call(server, 'enableWebhook', { webhookId: hookId }, await registerUser(server))).status).toBe(404);
      const enabled = await call(server, 'enableWebhook', { webhookId: hookId }, owner);
      expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
      expect((await list({})).find((w) => w.webhookId === hookId)!.disabled).toBe(false);
      // On again: nothing more to record.
      expect((await call(server, 'enableWebhook', { webhookId: hookId }, owner)).body.position).toBeNull();
      // Events from now on reach it; a new failure starts a new run (no disabling at once).
      failing.answers.length = 0;
      failing.answers.push(500);
      const before = failing.received.length;
      await comment('Back on');
      await run();
      expect(failing.received.length).toBe(before + 1);
      expect((await list({})).find((w) => w.webhookId === hookId)!.disabled).toBe(false);
      offsetMs += MAX_RETRY_MS;
      await run();
      expect(failing.received.length).toBe(before + 2);
      expect(JSON.parse(failing.received.at(-1)!.body).data.body).toBe('Back on');
      // The first map's webhook still works.
      receiver.received.length = 0;
      await comment('Still here');
      await run();
      expect(receiver.received.length).toBeGreaterThanOrEqual(1);
    } finally {
      await failing.close();
    }
  }, 60_000);

  it('refuses a loopback address without ALLOW_LOOPBACK_TARGETS, and only the map’s manager makes a map’s webhook', async () => {
    const plain = await startTestServer(target);
    try {
      const someone = await registerUser(plain);
      const made = await call(plain, 'createWebhook', { url: receiver.url, events: ['map.published'] }, someone);
      expect(made.status).toBe(400);
      expect(made.body.error.message).toContain('https://');
      const https = await call(plain, 'createWebhook', { url: 'https://127.0.0.1/hook', events: ['map.published'] }, someone);
      expect(https.status).toBe(400);
      expect(https.body.error.message).toContain('not a public one');
    } finally {
      await plain.close();
    }
    const stranger = await registerUser(server);
    expect((await call(server, 'createWebhook', { mapId, url: receiver.url, events: ['map.published'] }, stranger)).status).toBe(403);
    expect((await call(server, 'deleteWebhook', { webhookId }, stranger)).status).toBe(404);
    expect((await call(server, 'deleteWebhook', { webhookId }, owner)).status).toBe(200);
    expect(await list({ mapId })).toEqual([]);
  });
});
