/**
 * The webhooks' outbox (issue 30 item 2): each delivery a row, written by the reactor that
 * follows the event log (webhook-reactor.ts) and sent by the worker (webhook-worker.ts). Not a
 * read model: a rebuild of the projections never touches it. A delivery made from an event has
 * a `source` (webhook and event), unique, so the reactor handing the same event again (after a
 * restart: at least once) adds no second delivery; a redelivery and a test event have none.
 *
 * Also here: each webhook's run of failures (`webhook_health`), and the map changes waiting
 * for their debounce window to close (`webhook_map_changes`).
 */
import type { WebhookDeliverySummary } from '../../events/webhooks.js';
import type { Queryable } from '../../ports/database.js';
import { isoString } from '../../projections/map-events.js';

export const WEBHOOK_OUTBOX_SCHEMA = `
CREATE TABLE IF NOT EXISTS webhook_deliveries (
  delivery_id text PRIMARY KEY,
  webhook_id text NOT NULL,
  event_id text NOT NULL,
  type text NOT NULL,
  body text NOT NULL,
  source text UNIQUE,
  status text NOT NULL DEFAULT 'pending',
  attempts integer NOT NULL DEFAULT 0,
  created timestamptz NOT NULL,
  next_attempt timestamptz NOT NULL,
  last_attempt timestamptz,
  response_code integer,
  error text
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries (status, next_attempt);
CREATE INDEX IF NOT EXISTS webhook_deliveries_by_webhook ON webhook_deliveries (webhook_id, created);
CREATE TABLE IF NOT EXISTS webhook_health (
  webhook_id text PRIMARY KEY,
  failures integer NOT NULL,
  failing_since timestamptz NOT NULL
);
CREATE TABLE IF NOT EXISTS webhook_map_changes (
  map_id text PRIMARY KEY,
  event_id text NOT NULL,
  position text NOT NULL,
  first_change timestamptz NOT NULL,
  due timestamptz NOT NULL,
  location_ids jsonb NOT NULL
);`;

/** What a receiver gets: `{id, type, created, data}`. */
export interface WebhookBody {
  id: string;
  type: string;
  created: string;
  data: unknown;
}

export interface NewDelivery {
  deliveryId: string;
  webhookId: string;
  body: WebhookBody;
  /** Webhook and event: one delivery per pair, whatever the reactor replays; null: a redelivery or a test. */
  source: string | null;
  now: Date;
}

/** Adds a delivery, due now; false when its source already has one. */
export async function enqueueDelivery(db: Queryable, delivery: NewDelivery): Promise<boolean> {
  const result = await db.query(
    `INSERT INTO webhook_deliveries (delivery_id, webhook_id, event_id, type, body, source, created, next_attempt)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $7) ON CONFLICT DO NOTHING`,
    [delivery.deliveryId, delivery.webhookId, delivery.body.id, delivery.body.type, JSON.stringify(delivery.body), delivery.source, delivery.now.toISOString()],
  );
  return result.rowCount > 0;
}

export interface DueDelivery {
  deliveryId: string;
  webhookId: string;
  body: string;
  attempts: number;
  created: Date;
}

/**
 * Claims up to `limit` deliveries due at `now`, each for `leaseMs` (another worker, or this one
 * after a crash, takes it again once the lease is over: at least once).
 */
export async function claimDueDeliveries(db: Queryable, now: Date, leaseMs: number, limit: number, skip: readonly string[] = []): Promise<DueDelivery[]> {
  const { rows } = await db.query<{ delivery_id: string; webhook_id: string; body: string; attempts: number; created: Date | string }>(
    `UPDATE webhook_deliveries SET next_attempt = $2
      WHERE delivery_id IN (
        SELECT delivery_id FROM webhook_deliveries
         WHERE status = 'pending' AND next_attempt <= $1 AND NOT (delivery_id = ANY($4::text[]))
         ORDER BY next_attempt, delivery_id LIMIT $3 FOR UPDATE SKIP LOCKED)
      RETURNING delivery_id, webhook_id, body, attempts, created`,
    [now.toISOString(), new Date(now.getTime() + leaseMs).toISOString(), limit, [...skip]],
  );
  return rows.map((row) => ({ deliveryId: row.delivery_id, webhookId: row.webhook_id, body: row.body, attempts: row.attempts, created: new Date(row.created) }));
}

export interface AttemptOutcome {
  deliveryId: string;
  at: Date;
  responseCode: number | null;
  error: string | null;
  /** delivered; pending again at `next`; failed for good. */
  status: 'delivered' | 'pending' | 'failed';
  next?: Date;
}

export async function recordAttempt(db: Queryable, outcome: AttemptOutcome): Promise<void> {
  await db.query(
    `UPDATE webhook_deliveries SET attempts = attempts + 1, last_attempt = $2, response_code = $3, error = $4, status = $5, next_attempt = COALESCE($6, next_attempt)
      WHERE delivery_id = $1`,
    [outcome.deliveryId, outcome.at.toISOString(), outcome.responseCode, outcome.error, outcome.status, outcome.next?.toISOString() ?? null],
  );
}

