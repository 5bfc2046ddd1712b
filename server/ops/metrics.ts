/**
 * Prometheus metrics (prom-client): command latency, projection lag, live connections and
 * webhook failures, plus Node's process metrics. One registry per app, so tests and several
 * apps in one process do not share counters.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface Metrics {
  registry: Registry;
  commandDuration: Histogram<'function' | 'outcome'>;
  projectionLag: Gauge<'projection'>;
  liveConnections: Gauge;
  webhookFailures: Counter<'provider'>;
}

export function createMetrics(collect: { projectionLag(): Promise<Record<string, number>>; liveConnections(): number }): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'mapfold_' });
  const commandDuration = new Histogram({
    name: 'mapfold_command_duration_seconds',
    help: 'Time to run a callable function, from request to answer.',
    labelNames: ['function', 'outcome'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const projectionLag = new Gauge({
    name: 'mapfold_projection_lag_events',
    help: 'Events in the log that a projection has not applied yet (counted up to 10,000).',
    labelNames: ['projection'] as const,
    registers: [registry],
    async collect() {
      for (const [projection, lag] of Object.entries(await collect.projectionLag())) this.set({ projection }, lag);
    },
  });
  const liveConnections = new Gauge({
    name: 'mapfold_live_connections',
    help: 'Open websocket connections to /api/live on this process.',
    registers: [registry],
    collect() {
      this.set(collect.liveConnections());
    },
  });
  const webhookFailures = new Counter({
    name: 'mapfold_webhook_failures_total',
    help: 'Incoming webhooks (payments) that could not be processed.',
    labelNames: ['provider'] as const,
    registers: [registry],
  });
  return { registry, commandDuration, projectionLag, liveConnections, webhookFailures };
}
