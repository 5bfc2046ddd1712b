/**
 * Webhooks' functions (issue 30 item 2; events/webhooks.ts). `createWebhook` makes one for a
 * map the caller manages (its owner, or an admin) or, without `mapId`, for every map the caller
 * owns, and answers its signing secret (shown this once); the address must pass the public
 * address checks (server/webhooks/webhook-target.ts). `deleteWebhook`, `redeliverWebhook` and
 * `sendTestWebhook` and `enableWebhook` (a webhook disabled after failing deliveries) act on a webhook its creator has, or one of a map the caller manages;
 * `listWebhooks` lists the caller's account-wide webhooks or a managed map's, each with its
 * latest deliveries. Callable with a token that has the `webhooks` scope.
 */
import type { z } from 'zod';
import { DomainError } from '../../events/errors.js';
import { can, requireCan } from '../../events/map-access.js';
import type { Principal } from '../../events/principal.js';
import { comparePositions, type Position } from '../../events/position.js';
import { WEBHOOK_TEST_EVENT, webhookFunctionPayloads, webhooksDecider, type WebhookCommand, type WebhookSummary } from '../../events/webhooks.js';
import type { Queryable } from '../../ports/database.js';
import { readCheckpoint } from '../../projections/checkpoints.js';
import { accountWebhooksOf, webhookById, WEBHOOKS_PROJECTION, webhooksOfMap, type WebhookRow } from '../../projections/webhooks.js';
import { loadMapAccess } from '../access/map-access-facts.js';
import { deliveriesOf, deliveryById, recordHealth, type NewDelivery } from '../webhooks/webhook-deliveries.js';
import { newWebhookSecret } from '../webhooks/webhook-signature.js';
import { checkWebhookTarget, type WebhookTargetPolicy } from '../webhooks/webhook-target.js';
import { decideCommand, type CommandMetadata, type CommandStore } from './command-handler.js';

export interface WebhookDeps extends CommandStore {
  db: Queryable;
  webhooks: {
    policy: WebhookTargetPolicy;
    /** Adds a delivery to the outbox and has the worker look at once. */
    enqueue(delivery: NewDelivery): Promise<void>;
  };
}

type Payload<N extends keyof typeof webhookFunctionPayloads> = z.output<(typeof webhookFunctionPayloads)[N]>;

const SETTLE_MS = 5_000;

