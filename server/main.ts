/**
 * The process entry: configuration, services, projections, then listen. On SIGINT/SIGTERM it
 * stops accepting, lets in-flight requests finish, stops the projections and closes the
 * database, in that order.
 */
import { pino } from 'pino';
import { allProjections } from '../projections/index.js';
import { ProjectionRunner } from '../projections/runner.js';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { seedDemoMap } from './seed/seed-demo-map.js';
import { seedExampleMaps } from './seed/example-maps.js';
import { openServices } from './services.js';

const config = loadConfig();
const logger = pino({ level: config.logLevel });
const services = await openServices(config, { logger });
const app = await buildApp(services, false, { loggerInstance: logger });
await seedDemoMap(services.store, services.clock, services.ids);
await seedExampleMaps(services);
const runner = new ProjectionRunner(services.db, services.store, allProjections, app.log);
await runner.start();
await app.listen({ port: config.port, host: config.host });
app.log.info(
  {
    database: services.db.kind,
    dataDir: services.db.kind === 'pglite' ? config.dataDir : undefined,
    auth: services.auth.kind,
    billing: config.stripe.mode,
    mail: services.outbox ? `outbox (${new URL('/dev/outbox', config.publicUrl)})` : 'smtp',
  },
  `Mapfold is running at ${config.publicUrl}`,
);

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  await app.close();
  await runner.stop();
  await services.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
