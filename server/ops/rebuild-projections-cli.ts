/**
 * `npm run projections:rebuild [name ...]`: empties every read model (or those named) with its
 * dead letters, and replays the whole event log into it, on the database the configuration
 * names (PGlite in DATA_DIR or DATABASE_URL). Stop the server first when running on PGlite:
 * only one process may open its files.
 *
 * A poisoned event is handled as the running server would: parked (listed below) or, for a
 * projection whose rule is to stop, the projection stops there and the command exits with 1.
 */
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/open-database.js';
import { openKurrentDBEventStore } from '../event-store/kurrentdb-event-store.js';
import { PostgresEventStore } from '../event-store/postgres-event-store.js';
import { listDeadLetters } from '../../projections/dead-letters.js';
import { allProjections } from '../../projections/index.js';
import { ProjectionRunner } from '../../projections/runner.js';

const names = process.argv.slice(2);
const unknown = names.filter((name) => !allProjections.some((projection) => projection.name === name));
if (unknown.length > 0) {
  console.error(`Unknown projection: ${unknown.join(', ')}. Known: ${allProjections.map((p) => p.name).join(', ')}.`);
  process.exit(2);
}
const projections = names.length > 0 ? allProjections.filter((projection) => names.includes(projection.name)) : allProjections;

const config = loadConfig();
const db = await openDatabase(config);
const store = config.eventStoreUrl ? await openKurrentDBEventStore(config.eventStoreUrl) : await PostgresEventStore.open(db);
/** One line per log entry: the message, the projection, and the error's own message. */
const line = (details: object, message: string) => {
  const { projection, err } = details as { projection?: string; err?: unknown };
  return `${message}${projection ? ` (${projection})` : ''}${err instanceof Error ? `: ${err.message}` : ''}`;
};
const runner = new ProjectionRunner(db, store, projections, {
  error: (details, message) => console.error(line(details, message)),
  warn: (details, message) => console.warn(line(details, message)),
});
const started = Date.now();
await runner.resetAll();
const stopped = await runner.catchUp();
for (const projection of projections) {
  const { commit, prepare } = runner.positionOf(projection.name);
  const stop = runner.stoppedOn(projection.name);
  console.log(`${projection.name}: ${stop ? 'STOPPED at' : 'rebuilt up to'} position ${commit}:${prepare}`);
  if (stop) console.log(`  stopped before ${stop.poisoned.type} ${stop.poisoned.eventId} in ${stop.poisoned.stream}: ${stop.poisoned.error}`);
  for (const letter of await listDeadLetters(db, projection.name)) {
    console.log(`  parked ${letter.type} ${letter.eventId} in ${letter.stream} at ${letter.position}: ${letter.error}`);
  }
}
console.log(`Rebuilt ${projections.length - stopped.length} of ${projections.length} read models in ${Date.now() - started} ms.`);
await store.close();
await db.close();
if (stopped.length > 0) process.exit(1);
