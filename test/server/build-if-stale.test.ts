/**
 * `npm start` builds the client only when the build is missing or older than its sources
 * (scripts/build-if-stale.ts): it used to build on every start (38 s to the first page).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILD_ENV_FILE, BUILD_INPUTS, BUILD_OUTPUTS, readBuildState, serverStaleness, staleness, viteEnv, type BuildState } from '../../scripts/build-if-stale.js';
import { SERVER_ENTRY } from '../../scripts/build-server.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const T = Date.parse('2026-11-01T12:00:00Z');

describe('the staleness decision', () => {
  const outputs = (...times: (number | null)[]): BuildState['outputs'] => times.map((mtimeMs, i) => ({ file: `dist/out-${i}`, mtimeMs }));
  const fresh: BuildState = { newestInput: { file: 'client/src/main.tsx', mtimeMs: T }, outputs: outputs(T + 1000, T + 2000), builtEnv: {}, currentEnv: {} };

  it('keeps a build newer than every input, made with the same settings', () => {
    expect(staleness(fresh)).toEqual({ stale: false });
    expect(staleness({ ...fresh, builtEnv: { VITE_DEMO_MAP_ID: 'm1' }, currentEnv: { VITE_DEMO_MAP_ID: 'm1' } })).toEqual({ stale: false });
  });

  it('builds when an output is missing', () => {
    expect(staleness({ ...fresh, outputs: outputs(T + 1000, null) })).toEqual({ stale: true, reason: 'dist/out-1 is missing' });
  });

  it('builds when an input changed after the oldest output (a step that failed leaves an old file)', () => {
    expect(staleness({ ...fresh, outputs: outputs(T - 1, T + 1000) })).toEqual({ stale: true, reason: 'client/src/main.tsx changed after the last build' });
  });

  it('builds when the VITE_* settings differ from those the build was made with, or were not recorded', () => {
    expect(staleness({ ...fresh, currentEnv: { VITE_DEMO_MAP_ID: 'm1' } })).toEqual({ stale: true, reason: 'VITE_DEMO_MAP_ID is not what the last build was made with' });
    expect(staleness({ ...fresh, builtEnv: { VITE_DOCS_URL: 'https://a' } })).toMatchObject({ stale: true });
    expect(staleness({ ...fresh, builtEnv: null })).toMatchObject({ stale: true });
  });

  it('reads only VITE_* variables as build settings', () => {
    expect(viteEnv({ VITE_X_URL: 'https://x', PORT: '3000', DATABASE_URL: 'postgres://' })).toEqual({ VITE_X_URL: 'https://x' });
  });
});

describe('a repository on disk', () => {
  let root: string;
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const write = (file: string, at: number) => {
    const full = path.join(root, file);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, file === BUILD_ENV_FILE ? '{}' : 'x');
    utimesSync(full, at / 1000, at / 1000);
  };

  function builtRepository(): void {
    root = mkdtempSync(path.join(tmpdir(), 'build-if-stale-'));
    for (const file of ['client/src/main.tsx', 'client/index.html', 'events/map.ts', 'vite.config.ts', 'package-lock.json', 'package.json', 'server/main.ts', 'README.md']) write(file, T);
    for (const file of BUILD_OUTPUTS) write(file, T + 60_000);
  }

  it('is fresh after a build, and a change outside the build (server code, README) keeps it so', () => {
    builtRepository();
    expect(staleness(readBuildState(root, {}))).toEqual({ stale: false });
    write('server/main.ts', T + 120_000);
    write('README.md', T + 120_000);
    expect(staleness(readBuildState(root, {}))).toEqual({ stale: false });
  });

  it.each(['client/src/features/viewer/new-file.tsx', 'events/map.ts', 'vite.config.ts', 'package-lock.json', '.env'])('is stale once %s changes', (file) => {
    builtRepository();
    write(file, T + 120_000);
    expect(staleness(readBuildState(root, {}))).toEqual({ stale: true, reason: `${file} changed after the last build` });
  });

  it('is stale when a step’s output is missing, or the server starts with other VITE_* settings', () => {
    builtRepository();
    expect(staleness(readBuildState(root, { VITE_DEMO_MAP_ID: 'm1' }))).toMatchObject({ stale: true });
    rmSync(path.join(root, 'dist/server/viewer-server.js'));
    expect(staleness(readBuildState(root, {}))).toEqual({ stale: true, reason: 'dist/server/viewer-server.js is missing' });
  });

  it('compiles the server again, alone, when its compiled copy is missing or one of its sources or the lockfile changed after it', () => {
    builtRepository();
    write(SERVER_ENTRY, T + 60_000);
    expect(serverStaleness(root)).toEqual({ stale: false });
    write('README.md', T + 120_000);
    expect(serverStaleness(root)).toEqual({ stale: false });
    write('server/main.ts', T + 120_000);
    expect(serverStaleness(root)).toEqual({ stale: true, reason: 'server/main.ts changed after the last build' });
    // A change of the server alone leaves the client's build as it is.
    expect(staleness(readBuildState(root, {}))).toEqual({ stale: false });
    write('projections/new-projection.ts', T + 180_000);
    write(SERVER_ENTRY, T + 150_000);
    expect(serverStaleness(root)).toEqual({ stale: true, reason: 'projections/new-projection.ts changed after the last build' });
    rmSync(path.join(root, SERVER_ENTRY));
    expect(serverStaleness(root)).toEqual({ stale: true, reason: `${SERVER_ENTRY} is missing` });
  });
});

describe('the inputs cover what the build reads', () => {
  const isInput = (file: string) => BUILD_INPUTS.some((input) => file === input || file.startsWith(`${input}/`));
  const relativeImports = (file: string): string[] =>
    [...readFileSync(path.join(REPO, file), 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((match) => match[1]!);
  const resolve = (from: string, specifier: string): string => {
    const bare = path.join(path.dirname(from), specifier).replace(/\.js$/, '');
    for (const candidate of [bare, `${bare}.ts`, `${bare}.tsx`, path.join(bare, 'index.ts')]) {
      try {
        if (statSync(path.join(REPO, candidate)).isFile()) return candidate;
      } catch {
        // try the next spelling
      }
    }
    return bare;
  };

  it('every module the client, the Vite config and the build scripts import (transitively) is an input', () => {
    const clientFiles = (dir: string): string[] =>
      readdirSync(path.join(REPO, dir), { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory() ? clientFiles(path.join(dir, entry.name)) : /\.(ts|tsx)$/.test(entry.name) ? [path.join(dir, entry.name)] : [],
      );
    const pending = ['vite.config.ts', 'scripts/prerender-pages.ts', ...clientFiles('client/src')];
    const seen = new Set<string>();
    const outside: string[] = [];
    while (pending.length) {
      const file = pending.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      if (!isInput(file)) outside.push(file);
      for (const specifier of relativeImports(file)) pending.push(resolve(file, specifier));
    }
    expect(outside).toEqual([]);
    expect(seen.size).toBeGreaterThan(100);
  });

  it('npm start builds through it and runs the compiled server, and npm run build compiles the server and records its settings last', () => {
    const { scripts } = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(scripts.start).toBe(`tsx scripts/build-if-stale.ts && node ${SERVER_ENTRY}`);
    expect(scripts.build).toMatch(/&& tsx scripts\/build-server\.ts && tsx scripts\/build-if-stale\.ts --record$/);
  });
});
