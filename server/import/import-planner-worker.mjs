// Entry of the import planner's worker thread (import-planner-pool.ts). From the compiled
// server (dist/node/, what `npm start` runs; scripts/build-server.ts) the worker's JavaScript
// is beside this file; from the sources (tsx in development, a test runner) the worker is
// TypeScript, loaded through tsx (a production dependency), as the SVG sanitiser's worker is
// (server/files/svg-sanitizer-worker.mjs).
import { existsSync } from 'node:fs';

const compiled = new URL('./import-planner-worker.js', import.meta.url);
if (existsSync(compiled)) {
  await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./import-planner-worker.ts');
}
