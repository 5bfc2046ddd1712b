/**
 * Operations: `/api/health` (the process is alive), `/api/ready` (it can serve) and `/metrics`
 * (Prometheus text format).
 *
 * `/api/ready` answers, by `status`:
 * - `ready` (200): database and event store answer, nothing is set aside or parked;
 * - `degraded` (200): a projection or a reactor set streams aside (named in its `setAside`):
 *   it could not apply one of their events, so those maps' or customers' rows wait for a
 *   repair (`npm run projections:repair`, or a restart with the fix) while every other stream
 *   goes on. Or an earlier version parked events (`parked`), missing until a rebuild. Nothing
 *   stops a projection any more, so this is never a 503;
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
    const degraded = [...Object.entries(faults ?? {}), ...Object.entries(reactors ?? {})]
      .filter(([, fault]) => fault.setAside.length > 0 || fault.parked > 0)
      .map(([name]) => name);
    const status = !database.ok || !eventStore.ok ? 'unavailable' : degraded.length > 0 ? 'degraded' : 'ready';
    reply.status(status === 'unavailable' ? 503 : 200).header('cache-control', 'no-store');
    if (!detailed) return { status };
    const lag = database.ok && eventStore.ok ? await projectionLag(deps.db, deps.store, deps.projections).catch(() => null) : null;
    // Every set-aside stream in one list, first failure first: what an operator repairs.
    const setAside = [...Object.values(faults ?? {}), ...Object.values(reactors ?? {})]
      .flatMap((fault) => fault.setAside)
      .map(({ projection, stream, eventId, type, position, error, setAsideAt, skipped }) => ({ by: projection, stream, eventId, type, position, error, setAsideAt, skipped }));
    return { status, degraded, setAside, database, eventStore, projectionLag: lag, projections: faults, reactors };
  });

  app.get('/metrics', { onRequest: requireOpsAccess(access), schema: { tags, description: 'Prometheus text format.' } }, async (_request, reply) => {
    reply.type(deps.metrics.registry.contentType).header('cache-control', 'no-store');
    return deps.metrics.registry.metrics();
  });
}
