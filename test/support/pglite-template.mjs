// Writes the files of a freshly created, empty PGlite database as a tar to the path given as the
// first argument, then exits: the template every in-memory test database is loaded from (see
// pglite-template.ts). Run as a child process by the test run's global setup, for the reason
// server/db/pglite-initdb.mjs gives: initdb's memory would otherwise stay with the runner.
import { writeFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';

const [file, settings] = process.argv.slice(2);
if (!file || !settings) {
  console.error('usage: pglite-template.mjs <tar file> <start parameters as JSON>');
  process.exit(2);
}
const pglite = await PGlite.create({ startParams: JSON.parse(settings) });
const dump = await pglite.dumpDataDir('none');
await pglite.close();
await writeFile(file, Buffer.from(await dump.arrayBuffer()));
