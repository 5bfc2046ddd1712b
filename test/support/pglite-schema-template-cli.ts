/**
 * `node --import tsx pglite-schema-template-cli.ts <empty tar> <out tar> <settings as JSON>`:
 * writes the PGlite template with the app's schema (schema-templates.ts), then exits. Run as a
 * child process by the global setup: vitest's module runner there cannot load PGlite's
 * WebAssembly (import.meta.resolve), and the database's memory stays out of the runner.
 */
import { makePGliteSchemaTemplate } from './schema-templates.js';

const [emptyTar, out, settings] = process.argv.slice(2);
if (!emptyTar || !out || !settings) {
  console.error('usage: pglite-schema-template-cli.ts <empty tar> <out tar> <settings as JSON>');
  process.exit(2);
}
await makePGliteSchemaTemplate(emptyTar, out, JSON.parse(settings) as string[]);
// Worker threads or timers the app may leave (none should) do not hold the child.
process.exit(0);
