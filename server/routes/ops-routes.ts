/**
 * Operations: `/api/health` (the process is alive), `/api/ready` (it can serve) and `/metrics`
 * (Prometheus text format).
 *
 * `/api/ready` answers, by `status`:
 * - `ready` (200): database and event store answer, every projection runs with nothing parked;
 * - `degraded` (200): a projection parked poisoned events; the process serves, those events'
 *   changes are missing from that read model until it is rebuilt. Or a reactor (the billing
 *   reactor) parked events: it went on past them, but what they asked for (a checkout, a
 *   webhook's change) was not done;
 * - `degraded` (503): a projection stopped on a poisoned event; its read model no longer
 *   follows the log, so the product is not fully working;
 * - `unavailable` (503): the database or the event store does not answer.
 * Anyone gets the status; the details (errors, lag, each projection's and reactor's faults,
 * naming the degraded ones) and `/metrics` only go to the callers ops-access.ts lets in.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { typed } from '../http/zod-routes.js';
import type { Projection } from '../../projections/projection.js';
import type { Config } from '../config.js';
import type { Database } from '../../ports/database.js';
import type { EventStore } from '../../ports/event-store.js';
import type { Metrics } from '../ops/metrics.js';
import { opsAccessRule, requireOpsAccess } from '../ops/ops-access.js';
import { projectionFaults } from '../ops/projection-faults.js';
import { projectionLag } from '../ops/projection-lag.js';
import { reactorFaults } from '../ops/reactor-faults.js';

async function check(work: () => Promise<unknown>): Promise<{ ok: boolean; error?: string }> {
  try {
    await work();
    return { ok: true };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

export async function opsRoutes(
  app: FastifyInstance,
  deps: {
    db: Database;
    store: EventStore;
    projections: readonly Projection[];
    /** The reactors' names (server/billing/reactor-runner.ts): their parked events degrade readiness too. */
    reactors: readonly string[];
    metrics: Metrics;
    config: Pick<Config, 'metricsToken' | 'trustProxy'>;
  },
): Promise<void> {
  const access = opsAccessRule(deps.config);

  const tags = ['operations'];
  typed(app).get('/api/health', { schema: { tags, response: { 200: z.object({ status: z.literal('ok') }) } } }, async () => ({ status: 'ok' as const }));

  const Ready = z
    .object({ status: z.enum(['ready', 'degraded', 'unavailable']) })
    .catchall(z.unknown())
    .describe('Details (database, event store, lag, projections, reactors) only for callers allowed /metrics.');
  app.get('/api/ready', { schema: { tags, response: { 200: Ready, 503: Ready } } }, async (request, reply) => {
    const detailed = access(request).granted;
    const database = await check(() => deps.db.query('SELECT 1'));
    const eventStore = await check(() => deps.store.readAll({ maxCount: 1 }));
    // Unknown (tables not made yet, or unreadable) counts as no fault: the checks above say whether it can serve.
    const faults = database.ok ? await projectionFaults(deps.db, deps.projections, { list: detailed }).catch(() => null) : null;
    const reactors = database.ok ? await reactorFaults(deps.db, deps.reactors, { list: detailed }).catch(() => null) : null;
    const degraded = [
      ...Object.entries(faults ?? {}).filter(([, fault]) => fault.state === 'stopped' || fault.parked > 0),
      ...Object.entries(reactors ?? {}).filter(([, fault]) => fault.parked > 0),
    ].map(([name]) => name);
    const stopped = Object.values(faults ?? {}).some((fault) => fault.state === 'stopped');
    const status = !database.ok || !eventStore.ok ? 'unavailable' : degraded.length > 0 ? 'degraded' : 'ready';
    reply.status(status === 'unavailable' || stopped ? 503 : 200).header('cache-control', 'no-store');
    if (!detailed) return { status };
    const lag = database.ok && eventStore.ok ? await projectionLag(deps.db, deps.store, deps.projections).catch(() => null) : null;
    return { status, degraded, database, eventStore, projectionLag: lag, projections: faults, reactors };
  });

  app.get('/metrics', { onRequest: requireOpsAccess(access), schema: { tags, description: 'Prometheus text format.' } }, async (_request, reply) => {
    reply.type(deps.metrics.registry.contentType).header('cache-control', 'no-store');
    return deps.metrics.registry.metrics();
  });
}
