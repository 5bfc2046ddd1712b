/**
 * Sends the webhooks' outbox (issue 30 item 2). Each poll closes the map changes whose
 * debounce window is over (into map.changed deliveries, in the same transaction), claims the
 * deliveries that are due (a lease: a crash mid-delivery leaves the delivery to be taken again,
 * so nothing is lost, at least once) and POSTs each, signed (webhook-signature.ts), with a
 * 10 s timeout, without waiting for one receiver to finish before the next is sent: one slow
 * receiver never delays the others.
 *
 * A 2xx answer delivers. Anything else (another status, no answer, a refused address) is tried
 * again later, 30 s after the first failure, doubling up to 6 h, until 3 days after the
 * delivery was made; then it has failed. A webhook whose deliveries failed
 * {@link DISABLE_AFTER_FAILURES} times in a row over at least a day is disabled (an event,
 * through the one append path: once) and its owner mailed once.
 */
import { WEBHOOK_SIGNATURE_HEADER, webhooksDecider } from '../../events/webhooks.js';
import type { Database, Queryable } from '../../ports/database.js';
import type { EventStore } from '../../ports/event-store.js';
import { webhookById } from '../../projections/webhooks.js';
import type { Clock, IdGenerator } from '../clock.js';
import { decideCommand } from '../commands/command-handler.js';
import type { Mailer } from '../mail/mailer.js';
import { claimDueDeliveries, enqueueDelivery, failPendingDeliveries, recordAttempt, recordHealth, dueMapChanges, takeMapChange, type DueDelivery } from './webhook-deliveries.js';
import { enqueueForMap } from './webhook-reactor.js';
import { webhookSignature } from './webhook-signature.js';
import { postWebhook, WEBHOOK_TIMEOUT_MS, type WebhookTargetPolicy } from './webhook-target.js';
import { parsePosition } from '../../events/position.js';

export const FIRST_RETRY_MS = 30_000;
export const MAX_RETRY_MS = 6 * 3_600_000;
export const RETRY_FOR_MS = 3 * 86_400_000;
export const DISABLE_AFTER_FAILURES = 20;
export const DISABLE_AFTER_MS = 86_400_000;
const LEASE_MS = 60_000;

/** When a delivery tried `attempts` times (this failure included) is tried next. */
export function retryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS);
}

export interface WebhookWorkerOptions {
  db: Database;
  store: EventStore;
  ids: IdGenerator;
  clock: Clock;
  policy: WebhookTargetPolicy;
  ownerOf(mapId: string): Promise<string | null>;
  mailer?: Mailer;
  publicUrl: string;
  logger: { error(details: object, message: string): void; info?(details: object, message: string): void };
  /** How often the outbox is looked at (1 s). */
  pollMs?: number;
  timeoutMs?: number;
  /** Deliveries claimed at a time. */
  batch?: number;
}

export class WebhookWorker {
  private timer: NodeJS.Timeout | null = null;
  private readonly inFlight = new Map<string, Promise<void>>();
  private polling: Promise<void> | null = null;

