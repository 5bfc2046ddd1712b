/**
 * Webhooks (issue 30 item 2): every account's webhooks, for the delivery reactor (which
 * webhooks want an event) and the lists on /account and in the editor. A deleted webhook's row
 * goes; a disabled one is marked. `position` is where the webhook was created in the log: the
 * reactor gives it the events after that only (a new webhook is not sent the map's past).
 */
import { WebhookEvent, WEBHOOK_RECORDED_TYPES, type WebhookEventType } from '../events/webhooks.js';
import { formatPosition } from '../events/position.js';
import type { Queryable } from '../ports/database.js';
import type { RecordedEvent } from '../ports/event-store.js';
import { isoString } from './map-events.js';
import type { Projection } from './projection.js';

export const WEBHOOKS_PROJECTION = 'webhooks';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS webhooks (
  webhook_id text PRIMARY KEY,
  uid text NOT NULL,
  map_id text,
  url text NOT NULL,
  events jsonb NOT NULL,
  secret text NOT NULL,
  created timestamptz NOT NULL,
  position text NOT NULL,
  disabled timestamptz
);
CREATE INDEX IF NOT EXISTS webhooks_by_uid ON webhooks (uid);
CREATE INDEX IF NOT EXISTS webhooks_by_map ON webhooks (map_id);`;

export const webhooksProjection: Projection = {
  name: WEBHOOKS_PROJECTION,
  version: 1,
  schema: SCHEMA,
  tables: ['webhooks'],
  streamPrefixes: ['webhooks-'],
  async apply(tx, events: readonly RecordedEvent[]) {
    for (const recorded of events) {
      if (!WEBHOOK_RECORDED_TYPES.has(recorded.type)) continue;
      const event = WebhookEvent.parse({ type: recorded.type, data: recorded.data });
      switch (event.type) {
        case 'WebhookCreated': {
          const d = event.data;
          await tx.query(
            `INSERT INTO webhooks (webhook_id, uid, map_id, url, events, secret, created, position)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (webhook_id) DO NOTHING`,
            [d.webhookId, d.uid, d.mapId, d.url, JSON.stringify(d.events), d.secret, d.created, formatPosition(recorded.position)],
          );
          break;
        }
        case 'WebhookDeleted':
          await tx.query('DELETE FROM webhooks WHERE webhook_id = $1', [event.data.webhookId]);
          break;
        case 'WebhookDisabled':
          await tx.query('UPDATE webhooks SET disabled = $2 WHERE webhook_id = $1 AND disabled IS NULL', [event.data.webhookId, event.data.disabled]);
          break;
        case 'WebhookEnabled':
          await tx.query('UPDATE webhooks SET disabled = NULL WHERE webhook_id = $1', [event.data.webhookId]);
          break;
      }
    }
  },
};

// ---- queries ------------------------------------------------------------------------------

export interface WebhookRow {
  webhookId: string;
  uid: string;
  mapId: string | null;
  url: string;
  events: WebhookEventType[];
  secret: string;
  created: string;
  /** Where it was created in the log ("commit:prepare"). */
  position: string;
  disabled: boolean;
}

interface Raw {
  webhook_id: string;
  uid: string;
  map_id: string | null;
  url: string;
  events: unknown;
  secret: string;
  created: Date | string;
  position: string;
  disabled: Date | string | null;
}

const COLUMNS = 'webhook_id, uid, map_id, url, events, secret, created, position, disabled';

function rowOf(raw: Raw): WebhookRow {
  return {
    webhookId: raw.webhook_id,
    uid: raw.uid,
    mapId: raw.map_id,
    url: raw.url,
    events: (typeof raw.events === 'string' ? JSON.parse(raw.events) : raw.events) as WebhookEventType[],
    secret: raw.secret,
    created: isoString(raw.created),
    position: raw.position,
    disabled: raw.disabled !== null,
  };
}

export async function webhookById(db: Queryable, webhookId: string): Promise<WebhookRow | null> {
  const { rows } = await db.query<Raw>(`SELECT ${COLUMNS} FROM webhooks WHERE webhook_id = $1`, [webhookId]);
  return rows[0] ? rowOf(rows[0]) : null;
}

/** A map's webhooks (anyone's), oldest first. */
export async function webhooksOfMap(db: Queryable, mapId: string): Promise<WebhookRow[]> {
  const { rows } = await db.query<Raw>(`SELECT ${COLUMNS} FROM webhooks WHERE map_id = $1 ORDER BY created, webhook_id`, [mapId]);
  return rows.map(rowOf);
}

/** An account's webhooks for all its maps, oldest first. */
export async function accountWebhooksOf(db: Queryable, uid: string): Promise<WebhookRow[]> {
  const { rows } = await db.query<Raw>(`SELECT ${COLUMNS} FROM webhooks WHERE uid = $1 AND map_id IS NULL ORDER BY created, webhook_id`, [uid]);
  return rows.map(rowOf);
}

/** The webhooks an event of `mapId` (owned by `ownerUid`) may go to: the map's and its owner's account-wide ones, not disabled. */
export async function webhooksForMap(db: Queryable, mapId: string, ownerUid: string | null): Promise<WebhookRow[]> {
  const { rows } = await db.query<Raw>(
    `SELECT ${COLUMNS} FROM webhooks WHERE disabled IS NULL AND (map_id = $1 OR (map_id IS NULL AND uid = $2)) ORDER BY created, webhook_id`,
    [mapId, ownerUid ?? ''],
  );
  return rows.map(rowOf);
}
