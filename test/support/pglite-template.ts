/**
 * The in-memory test databases' starting point: the files of an empty PGlite database, made
 * once per run by the global setup (global-setup.ts), read once per test process and loaded by
 * every PGlite it opens. Loading them is the same database initdb would have made, at a
 * fraction of the cost (without the template databases, which no test uses: pglite-template.mjs).
 * Outside vitest (`npm run bench`, scripts/generate-asset-images.ts) nobody made a template, and
 * vitest's inject() throws there: such a process gets a fresh in-memory database (initdb, a few
 * seconds once), so the benches start servers through the tests' startTestServer(pgliteTarget).
 */
import { Blob } from 'node:buffer';
import { readFile } from 'node:fs/promises';
import { inject } from 'vitest';
import type { Database } from '../../ports/database.js';
import { openPGliteDatabase, pgliteFsBundlePath } from '../../server/db/pglite-database.js';

// Node's Blob, not the global one: under jsdom (the client tests) that is jsdom's, which PGlite
// cannot read.
const files = new Map<string, Promise<Blob>>();

/** The file's bytes, read once per process, as a Blob PGlite reads quickly. */
function inMemoryFile(file: string): Promise<Blob> {
  let blob = files.get(file);
  if (!blob) {
    blob = readFile(file).then((bytes) => new InMemoryBlob(bytes));
    files.set(file, blob);
  }
  return blob;
}

/**
 * A file's bytes as a Blob whose arrayBuffer() copies bytes already in memory. PGlite reads the
 * whole template (and its own share directory) with arrayBuffer() for each database it opens (a
 * few hundred a run), and Node 20's own reads an in-memory Blob as a stream of chunks it then
 * joins: for the 25 MB template, about a sixth of what opening a database costs (profiled: its
 * pull and concat).
 */
class InMemoryBlob extends Blob {
  readonly #bytes: Uint8Array;

  constructor(bytes: Uint8Array) {
    super([bytes]);
    this.#bytes = bytes;
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.#bytes.slice().buffer);
  }
}

/**
 * An empty in-memory PGlite database, started from the run's template (under vitest); or one in
 * `directory`, its files made from the template if it holds none yet (a database in a data
 * directory is opened again as the server opens it, without initdb's seconds in a child
 * process the first time: 17 s of a busy CI machine). `schema`: with the app's tables already
 * made (schema-templates.ts), when the run made that template.
 */
export async function openTestPGlite(directory?: string, options: { schema?: boolean } = {}): Promise<Database> {
  // Vitest sets VITEST in its processes; a bench or script run by tsx has no template to load.
  if (!process.env.VITEST) return openPGliteDatabase(directory);
  const file = (options.schema ? inject('pgliteSchemaTemplate') : null) ?? inject('pgliteTemplate');
  // The same Blob at run time; TypeScript's DOM typings name the global one only. PGlite's share
  // directory (6 MB) too: it would read it from disk for each database.
  const [template, fsBundle] = (await Promise.all([inMemoryFile(file), inMemoryFile(pgliteFsBundlePath())])) as unknown as [globalThis.Blob, globalThis.Blob];
  return openPGliteDatabase(directory, { template, fsBundle, settings: TEST_SETTINGS });
}

/**
 * A test database's buffers: 4 MB instead of the embedded server's 16 MB (START_PARAMS), which
 * PGlite zeroes at every start: some 0.3 s of a core less for each of the few hundred a run
 * opens (issue 26 item 9). A test database holds a few MB at most; a page not in the buffers is
 * a copy from PGlite's in-memory files.
 */
export const TEST_SETTINGS = ['shared_buffers=4MB'];
