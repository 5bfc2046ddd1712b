// Creates a PGlite database in the directory given as the first argument, then exits. Run as
// a child process by pglite-database.ts when the directory holds no database yet: initdb takes
// two extra WebAssembly instances and some 600 MB, which a process that ran it would keep
// until a full garbage collection, and about 100 MB of it for good as a fragmented heap (even
// when a worker thread runs it). Plain JavaScript: it needs PGlite only, no TypeScript loader.
import { PGlite } from '@electric-sql/pglite';

const [directory, settings] = process.argv.slice(2);
if (!directory || !settings) {
  console.error('usage: pglite-initdb.mjs <directory> <start parameters as JSON>');
  process.exit(2);
}
const pglite = await PGlite.create(directory, { startParams: JSON.parse(settings) });
await pglite.close();
