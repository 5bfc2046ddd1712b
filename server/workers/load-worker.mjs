// What each worker thread's entry (a `.mjs` beside its `.ts`) runs: from the compiled server
// (dist/node/, what `npm start` runs; scripts/build-server.ts) the worker's JavaScript is beside
// the entry; from the sources (tsx in development, a test runner) the worker is TypeScript,
// loaded through tsx (a production dependency). One place, so the entries are one line each.
import { existsSync } from 'node:fs';

/** Loads the worker `name` (without extension) that sits beside the entry at `entryUrl`. */
export async function loadWorker(entryUrl, name) {
  const compiled = new URL(`./${name}.js`, entryUrl);
  if (existsSync(compiled)) {
    await import(compiled.href);
    return;
  }
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL(`./${name}.ts`, entryUrl).href);
}
