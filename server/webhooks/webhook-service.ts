/**
 * Sets up outbound webhooks (issue 30 item 2) in the app: the outbox's tables, the reactor
 * that follows the event log into the outbox (its own checkpoint and lock), the worker that
 * sends it, and what the webhooks' functions need. Tests reach both through `app.webhooks`:
 * `reactor.waitFor(position)` and `worker.runOnce()` with their own clock.
 */
import type { FastifyInstance } from 'fastify';
import { MapState } from '../../events/map-states.js';
import { loadMapAccess } from '../access/map-access-facts.js';
import { MapHistory } from '../history/map-history.js';
import { ReactorRunner, type ReactorRunnerOptions } from '../billing/reactor-runner.js';
import type { WebhookDeps } from '../commands/webhook-commands.js';
import type { Services } from '../services.js';
import { WEBHOOK_OUTBOX_SCHEMA } from './webhook-deliveries.js';
import { DIRECTIONS_WINDOW_MS, type DirectionsBatcher } from './webhook-directions.js';
import { webhookReactor } from './webhook-reactor.js';
import { WebhookWorker } from './webhook-worker.js';

export interface Webhooks {
  reactor: ReactorRunner;
  worker: WebhookWorker;
  /** Turns the directions counted so far into deliveries (every 30 s; tests call it). */
  flushDirections(): Promise<number>;
}

declare module 'fastify' {
  interface FastifyInstance {
    webhooks: Webhooks;
  }
}

export async function setUpWebhooks(
  app: FastifyInstance,
  services: Services,
  directions: DirectionsBatcher,
  reactorOptions: ReactorRunnerOptions = {},
): Promise<WebhookDeps['webhooks']> {
  await services.db.exec(WEBHOOK_OUTBOX_SCHEMA);
  const policy = { allowLoopback: services.config.allowLoopbackTargets };
  const ownerOf = async (mapId: string) => (await loadMapAccess(services.db, mapId))?.facts.ownerUid ?? null;
  const history = await MapHistory.open(services.db, services.store);
  const stateAt = async (mapId: string, revision: bigint) => {
    const { state } = await history.stateAt(mapId, revision);
    return state.status === 'active' ? state.state : MapState.test;
  };
  const worker = new WebhookWorker({
    db: services.db,
    store: services.store,
    ids: services.ids,
    clock: services.clock,
    policy,
    ownerOf,
    mailer: services.mailer,
    publicUrl: services.config.publicUrl,
    logger: app.log,
  });
  const reactor = new ReactorRunner(
    services.db,
    services.store,
    webhookReactor({ db: services.db, ids: services.ids, clock: services.clock, ownerOf, onEnqueued: () => worker.poke(), stateAt }),
    app.log,
    reactorOptions,
  );
  const flushDirections = async () => {
    const added = await directions.flush({ db: services.db, ids: services.ids, ownerOf }, services.clock.now());
    if (added > 0) worker.poke();
    return added;
  };
  const flushQuietly = () => flushDirections().catch((error: unknown) => app.log.error({ err: error }, 'directions could not be turned into webhook deliveries'));
  let directionsTimer: NodeJS.Timeout | null = null;
  app.decorate('webhooks', { reactor, worker, flushDirections });
  app.addHook('onReady', async () => {
    await reactor.start();
    worker.start();
    directionsTimer = setInterval(() => void flushQuietly(), DIRECTIONS_WINDOW_MS);
    directionsTimer.unref();
  });
  app.addHook('onClose', async () => {
    if (directionsTimer) clearInterval(directionsTimer);
    await flushQuietly();
    await reactor.stop();
    await worker.stop();
  });
  return { policy, enqueue: (delivery) => worker.add(delivery) };
}