/** Waits until the webhooks' read model has the event at `position` (the list shows it, the reactor follows it). */
async function settled(db: Queryable, position: Position | null): Promise<void> {
  if (!position) return;
  const until = Date.now() + SETTLE_MS;
  while (Date.now() < until) {
    const checkpoint = await readCheckpoint(db, WEBHOOKS_PROJECTION);
    if (checkpoint && comparePositions(checkpoint.position, position) >= 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function requireUser(meta: CommandMetadata): Principal {
  if (!meta.principal) throw new DomainError('unauthenticated', 'Unauthenticated');
  return meta.principal;
}

/** Refuses a caller who may not manage the map (not-found for a map that is not there). */
async function requireManage(db: Queryable, principal: Principal, mapId: string): Promise<void> {
  const access = await loadMapAccess(db, mapId);
  if (!access) throw new DomainError('not-found', 'No such map.');
  requireCan(principal, access.facts, 'manage');
}

/** The webhook, if the caller made it or manages its map; not-found otherwise (nothing said of others' webhooks). */
async function accessibleWebhook(db: Queryable, principal: Principal, webhookId: string): Promise<WebhookRow> {
  const webhook = await webhookById(db, webhookId);
  if (webhook && webhook.uid === principal.uid) return webhook;
  if (webhook?.mapId) {
    const access = await loadMapAccess(db, webhook.mapId);
    if (access && can(principal, access.facts, 'manage')) return webhook;
  }
  throw new DomainError('not-found', 'No such webhook.');
}

export async function createWebhook(deps: WebhookDeps, payload: Payload<'createWebhook'>, meta: CommandMetadata) {
  const principal = requireUser(meta);
  if (payload.mapId !== undefined) await requireManage(deps.db, principal, payload.mapId);
  const url = await checkWebhookTarget(payload.url, deps.webhooks.policy);
  const webhookId = deps.ids.uuid();
  const secret = newWebhookSecret();
  const outcome = await decideCommand(
    deps,
    webhooksDecider,
    principal.uid,
    {
      type: 'CreateWebhook',
      data: { webhookId, uid: principal.uid, mapId: payload.mapId ?? null, url, events: payload.events, secret, created: meta.now.toISOString() },
    },
    undefined,
    meta,
  );
  await settled(deps.db, outcome.position);
  return { result: { webhookId, secret }, position: outcome.position };
}

/** Decides the command `make` gives on the account stream of a webhook the caller may act on (its maker, or its map's manager). */
async function decideOnWebhook(deps: WebhookDeps, meta: CommandMetadata, webhookId: string, make: (webhook: WebhookRow, at: string) => WebhookCommand) {
  const webhook = await accessibleWebhook(deps.db, requireUser(meta), webhookId);
  const outcome = await decideCommand(deps, webhooksDecider, webhook.uid, make(webhook, meta.now.toISOString()), undefined, meta);
  return { webhook, outcome };
}

export async function deleteWebhook(deps: WebhookDeps, payload: Payload<'deleteWebhook'>, meta: CommandMetadata) {
  const { outcome } = await decideOnWebhook(deps, meta, payload.webhookId, ({ webhookId, uid }, deleted) => ({ type: 'DeleteWebhook', data: { webhookId, uid, deleted } }));
  await settled(deps.db, outcome.position);
  return { result: null, position: outcome.position };
}

export async function listWebhooks(deps: WebhookDeps, payload: Payload<'listWebhooks'>, meta: CommandMetadata) {
  const principal = requireUser(meta);
  if (payload.mapId !== undefined) await requireManage(deps.db, principal, payload.mapId);
  const rows = payload.mapId !== undefined ? await webhooksOfMap(deps.db, payload.mapId) : await accountWebhooksOf(deps.db, principal.uid);
  const deliveries = await deliveriesOf(
    deps.db,
    rows.map((row) => row.webhookId),
  );
  const webhooks: WebhookSummary[] = rows.map((row) => ({
    webhookId: row.webhookId,
    mapId: row.mapId,
    url: row.url,
    events: row.events,
    created: row.created,
    disabled: row.disabled,
    deliveries: deliveries.get(row.webhookId) ?? [],
  }));
  return { result: { webhooks }, position: null };
}

export async function redeliverWebhook(deps: WebhookDeps, payload: Payload<'redeliverWebhook'>, meta: CommandMetadata) {
  const principal = requireUser(meta);
  const webhook = await accessibleWebhook(deps.db, principal, payload.webhookId);
  const delivery = await deliveryById(deps.db, payload.deliveryId);
  if (!delivery || delivery.webhookId !== webhook.webhookId) throw new DomainError('not-found', 'No such delivery.');
  if (webhook.disabled) throw new DomainError('invalid-argument', 'This webhook is disabled: turn it back on to receive events.');
  const deliveryId = deps.ids.uuid();
  await deps.webhooks.enqueue({ deliveryId, webhookId: webhook.webhookId, body: delivery.body, source: null, now: meta.now });
  return { result: { deliveryId }, position: null };
}

export async function sendTestWebhook(deps: WebhookDeps, payload: Payload<'sendTestWebhook'>, meta: CommandMetadata) {
  const principal = requireUser(meta);
  const webhook = await accessibleWebhook(deps.db, principal, payload.webhookId);
  if (webhook.disabled) throw new DomainError('invalid-argument', 'This webhook is disabled: turn it back on to receive events.');
  const deliveryId = deps.ids.uuid();
  const body = {
    id: `evt_test_${deps.ids.uuid()}`,
    type: WEBHOOK_TEST_EVENT,
    created: meta.now.toISOString(),
    data: { webhookId: webhook.webhookId, mapId: webhook.mapId, message: 'A test event sent from Mapfold.' },
  };
  await deps.webhooks.enqueue({ deliveryId, webhookId: webhook.webhookId, body, source: null, now: meta.now });
  return { result: { deliveryId }, position: null };
}

/** Turns a webhook disabled after failing deliveries back on; its run of failures starts again from none. */
export async function enableWebhook(deps: WebhookDeps, payload: Payload<'enableWebhook'>, meta: CommandMetadata) {
  const { webhook, outcome } = await decideOnWebhook(deps, meta, payload.webhookId, ({ webhookId, uid }, enabled) => ({ type: 'EnableWebhook', data: { webhookId, uid, enabled } }));
  // Else the next failure would disable it again at once (its failures count from the last success).
  if (outcome.events.length > 0) await recordHealth(deps.db, webhook.webhookId, false, meta.now);
  await settled(deps.db, outcome.position);
  return { result: null, position: outcome.position };
}

export const webhookFunctionHandlers = { createWebhook, deleteWebhook, listWebhooks, redeliverWebhook, sendTestWebhook, enableWebhook };
