// Entry of the SVG sanitiser's worker thread. From the compiled server (dist/node/, what
// `npm start` runs; scripts/build-server.ts) the worker's JavaScript is beside this file;
// from the sources (tsx in development, a test runner) the worker is TypeScript, loaded
// through tsx (a production dependency).
import { existsSync } from 'node:fs';

const compiled = new URL('./svg-sanitizer-worker.js', import.meta.url);
if (existsSync(compiled)) {
  await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./svg-sanitizer-worker.ts');
}
