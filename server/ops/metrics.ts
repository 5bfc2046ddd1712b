/**
 * Prometheus metrics (prom-client): command latency, projection lag and faults (set-aside
 * streams, named, and events parked by earlier versions), the same for reactors, live connections, the published-map cache
 * (bytes, entries, hits and misses) and webhook failures, plus
 * Node's process metrics.
 * One registry per app, so tests and several apps in one process do not share counters.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface Metrics {
  registry: Registry;
  commandDuration: Histogram<'function' | 'outcome'>;
  projectionLag: Gauge<'projection'>;
  projectionDeadLetters: Gauge<'projection'>;
  projectionSetAsideStreams: Gauge<'projection'>;
  projectionSetAsideStream: Gauge<'projection' | 'stream'>;
  reactorDeadLetters: Gauge<'reactor'>;
  reactorSetAsideStreams: Gauge<'reactor'>;
  reactorSetAsideStream: Gauge<'reactor' | 'stream'>;
  liveConnections: Gauge;
  publicMapCacheBytes: Gauge;
  publicMapCacheEntries: Gauge;
  publicMapCacheReads: Counter<'outcome'>;
  webhookFailures: Counter<'provider'>;
}

export interface MetricsSources {
  projectionLag(): Promise<Record<string, number>>;
  projectionFaults(): Promise<Record<string, Faults>>;
  reactorFaults(): Promise<Record<string, Faults>>;
  liveConnections(): number;
  /** The published-map cache of this process (server/public-maps/public-map-cache.ts). */
  publicMapCache(): { bytes: number; entries: number; hits: number; misses: number };
}

/** What /metrics reads of a projection's or reactor's faults (server/ops/projection-faults.ts). */
interface Faults {
  parked: number;
  setAside: readonly { stream: string }[];
}

export function createMetrics(collect: MetricsSources): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'mapfold_' });
  const commandDuration = new Histogram({
    name: 'mapfold_command_duration_seconds',
    help: 'Time to run a callable function, from request to answer.',
    labelNames: ['function', 'outcome'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  // Read from the database at each scrape. When it does not answer, the gauges keep their last
  // values rather than failing the whole scrape: the other metrics matter most just then.
  const projectionLag = new Gauge({
    name: 'mapfold_projection_lag_events',
    help: 'Events in the log that a projection has not applied yet (counted up to 10,000).',
    labelNames: ['projection'] as const,
    registers: [registry],
    async collect() {
      const lag = await collect.projectionLag().catch(() => ({}));
      for (const [projection, events] of Object.entries(lag)) this.set({ projection }, events);
    },
  });
  const faults = () => collect.projectionFaults().catch(() => ({}));
  const projectionDeadLetters = new Gauge({
    name: 'mapfold_projection_dead_letters',
    help: 'Events a projection parked as poisoned in earlier versions (projection_dead_letters), until its next rebuild.',
    labelNames: ['projection'] as const,
    registers: [registry],
    async collect() {
      for (const [projection, { parked }] of Object.entries(await faults())) this.set({ projection }, parked);
    },
  });
  const projectionSetAsideStreams = new Gauge({
    name: 'mapfold_projection_set_aside_streams',
    help: 'Streams (maps, customers) a projection set aside: it could not apply one of their events, so their rows wait for a repair (npm run projections:repair) while every other stream goes on.',
    labelNames: ['projection'] as const,
    registers: [registry],
    async collect() {
      for (const [projection, { setAside }] of Object.entries(await faults())) this.set({ projection }, setAside.length);
    },
  });
  const projectionSetAsideStream = new Gauge({
    name: 'mapfold_projection_set_aside_stream',
    help: '1 for each stream a projection set aside, by name (gone once repaired).',
    labelNames: ['projection', 'stream'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const [projection, { setAside }] of Object.entries(await faults())) for (const { stream } of setAside) this.set({ projection, stream }, 1);
    },
  });
  const reactorFaults = () => collect.reactorFaults().catch(() => ({}));
  const reactorDeadLetters = new Gauge({
    name: 'mapfold_reactor_dead_letters',
    help: 'Events a reactor (billing-reactor: checkouts, Stripe webhooks) parked as poisoned in earlier versions, and went on past.',
    labelNames: ['reactor'] as const,
    registers: [registry],
    async collect() {
      for (const [reactor, { parked }] of Object.entries(await reactorFaults())) this.set({ reactor }, parked);
    },
  });
  const reactorSetAsideStreams = new Gauge({
    name: 'mapfold_reactor_set_aside_streams',
    help: 'Streams (customers) a reactor set aside after its handler kept failing on one of their events; the other customers go on. Repaired at the next start.',
    labelNames: ['reactor'] as const,
    registers: [registry],
    async collect() {
      for (const [reactor, { setAside }] of Object.entries(await reactorFaults())) this.set({ reactor }, setAside.length);
    },
  });
  const reactorSetAsideStream = new Gauge({
    name: 'mapfold_reactor_set_aside_stream',
    help: '1 for each stream a reactor set aside, by name (gone once repaired).',
    labelNames: ['reactor', 'stream'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const [reactor, { setAside }] of Object.entries(await reactorFaults())) for (const { stream } of setAside) this.set({ reactor, stream }, 1);
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
  const publicMapCacheBytes = new Gauge({
    name: 'mapfold_public_map_cache_bytes',
    help: 'Bytes of published maps kept in memory by this process (every encoding), bounded by PUBLIC_MAP_CACHE_BYTES.',
    registers: [registry],
    collect() {
      this.set(collect.publicMapCache().bytes);
    },
  });
  const publicMapCacheEntries = new Gauge({
    name: 'mapfold_public_map_cache_entries',
    help: 'Published map answers (JSON and pages) kept in memory by this process.',
    registers: [registry],
    collect() {
      this.set(collect.publicMapCache().entries);
    },
  });
  const publicMapCacheReads = new Counter({
    name: 'mapfold_public_map_cache_reads_total',
    help: 'Reads of published maps and pages: answered from memory (hit) or read from the database (miss). Many misses with a full cache: raise PUBLIC_MAP_CACHE_BYTES.',
    labelNames: ['outcome'] as const,
    registers: [registry],
    collect() {
      // The cache counts; the counter shows its totals.
      const { hits, misses } = collect.publicMapCache();
      this.reset();
      this.inc({ outcome: 'hit' }, hits);
      this.inc({ outcome: 'miss' }, misses);
    },
  });
  const webhookFailures = new Counter({
    name: 'mapfold_webhook_failures_total',
    help: 'Incoming webhooks (payments) that could not be processed.',
    labelNames: ['provider'] as const,
    registers: [registry],
  });
  return {
    registry,
    commandDuration,
    projectionLag,
    projectionDeadLetters,
    projectionSetAsideStreams,
    projectionSetAsideStream,
    reactorDeadLetters,
    reactorSetAsideStreams,
    reactorSetAsideStream,
    liveConnections,
    publicMapCacheBytes,
    publicMapCacheEntries,
    publicMapCacheReads,
    webhookFailures,
  };
}