  constructor(private readonly o: WebhookWorkerOptions) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.poke(), this.o.pollMs ?? 1_000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.polling?.catch(() => {});
    await Promise.allSettled([...this.inFlight.values()]);
  }

  /** Looks at the outbox now (the reactor added deliveries), when started. */
  poke(): void {
    if (this.polling || !this.timer) return;
    this.polling = this.poll()
      .catch((error: unknown) => this.o.logger.error({ err: error }, 'the webhooks’ outbox could not be read'))
      .finally(() => {
        this.polling = null;
      });
  }

  /** One poll, and every send it started: what tests call, with their own clock. */
  async runOnce(): Promise<void> {
    while (this.polling) await this.polling;
    await this.poll();
    await Promise.allSettled([...this.inFlight.values()]);
  }

  private async poll(): Promise<void> {
    const now = this.o.clock.now();
    for (const change of await dueMapChanges(this.o.db, now)) {
      // Read before the transaction: PGlite has one connection, which the transaction holds.
      const owner = await this.o.ownerOf(change.mapId);
      await this.o.db.transaction(async (tx) => {
        if (!(await takeMapChange(tx, change))) return;
        await enqueueForMap(
          { db: tx, ids: this.o.ids, ownerOf: async () => owner },
          {
            mapId: change.mapId,
            type: 'map.changed',
            id: change.eventId,
            created: change.firstChange.toISOString(),
            data: { locationIds: change.locationIds },
            position: parsePosition(change.position),
            now,
          },
        );
      });
    }
    const due = await claimDueDeliveries(this.o.db, now, LEASE_MS, this.o.batch ?? 50, [...this.inFlight.keys()]);
    for (const delivery of due) {
      const sending = this.send(delivery)
        .catch((error: unknown) => this.o.logger.error({ err: error, deliveryId: delivery.deliveryId }, 'a webhook delivery could not be recorded'))
        .finally(() => this.inFlight.delete(delivery.deliveryId));
      this.inFlight.set(delivery.deliveryId, sending);
    }
  }

  private async send(delivery: DueDelivery): Promise<void> {
    const db = this.o.db;
    const webhook = await webhookById(db, delivery.webhookId);
    const at = this.o.clock.now();
    if (!webhook || webhook.disabled) {
      await recordAttempt(db, { deliveryId: delivery.deliveryId, at, responseCode: null, error: webhook ? 'The webhook is disabled.' : 'The webhook was deleted.', status: 'failed' });
      return;
    }
    let responseCode: number | null = null;
    let error: string | null = null;
    try {
      const timestamp = Math.floor(at.getTime() / 1000);
      const answer = await postWebhook(
        webhook.url,
        delivery.body,
        { [WEBHOOK_SIGNATURE_HEADER]: webhookSignature(webhook.secret, timestamp, delivery.body), 'Mapfold-Delivery': delivery.deliveryId },
        this.o.policy,
        this.o.timeoutMs ?? WEBHOOK_TIMEOUT_MS,
      );
      responseCode = answer.status;
      if (answer.status < 200 || answer.status >= 300) error = `The receiver answered ${answer.status}.`;
    } catch (failure) {
      error = failure instanceof Error ? failure.message.slice(0, 300) : 'The delivery failed.';
    }
    const done = this.o.clock.now();
    if (error === null) {
      await recordAttempt(db, { deliveryId: delivery.deliveryId, at: done, responseCode, error: null, status: 'delivered' });
      await recordHealth(db, webhook.webhookId, false, done);
      return;
    }
    const attempts = delivery.attempts + 1;
    const next = new Date(done.getTime() + retryDelayMs(attempts));
    const giveUp = next.getTime() - delivery.created.getTime() > RETRY_FOR_MS;
    await recordAttempt(db, { deliveryId: delivery.deliveryId, at: done, responseCode, error, status: giveUp ? 'failed' : 'pending', ...(giveUp ? {} : { next }) });
    const health = await recordHealth(db, webhook.webhookId, true, done);
    if (health.failures >= DISABLE_AFTER_FAILURES && health.since && done.getTime() - health.since.getTime() >= DISABLE_AFTER_MS) {
      await this.disable(webhook.webhookId, webhook.uid, webhook.url, health.failures, done);
    }
  }

  /** Records the webhook disabled (once, whoever gets there first) and mails its owner once. */
  private async disable(webhookId: string, uid: string, url: string, failures: number, at: Date): Promise<void> {
    const outcome = await decideCommand(
      { store: this.o.store, ids: this.o.ids },
      webhooksDecider,
      uid,
      { type: 'DisableWebhook', data: { webhookId, uid, failures, disabled: at.toISOString() } },
      undefined,
      { principal: null, now: at, correlationId: `webhook-disabled-${webhookId}`, commandId: this.o.ids.uuid() },
    );
    if (outcome.events.length === 0) return;
    await failPendingDeliveries(this.o.db, webhookId, 'The webhook was disabled after failing deliveries.');
    const email = await ownerEmail(this.o.db, uid);
    if (!email || !this.o.mailer) return;
    const link = `${this.o.publicUrl.replace(/\/+$/, '')}/account#webhooks`;
    const text = `Mapfold stopped sending events to your webhook at ${url}: its last ${failures} deliveries over more than a day failed.\n\nCheck the receiver, then turn the webhook back on at ${link}. The deliveries it missed are in its log.`;
    await this.o.mailer
      .send({ to: email, subject: 'A webhook of yours was disabled', text, html: `<p>${escapeHtml(text).replace(/\n\n/g, '</p><p>')}</p>` })
      .catch((error: unknown) => this.o.logger.error({ err: error, webhookId }, 'the disabled webhook’s mail could not be sent'));
  }

  /** Adds a delivery now (a test event, a redelivery) and sends it on the next poll. */
  async add(delivery: Parameters<typeof enqueueDelivery>[1]): Promise<void> {
    await enqueueDelivery(this.o.db, delivery);
    this.poke();
  }
}

async function ownerEmail(db: Queryable, uid: string): Promise<string | null> {
  // Without local accounts (Clerk) there is no such table: no mail.
  const found = await db.query<{ email: string }>('SELECT email FROM auth_accounts WHERE uid = $1', [uid]).catch(() => ({ rows: [] as Array<{ email: string }> }));
  return found.rows[0]?.email ?? null;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
