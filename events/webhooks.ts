/**
 * Outbound webhooks (issue 30 item 2): an account's webhooks, each for one of its maps or for
 * every map it owns, on the account's stream `webhooks-{uid}`. A webhook names an https address,
 * the event types it wants and a secret the deliveries are signed with (Stripe's way:
 * `Mapfold-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`).
 *
 * The callable functions' payloads and results, the list's answer, the events and the decider.
 * Delivery (server/webhooks) follows the event log; nothing about a delivery is an event but
 * a webhook disabled after a long run of failures, and turned back on by its owner.
 */
import { z } from 'zod';
import type { Decider } from './decider.js';
import { DomainError } from './errors.js';
import { streams } from './streams.js';

export const WEBHOOK_EVENT_TYPES = [
  'map.published',
  'map.unpublished',
  'map.changed',
  'import.applied',
  'comment.created',
  'member.joined',
  'directions.requested',
] as const;
export const WebhookEventType = z.enum(WEBHOOK_EVENT_TYPES, { error: `Events are ${WEBHOOK_EVENT_TYPES.join(', ')}.` });
export type WebhookEventType = z.infer<typeof WebhookEventType>;

/** The type of the event "Send test event" delivers (never subscribed to). */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** The account page's and the editor's words for each event type. */
export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  'map.published': 'Map published',
  'map.unpublished': 'Map unpublished',
  'map.changed': 'Locations changed',
  'import.applied': 'Import applied',
  'comment.created': 'Comment added',
  'member.joined': 'Member joined',
  'directions.requested': 'Directions requested',
};

/** At most this many live webhooks per account. */
export const MAX_WEBHOOKS = 20;
/** The signature's header (Stripe's `Stripe-Signature`, renamed). */
export const WEBHOOK_SIGNATURE_HEADER = 'Mapfold-Signature';

const WebhookId = z.string({ error: 'Webhook id must be text.' }).regex(/^[A-Za-z0-9_-]{1,64}$/, 'Webhook id is not valid.');
const MapId = z.string({ error: 'Map id must be text.' }).regex(/^[A-Za-z0-9_-]{1,64}$/, 'Map id is not valid.');
const WebhookUrl = z
  .string({ error: 'URL must be text.' })
  .trim()
  .min(1, 'Give the address the events are sent to.')
  .max(2000, 'Keep the address under 2000 characters.');

