/**
 * Compiles the server's TypeScript to JavaScript in dist/node/ (`npm run build`, and
 * `npm start` through build-if-stale.ts when the sources changed), so that `npm start` runs
 * `node dist/node/server/main.js` without a TypeScript loader in the process.
 *
 * Why: tsx's loader runs in a thread of its own with its own JavaScript heap (Node 20 runs
 * module hooks off the main thread) and keeps each module's transform, about 40 MB of an idle
 * server's resident memory (issue 26 item 7: aim 300 MB), and it transforms every module again
 * at each start. Development (`npm run dev`) and the tests still run the sources through tsx.
 *
 * Each file alone (esbuild's transform, no bundling and no type check, which `npm run
 * typecheck` does: the tsconfig has isolatedModules and verbatimModuleSyntax, so a file needs
 * nothing of another to lose its types; TypeScript's own transpileModule took 20 times as
 * long), keeping the
 * folders as they are, so relative imports and `new URL('./x', import.meta.url)` still point
 * at their neighbours; the plain JavaScript modules beside them (the workers' entries, the
 * initdb child) are copied. Files the server reads outside its code are found from the
 * repository's root (server/project-root.ts). Packages resolve from the root's node_modules
 * as Node walks up.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';

/** The folders the server's code is in (everything server/main.ts imports lives in these). */
export const SERVER_SOURCES = ['server', 'events', 'projections', 'ports'] as const;
export const SERVER_OUT = 'dist/node';
/** The file `npm start` runs; written last, so its presence means a whole build. */
export const SERVER_ENTRY = `${SERVER_OUT}/server/main.js`;

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

export async function buildServer(root: string): Promise<{ files: number; ms: number }> {
  const started = performance.now();
  const out = path.join(root, SERVER_OUT);
  rmSync(out, { recursive: true, force: true });
  let files = 0;
  let entry: { file: string; code: string } | null = null;
  for (const source of SERVER_SOURCES) {
    for (const file of filesUnder(path.join(root, source))) {
      const relative = path.relative(root, file);
      const target = path.join(out, relative);
      if (file.endsWith('.ts') && !file.endsWith('.d.ts')) {
        const { code } = await transform(readFileSync(file, 'utf8'), { loader: 'ts', format: 'esm', target: 'node20', sourcefile: relative });
        const js = target.replace(/\.ts$/, '.js');
        mkdirSync(path.dirname(js), { recursive: true });
        if (path.join(root, SERVER_ENTRY) === js) entry = { file: js, code };
        else writeFileSync(js, code);
        files++;
      } else if (file.endsWith('.mjs')) {
        mkdirSync(path.dirname(target), { recursive: true });
        copyFileSync(file, target);
        files++;
      }
    }
  }
  if (!entry) throw new Error(`${SERVER_ENTRY} was not among the compiled files`);
  writeFileSync(entry.file, entry.code);
  return { files, ms: performance.now() - started };
}

if (process.argv[1] && existsSync(process.argv[1]) && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { files, ms } = await buildServer(fileURLToPath(new URL('..', import.meta.url)));
  console.log(`Server compiled to ${SERVER_OUT}/: ${files} files in ${(ms / 1000).toFixed(1)} s.`);
}
