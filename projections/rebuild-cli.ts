/**
 * `npm run projections:rebuild`: empties every read model and replays the whole event log
 * into it, on the database the configuration names (PGlite in DATA_DIR or DATABASE_URL).
 * Stop the server first when running on PGlite: only one process may open its files.
 */
import { loadConfig } from '../server/config.js';
import { openDatabase } from '../server/db/open-database.js';
import { openKurrentDBEventStore } from '../server/event-store/kurrentdb-event-store.js';
import { PostgresEventStore } from '../server/event-store/postgres-event-store.js';
import { allProjections } from './index.js';
import { ProjectionRunner } from './runner.js';

const config = loadConfig();
const db = await openDatabase(config);
const store = config.eventStoreUrl ? await openKurrentDBEventStore(config.eventStoreUrl) : await PostgresEventStore.open(db);
const runner = new ProjectionRunner(db, store, allProjections, {
  error: (details, message) => console.error(message, details),
});
const started = Date.now();
await runner.resetAll();
await runner.catchUp();
for (const projection of allProjections) {
  const { commit, prepare } = runner.positionOf(projection.name);
  console.log(`${projection.name}: rebuilt up to position ${commit}:${prepare}`);
}
console.log(`Rebuilt ${allProjections.length} read models in ${Date.now() - started} ms.`);
await store.close();
await db.close();