export const webhookFunctionPayloads = {
  /** A webhook for one map (`mapId`, its owner's) or every map of the caller's: the secret is in the answer. */
  createWebhook: z.object({
    mapId: MapId.optional(),
    url: WebhookUrl,
    events: z
      .array(WebhookEventType, { error: 'Events must be a list.' })
      .min(1, 'Choose at least one event.')
      .max(WEBHOOK_EVENT_TYPES.length)
      .refine((events) => new Set(events).size === events.length, 'Name each event once.'),
  }),
  /** Deletes one of the caller's webhooks: nothing more is sent to it. */
  deleteWebhook: z.object({ webhookId: WebhookId }),
  /** The caller's account-wide webhooks, or (with `mapId`) the map's, each with its latest deliveries. */
  listWebhooks: z.object({ mapId: MapId.optional() }),
  /** Sends the delivery again, as it was (same id: a receiver deduplicating by id skips it). */
  redeliverWebhook: z.object({ webhookId: WebhookId, deliveryId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Delivery id is not valid.') }),
  /** Sends a `webhook.test` event to the webhook now. */
  sendTestWebhook: z.object({ webhookId: WebhookId }),
  /** Turns a webhook disabled after failing deliveries back on: events from now on are sent to it again. */
  enableWebhook: z.object({ webhookId: WebhookId }),
} as const;

/** One delivery as the log shows it. */
export const WebhookDeliverySummary = z.object({
  deliveryId: z.string(),
  eventId: z.string(),
  type: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  created: z.string(),
  /** When it was last tried; null: not yet. */
  lastAttempt: z.string().nullable(),
  /** The receiver's last answer's status; null: none (not tried, or no answer). */
  responseCode: z.number().int().nullable(),
  error: z.string().nullable(),
});
export type WebhookDeliverySummary = z.infer<typeof WebhookDeliverySummary>;

export const WebhookSummary = z.object({
  webhookId: z.string(),
  mapId: z.string().nullable(),
  url: z.string(),
  events: z.array(WebhookEventType),
  created: z.string(),
  /** Disabled after a long run of failed deliveries (the owner was mailed). */
  disabled: z.boolean(),
  deliveries: z.array(WebhookDeliverySummary),
});
export type WebhookSummary = z.infer<typeof WebhookSummary>;

export interface WebhookFunctionResults {
  createWebhook: { webhookId: string; secret: string };
  deleteWebhook: null;
  listWebhooks: { webhooks: WebhookSummary[] };
  redeliverWebhook: { deliveryId: string };
  sendTestWebhook: { deliveryId: string };
  enableWebhook: null;
}

export const webhookFunctionResults = {
  createWebhook: z.object({
    webhookId: z.string(),
    secret: z.string().describe('The signing secret (whsec_…). Shown once here; deliveries are signed with it.'),
  }),
  deleteWebhook: z.null(),
  listWebhooks: z.object({ webhooks: z.array(WebhookSummary) }),
  redeliverWebhook: z.object({ deliveryId: z.string() }),
  sendTestWebhook: z.object({ deliveryId: z.string() }),
  enableWebhook: z.null(),
};

// ---- events ---------------------------------------------------------------------------------

export const WebhookCreated = z.object({
  type: z.literal('WebhookCreated'),
  data: z.object({
    webhookId: WebhookId,
    uid: z.string().min(1),
    mapId: z.string().nullable(),
    url: z.string().min(1).max(2000),
    events: z.array(WebhookEventType).min(1),
    /** The signing secret: the delivery worker signs with it, so it is kept as it is. */
    secret: z.string().regex(/^whsec_[A-Za-z0-9_-]{20,}$/),
    created: z.string(),
  }),
});
export const WebhookDeleted = z.object({
  type: z.literal('WebhookDeleted'),
  data: z.object({ webhookId: WebhookId, uid: z.string().min(1), deleted: z.string() }),
});
export const WebhookDisabled = z.object({
  type: z.literal('WebhookDisabled'),
  data: z.object({ webhookId: WebhookId, uid: z.string().min(1), failures: z.number().int().min(1), disabled: z.string() }),
});
/** Its owner (or the map's manager) turned a disabled webhook back on. */
export const WebhookEnabled = z.object({
  type: z.literal('WebhookEnabled'),
  data: z.object({ webhookId: WebhookId, uid: z.string().min(1), enabled: z.string() }),
});
export const WebhookEvent = z.discriminatedUnion('type', [WebhookCreated, WebhookDeleted, WebhookDisabled, WebhookEnabled]);
export type WebhookEvent = z.infer<typeof WebhookEvent>;
export const WEBHOOK_RECORDED_TYPES: ReadonlySet<string> = new Set(['WebhookCreated', 'WebhookDeleted', 'WebhookDisabled', 'WebhookEnabled']);

export type WebhookCommand =
  | { type: 'CreateWebhook'; data: z.infer<typeof WebhookCreated>['data'] }
  | { type: 'DeleteWebhook'; data: z.infer<typeof WebhookDeleted>['data'] }
  | { type: 'DisableWebhook'; data: z.infer<typeof WebhookDisabled>['data'] }
  | { type: 'EnableWebhook'; data: z.infer<typeof WebhookEnabled>['data'] };

export interface WebhooksState {
  webhooks: Readonly<Record<string, { deleted: boolean; disabled: boolean }>>;
}

function webhookOf(state: WebhooksState, webhookId: string) {
  return Object.hasOwn(state.webhooks, webhookId) ? state.webhooks[webhookId] : undefined;
}

export const webhooksDecider: Decider<WebhookCommand, WebhookEvent, WebhooksState, void> = {
  name: 'webhooks',
  streamId: streams.webhooks,
  schema: WebhookEvent,
  eventTypes: WEBHOOK_RECORDED_TYPES,
  initialState: { webhooks: {} },
  evolve(state, event) {
    const id = event.data.webhookId;
    const current = webhookOf(state, id) ?? { deleted: false, disabled: false };
    switch (event.type) {
      case 'WebhookCreated':
        return { webhooks: { ...state.webhooks, [id]: { deleted: false, disabled: false } } };
      case 'WebhookDeleted':
        return { webhooks: { ...state.webhooks, [id]: { ...current, deleted: true } } };
      case 'WebhookDisabled':
        return { webhooks: { ...state.webhooks, [id]: { ...current, disabled: true } } };
      case 'WebhookEnabled':
        return { webhooks: { ...state.webhooks, [id]: { ...current, disabled: false } } };
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateWebhook': {
        if (webhookOf(state, command.data.webhookId)) return [];
        const live = Object.values(state.webhooks).filter((webhook) => !webhook.deleted).length;
        if (live >= MAX_WEBHOOKS) throw new DomainError('resource-exhausted', `An account may have at most ${MAX_WEBHOOKS} webhooks. Delete one you no longer use first.`);
        return [{ type: 'WebhookCreated', data: command.data }];
      }
      case 'DeleteWebhook': {
        const webhook = webhookOf(state, command.data.webhookId);
        if (!webhook || webhook.deleted) throw new DomainError('not-found', 'No such webhook.');
        return [{ type: 'WebhookDeleted', data: command.data }];
      }
      case 'DisableWebhook': {
        const webhook = webhookOf(state, command.data.webhookId);
        // Deleted, or disabled already (another process got there first): nothing to record, no second mail.
        if (!webhook || webhook.deleted || webhook.disabled) return [];
        return [{ type: 'WebhookDisabled', data: command.data }];
      }
      case 'EnableWebhook': {
        const webhook = webhookOf(state, command.data.webhookId);
        if (!webhook || webhook.deleted) throw new DomainError('not-found', 'No such webhook.');
        // On already: nothing to record.
        if (!webhook.disabled) return [];
        return [{ type: 'WebhookEnabled', data: command.data }];
      }
    }
  },
};
