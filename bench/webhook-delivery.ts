/**
 * Webhook deliveries per second with one slow receiver beside fast ones (issue 30 item 2; aim:
 * the slow one never delays the others). The real delivery worker (server/webhooks/
 * webhook-worker.ts) sends an outbox on PGlite to receivers on loopback: `FAST` webhooks whose
 * receiver answers at once, and, in the second round, one more whose receiver takes `SLOW_MS`
 * to answer each delivery. Printed per round: the fast deliveries per second (the outbox filled,
 * then drained), their p50 and p99 from the start of the drain to the receiver, and the ratio of
 * the round with the slow receiver to the one without (1.0: not delayed at all).
 *
 * `npm run bench -- webhooks` alone; `WEBHOOK_BENCH_QUICK=1` (or `--quick`) checks the harness in
 * seconds (4 fast receivers of 25 deliveries, a 1 s slow one, PGlite in memory).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import { randomIds } from '../server/clock.js';
import { openPGliteDatabase } from '../server/db/pglite-database.js';
import { webhooksProjection } from '../projections/webhooks.js';
import type { Database } from '../ports/database.js';
import type { EventStore } from '../ports/event-store.js';
import { enqueueDelivery, WEBHOOK_OUTBOX_SCHEMA } from '../server/webhooks/webhook-deliveries.js';
import { WebhookWorker } from '../server/webhooks/webhook-worker.js';

const quick = process.env.WEBHOOK_BENCH_QUICK === '1' || process.argv.includes('--quick');
const FAST = quick ? 4 : 8;
const PER_WEBHOOK = quick ? 25 : 250;
const SLOW_MS = quick ? 1_000 : 5_000;

interface Receiver {
  url: string;
  /** Milliseconds from enqueue to arrival, by delivery. */
  arrived: Map<string, number>;
  close(): Promise<void>;
}

async function receiver(delayMs: number, enqueuedAt: Map<string, number>): Promise<Receiver> {
  const arrived = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const id = String(request.headers['mapfold-delivery']);
      arrived.set(id, performance.now() - (enqueuedAt.get(id) ?? performance.now()));
      setTimeout(() => response.end('ok'), delayMs);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrived,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? NaN;

async function round(db: Database, withSlow: boolean, perWebhook = PER_WEBHOOK): Promise<{ perSecond: number; p50: number; p99: number; slowSent: number }> {
  const enqueuedAt = new Map<string, number>();
  const fast = await Promise.all(Array.from({ length: FAST }, () => receiver(0, enqueuedAt)));
  const slow = withSlow ? await receiver(SLOW_MS, enqueuedAt) : null;
  const worker = new WebhookWorker({
    db,
    // Nothing here fails for a day: the worker never records a webhook disabled.
    store: {} as EventStore,
    ids: randomIds,
    clock: { now: () => new Date() },
    policy: { allowLoopback: true },
    ownerOf: async () => 'bench-owner',
    publicUrl: 'http://127.0.0.1',
    logger: { error: (details, message) => console.error(message, details) },
    pollMs: 10,
  });
  try {
    await db.exec('DELETE FROM webhooks; DELETE FROM webhook_deliveries; DELETE FROM webhook_health;');
    const targets = [...fast.map((r, i) => ({ id: `fast-${i}`, receiver: r })), ...(slow ? [{ id: 'slow', receiver: slow }] : [])];
    for (const { id, receiver: r } of targets) {
      await db.query(
        `INSERT INTO webhooks (webhook_id, uid, map_id, url, events, secret, created, position) VALUES ($1, 'bench-owner', NULL, $2, '["map.changed"]', $3, $4, '0:0')`,
        [id, r.url, `whsec_${'b'.repeat(32)}`, new Date().toISOString()],
      );
    }
    const fastIds: string[] = [];
    // The outbox first (interleaved, as events fanned out to every webhook are), then the worker drains it.
    for (let n = 0; n < perWebhook; n++) {
      for (const { id } of targets) {
        const deliveryId = randomUUID();
        if (id !== 'slow') fastIds.push(deliveryId);
        await enqueueDelivery(db, { deliveryId, webhookId: id, body: { id: `evt_${deliveryId}`, type: 'map.changed', created: new Date().toISOString(), data: { mapId: 'bench', n } }, source: null, now: new Date() });
      }
    }
    const started = performance.now();
    for (const id of fastIds) enqueuedAt.set(id, started);
    worker.start();
    const arrivedFast = () => fast.reduce((sum, r) => sum + r.arrived.size, 0);
    while (arrivedFast() < fastIds.length) await new Promise((resolve) => setTimeout(resolve, 5));
    const seconds = (performance.now() - started) / 1000;
    const latencies = fast.flatMap((r) => [...r.arrived.values()]).sort((a, b) => a - b);
    return { perSecond: fastIds.length / seconds, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), slowSent: slow?.arrived.size ?? 0 };
  } finally {
    // The slow receiver's last answers are not waited for: stop() waits for sends in flight.
    await worker.stop();
    await Promise.all([...fast, ...(slow ? [slow] : [])].map((r) => r.close()));
  }
}

export async function benchWebhookDeliveries(print: (line: string) => void): Promise<void> {
  // On disk, as a server runs; the quick check in memory (no initdb to wait for).
  const dir = quick ? null : mkdtempSync(path.join(tmpdir(), 'mapfold-webhook-bench-'));
  const db = await openPGliteDatabase(dir ?? undefined);
  try {
    await db.exec(webhooksProjection.schema);
    await db.exec(WEBHOOK_OUTBOX_SCHEMA);
    await rounds(db, print);
  } finally {
    await db.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

async function rounds(db: Database, print: (line: string) => void): Promise<void> {
  // A first, small round warms the worker's code and PGlite up; its figures are not printed.
  await round(db, false, 5);
  const without = await round(db, false);
  print(`${FAST} fast receivers, ${FAST * PER_WEBHOOK} deliveries: ${without.perSecond.toFixed(0)} deliveries/s, start to receiver p50 ${without.p50.toFixed(0)} ms, p99 ${without.p99.toFixed(0)} ms`);
  const beside = await round(db, true);
  print(
    `the same beside 1 receiver taking ${SLOW_MS / 1000} s an answer: ${beside.perSecond.toFixed(0)} fast deliveries/s, p50 ${beside.p50.toFixed(0)} ms, p99 ${beside.p99.toFixed(0)} ms` +
      ` (${beside.slowSent} of ${PER_WEBHOOK} slow ones sent meanwhile)`,
  );
  print(`fast deliveries/s with the slow receiver / without: ${(beside.perSecond / without.perSecond).toFixed(2)} (aim: about 1)`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchWebhookDeliveries((line) => console.log(line));
}
