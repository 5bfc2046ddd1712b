/**
 * The in-memory test databases' starting point: the files of an empty PGlite database, made
 * once per run by the global setup (global-setup.ts), read once per test process and loaded by
 * every PGlite it opens. Loading them is the same database initdb would have made, at a
 * fraction of the cost (without the template databases, which no test uses: pglite-template.mjs).
 */
import { Blob } from 'node:buffer';
import { readFile } from 'node:fs/promises';
import { inject } from 'vitest';
import type { Database } from '../../ports/database.js';
import { openPGliteDatabase } from '../../server/db/pglite-database.js';

// Node's Blob, not the global one: under jsdom (the client tests) that is jsdom's, which PGlite
// cannot read.
let template: Promise<Blob> | null = null;

function pgliteTemplate(): Promise<Blob> {
  template ??= readFile(inject('pgliteTemplate')).then((bytes) => new Blob([bytes]));
  return template;
}

/** An empty in-memory PGlite database, started from the run's template. */
export async function openTestPGlite(): Promise<Database> {
  // The same Blob at run time; TypeScript's DOM typings name the global one only.
  const template = (await pgliteTemplate()) as unknown as globalThis.Blob;
  return openPGliteDatabase(undefined, { template });
}
