/**
 * `npm run projections:repair [name ...]`: applies the streams every projection (or those
 * named) set aside again, each from its first failed event, in log order, against today's code
 * and data (projections/repair.ts), on the database the configuration names. Run it after
 * deploying a fix; the server also does this at every start. On PGlite stop the server first
 * (only one process may open its files); on PostgreSQL it may run beside the server.
 *
 * Streams that apply are cleared; those that still fail stay set aside and are printed, and
 * the command exits with 1. Reactors' set-aside streams (the billing reactor's customers) need
 * the server's services: the server repairs them at its next start.
 */
import { listSetAsideStreams } from '../../projections/set-aside-streams.js';
import { BILLING_REACTOR } from '../billing/billing-reactor.js';
import { openOpsCli } from './ops-cli.js';

const { db, runner, close } = await openOpsCli(process.argv.slice(2));
const report = await runner.repair();
for (const stream of report.repaired) console.log(`repaired ${stream.projection} ${stream.stream} (set aside at ${stream.type} ${stream.eventId})`);
for (const stream of report.stillFailing) {
  console.log(`STILL SET ASIDE ${stream.projection} ${stream.stream} at ${stream.type} ${stream.eventId} (${stream.position}): ${stream.error}`);
}
const reactors = await listSetAsideStreams(db, [BILLING_REACTOR]);
if (reactors.length > 0) console.log(`${reactors.length} stream(s) set aside by ${BILLING_REACTOR}: the server repairs them at its next start.`);
console.log(`Repaired ${report.repaired.length} stream(s); ${report.stillFailing.length} still set aside.`);
await close();
if (report.stillFailing.length > 0) process.exit(1);
