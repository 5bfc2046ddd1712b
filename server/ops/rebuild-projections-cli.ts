/**
 * `npm run projections:rebuild [name ...]`: empties every read model (or those named) with its
 * dead letters and set-aside streams, and replays the whole event log into it, on the database
 * the configuration names (PGlite in DATA_DIR or DATABASE_URL). Stop the server first when
 * running on PGlite: only one process may open its files.
 *
 * An event a projection still cannot apply sets its stream aside, as in the running server:
 * the stream is listed below, every other stream is rebuilt, and the command exits with 1.
 */
import { listSetAsideStreams } from '../../projections/set-aside-streams.js';
import { openOpsCli } from './ops-cli.js';

const { db, projections, runner, close } = await openOpsCli(process.argv.slice(2));
const started = Date.now();
await runner.resetAll();
await runner.catchUp();
const setAside = await listSetAsideStreams(db, projections.map((projection) => projection.name));
for (const projection of projections) {
  const { commit, prepare } = runner.positionOf(projection.name);
  console.log(`${projection.name}: rebuilt up to position ${commit}:${prepare}`);
  for (const stream of setAside.filter((s) => s.projection === projection.name)) {
    console.log(`  set aside ${stream.stream} at ${stream.type} ${stream.eventId} (${stream.position}): ${stream.error}`);
  }
}
console.log(`Rebuilt ${projections.length} read models in ${Date.now() - started} ms; ${setAside.length} stream(s) set aside.`);
await close();
if (setAside.length > 0) process.exit(1);