/** A webhook's run of failures after one more (`failed`) or none (success): its length and since when. */
export async function recordHealth(db: Queryable, webhookId: string, failed: boolean, at: Date): Promise<{ failures: number; since: Date | null }> {
  if (!failed) {
    await db.query('DELETE FROM webhook_health WHERE webhook_id = $1', [webhookId]);
    return { failures: 0, since: null };
  }
  const { rows } = await db.query<{ failures: number; failing_since: Date | string }>(
    `INSERT INTO webhook_health (webhook_id, failures, failing_since) VALUES ($1, 1, $2)
     ON CONFLICT (webhook_id) DO UPDATE SET failures = webhook_health.failures + 1
     RETURNING failures, failing_since`,
    [webhookId, at.toISOString()],
  );
  return { failures: rows[0]!.failures, since: new Date(rows[0]!.failing_since) };
}

/** Stops a disabled or deleted webhook's deliveries that were still waiting. */
export async function failPendingDeliveries(db: Queryable, webhookId: string, reason: string): Promise<void> {
  await db.query(`UPDATE webhook_deliveries SET status = 'failed', error = $2 WHERE webhook_id = $1 AND status = 'pending'`, [webhookId, reason]);
}

/** A webhook's latest deliveries, newest first. */
export async function deliveriesOf(db: Queryable, webhookIds: readonly string[], perWebhook = 20): Promise<Map<string, WebhookDeliverySummary[]>> {
  const found = new Map<string, WebhookDeliverySummary[]>(webhookIds.map((id) => [id, []]));
  if (webhookIds.length === 0) return found;
  const { rows } = await db.query<{
    delivery_id: string;
    webhook_id: string;
    event_id: string;
    type: string;
    status: 'pending' | 'delivered' | 'failed';
    attempts: number;
    created: Date | string;
    last_attempt: Date | string | null;
    response_code: number | null;
    error: string | null;
  }>(
    `SELECT * FROM (
       SELECT delivery_id, webhook_id, event_id, type, status, attempts, created, last_attempt, response_code, error,
              row_number() OVER (PARTITION BY webhook_id ORDER BY created DESC, delivery_id DESC) AS n
         FROM webhook_deliveries WHERE webhook_id = ANY($1::text[])) latest
      WHERE n <= $2 ORDER BY created DESC, delivery_id DESC`,
    [[...webhookIds], perWebhook],
  );
  for (const row of rows) {
    found.get(row.webhook_id)?.push({
      deliveryId: row.delivery_id,
      eventId: row.event_id,
      type: row.type,
      status: row.status,
      attempts: row.attempts,
      created: isoString(row.created),
      lastAttempt: row.last_attempt === null ? null : isoString(row.last_attempt),
      responseCode: row.response_code,
      error: row.error,
    });
  }
  return found;
}

/** One delivery's body and webhook, for a redelivery. */
export async function deliveryById(db: Queryable, deliveryId: string): Promise<{ webhookId: string; body: WebhookBody } | null> {
  const { rows } = await db.query<{ webhook_id: string; body: string }>('SELECT webhook_id, body FROM webhook_deliveries WHERE delivery_id = $1', [deliveryId]);
  return rows[0] ? { webhookId: rows[0].webhook_id, body: JSON.parse(rows[0].body) as WebhookBody } : null;
}

/**
 * Adds location ids to the map's waiting change (a window of `windowMs` from its first change),
 * or starts one: one statement for each of a map's edits. The ids are added at the end, each
 * once for this edit; an id an earlier edit of the window noted is left for the reader to drop
 * ({@link dueMapChanges}: each once, in the order first seen). Merging them here grouped every
 * id the window held at each edit: the twenty 5,000-location parts of a 100,000-row import took
 * 70-240 ms each on PGlite (2.8 s of statements holding the embedded database), now 3-37 ms.
 */
export async function noteMapChange(db: Queryable, change: { mapId: string; eventId: string; position: string; at: Date; locationIds: readonly string[]; windowMs: number }): Promise<void> {
  await db.query(
    `INSERT INTO webhook_map_changes (map_id, event_id, position, first_change, due, location_ids) VALUES ($1, $2, $3, $4, $5, $6::jsonb)
     ON CONFLICT (map_id) DO UPDATE SET location_ids = webhook_map_changes.location_ids || EXCLUDED.location_ids`,
    [change.mapId, change.eventId, change.position, change.at.toISOString(), new Date(change.at.getTime() + change.windowMs).toISOString(), JSON.stringify([...new Set(change.locationIds)])],
  );
}

export interface DueMapChange {
  mapId: string;
  eventId: string;
  position: string;
  firstChange: Date;
  locationIds: string[];
}

/** The map changes whose window closed by `now`. */
export async function dueMapChanges(db: Queryable, now: Date): Promise<DueMapChange[]> {
  const { rows } = await db.query<{ map_id: string; event_id: string; position: string; first_change: Date | string; location_ids: unknown }>(
    'SELECT map_id, event_id, position, first_change, location_ids FROM webhook_map_changes WHERE due <= $1 ORDER BY due, map_id',
    [now.toISOString()],
  );
  return rows.map((row) => ({
    mapId: row.map_id,
    eventId: row.event_id,
    position: row.position,
    firstChange: new Date(row.first_change),
    // Each once, in the order first seen (an id edited twice in the window was noted twice).
    locationIds: [...new Set((typeof row.location_ids === 'string' ? JSON.parse(row.location_ids) : row.location_ids) as string[])],
  }));
}

/** Takes one map change (in the transaction that makes its deliveries); false when another worker took it. */
export async function takeMapChange(tx: Queryable, change: DueMapChange): Promise<boolean> {
  const result = await tx.query('DELETE FROM webhook_map_changes WHERE map_id = $1 AND event_id = $2', [change.mapId, change.eventId]);
  return result.rowCount > 0;
}
