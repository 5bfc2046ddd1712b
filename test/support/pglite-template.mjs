// Writes the files of a freshly created, empty PGlite database (its "postgres" database only) as
// a tar to the path given as the first argument, then exits: the template every in-memory test
// database is loaded from (see pglite-template.ts). Run as a child process by the test run's
// global setup, for the reason server/db/pglite-initdb.mjs gives: initdb's memory would
// otherwise stay with the runner.
import { writeFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';

const [file, settings] = process.argv.slice(2);
if (!file || !settings) {
  console.error('usage: pglite-template.mjs <tar file> <start parameters as JSON>');
  process.exit(2);
}
const pglite = await PGlite.create({ startParams: JSON.parse(settings) });
// Without initdb's template databases: PGlite uses "postgres" only (a test never creates a
// database in it), and their two thirds of the files were most of what loading the template
// costs each test database (about a third of its opening: 110 ms less of a core each time,
// issue 26 item 9). Dropped as PostgreSQL drops any database, so its catalog stays whole.
await pglite.query(`UPDATE pg_database SET datistemplate = false WHERE datname IN ('template0', 'template1')`);
for (const database of ['template0', 'template1']) await pglite.query(`DROP DATABASE ${database}`);
await pglite.query('CHECKPOINT');
const dump = await pglite.dumpDataDir('none');
await pglite.close();
await writeFile(file, Buffer.from(await dump.arrayBuffer()));
