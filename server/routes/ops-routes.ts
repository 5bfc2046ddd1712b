/**
 * Operations: `/api/health` (the process is alive), `/api/ready` (it can serve: database and
 * event store answer; projection lag reported) and `/metrics` (Prometheus text format).
 */
import type { FastifyInstance } from 'fastify';
import type { Projection } from '../../projections/projection.js';
import type { Database } from '../db/database.js';
import type { EventStore } from '../event-store/event-store.js';
import type { Metrics } from '../ops/metrics.js';
import { projectionLag } from '../ops/projection-lag.js';

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
  deps: { db: Database; store: EventStore; projections: readonly Projection[]; metrics: Metrics },
): Promise<void> {
  app.get('/api/health', async () => ({ status: 'ok' }));

  app.get('/api/ready', async (_request, reply) => {
    const database = await check(() => deps.db.query('SELECT 1'));
    const eventStore = await check(() => deps.store.readAll({ maxCount: 1 }));
    const lag = database.ok && eventStore.ok ? await projectionLag(deps.db, deps.store, deps.projections).catch(() => null) : null;
    const ready = database.ok && eventStore.ok;
    return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unavailable', database, eventStore, projectionLag: lag });
  });

  app.get('/metrics', async (_request, reply) => {
    reply.type(deps.metrics.registry.contentType);
    return deps.metrics.registry.metrics();
  });
}
