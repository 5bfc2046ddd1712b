/**
 * `npm start` builds the client only when its build is missing or older than what it is built
 * from: a full build takes about a minute here, and a restart with nothing changed used to
 * wait for one every time (issue 27).
 *
 * `tsx scripts/build-if-stale.ts` runs `npm run build` when needed; `--record` (the last step
 * of `npm run build`) notes the build-time settings (`VITE_*`) the build was made with, since a
 * build made without `VITE_DEMO_MAP_ID` is stale when the server starts with it.
 *
 * Stale means: a file the build writes last of each step is missing, or any input (client/,
 * events/, which the client imports, the Vite config and the scripts and server modules the
 * build runs, package.json, the lockfile, .env files) was changed after the oldest of them,
 * or the `VITE_*` settings differ from the recorded ones.
 *
 * The server's compiled copy (dist/node/, scripts/build-server.ts: what `npm start` runs) is
 * a step of its own, a second's work: made again alone when only the server's sources changed
 * (serverStaleness), without the client's minute.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer, SERVER_ENTRY, SERVER_SOURCES } from './build-server.js';

/** What the build reads, relative to the repository: folders are read whole. */
export const BUILD_INPUTS = [
  'client',
  'events',
  'vite.config.ts',
  'scripts/precompress-plugin.ts',
  'scripts/embed-sdk-plugin.ts',
  'scripts/maplibre-source-plugin.ts',
  'scripts/preload-deps-plugin.ts',
  'scripts/preact-aliases.ts',
  'scripts/viewer-messages-plugin.ts',
  'scripts/viewer-messages.ts',
  'scripts/prerender-pages.ts',
  'server/client-manifest.ts',
  'server/http/prerendered-pages.ts',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  '.env',
  '.env.local',
  '.env.production',
  '.env.production.local',
] as const;

/** Where `--record` notes the build's `VITE_*` settings. */
export const BUILD_ENV_FILE = 'dist/build-env.json';

/** One file per step of `npm run build`, each written at its step's end (or after its folder was emptied). */
export const BUILD_OUTPUTS = [
  'dist/client/index.html',
  'dist/client/viewer.html',
  'dist/server/viewer-server.js',
  'dist/client/pages/index.html',
  BUILD_ENV_FILE,
] as const;

export type BuildEnv = Record<string, string>;

export interface BuildState {
  /** The newest input file and its modification time, or null when there is none. */
  newestInput: { file: string; mtimeMs: number } | null;
  /** Each required output and its modification time (null: missing). */
  outputs: { file: string; mtimeMs: number | null }[];
  /** The `VITE_*` settings the build was made with (null: not recorded). */
  builtEnv: BuildEnv | null;
  /** The `VITE_*` settings now. */
  currentEnv: BuildEnv;
}

export type Staleness = { stale: false } | { stale: true; reason: string };

/** Whether the build must be made again, and why (said on the console before building). */
export function staleness({ newestInput, outputs, builtEnv, currentEnv }: BuildState): Staleness {
  const missing = outputs.find((output) => output.mtimeMs === null);
  if (missing) return { stale: true, reason: `${missing.file} is missing` };
  const oldest = Math.min(...outputs.map((output) => output.mtimeMs!));
  if (newestInput && newestInput.mtimeMs > oldest) return { stale: true, reason: `${newestInput.file} changed after the last build` };
  if (builtEnv === null) return { stale: true, reason: 'the build-time settings of the last build are not recorded' };
  const names = new Set([...Object.keys(builtEnv), ...Object.keys(currentEnv)]);
  const changed = [...names].sort().find((name) => builtEnv[name] !== currentEnv[name]);
  if (changed) return { stale: true, reason: `${changed} is not what the last build was made with` };
  return { stale: false };
}

/**
 * Whether the server's compiled copy must be made again: its entry (written last) is missing, or
 * a file of the server's sources (server/, events/, projections/, ports/) or the lockfile changed
 * after it.
 */
export function serverStaleness(root: string): Staleness {
  const built = mtimeOf(path.join(root, SERVER_ENTRY));
  if (built === null) return { stale: true, reason: `${SERVER_ENTRY} is missing` };
  for (const input of [...SERVER_SOURCES, 'package-lock.json']) {
    const found = newestUnder(path.join(root, input));
    if (found && found.mtimeMs > built) return { stale: true, reason: `${path.relative(root, found.file)} changed after the last build` };
  }
  return { stale: false };
}

/** The `VITE_*` variables of an environment: what Vite puts in the client (its default envPrefix). */
export function viteEnv(env: NodeJS.ProcessEnv): BuildEnv {
  const picked: BuildEnv = {};
  for (const [name, value] of Object.entries(env)) if (name.startsWith('VITE_') && value !== undefined) picked[name] = value;
  return picked;
}

function mtimeOf(file: string): number | null {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return null;
  }
}

/** The newest file under `entry` (a file or a folder), or null when there is none. */
function newestUnder(entry: string): { file: string; mtimeMs: number } | null {
  let stat;
  try {
    stat = statSync(entry);
  } catch {
    return null;
  }
  if (!stat.isDirectory()) return { file: entry, mtimeMs: stat.mtimeMs };
  let newest: { file: string; mtimeMs: number } | null = null;
  for (const name of readdirSync(entry)) {
    const found = newestUnder(path.join(entry, name));
    if (found && (!newest || found.mtimeMs > newest.mtimeMs)) newest = found;
  }
  return newest;
}

function readBuiltEnv(file: string): BuildEnv | null {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
    return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch {
    return null;
  }
}

/** The build's state in the repository at `root`, with the environment `env`. */
export function readBuildState(root: string, env: NodeJS.ProcessEnv): BuildState {
  let newestInput: BuildState['newestInput'] = null;
  for (const input of BUILD_INPUTS) {
    const found = newestUnder(path.join(root, input));
    if (found && (!newestInput || found.mtimeMs > newestInput.mtimeMs)) newestInput = { file: path.relative(root, found.file), mtimeMs: found.mtimeMs };
  }
  return {
    newestInput,
    outputs: BUILD_OUTPUTS.map((file) => ({ file, mtimeMs: mtimeOf(path.join(root, file)) })),
    builtEnv: readBuiltEnv(path.join(root, BUILD_ENV_FILE)),
    currentEnv: viteEnv(env),
  };
}

/** Notes the settings of the build just made (the last step of `npm run build`). */
export function recordBuildEnv(root: string, env: NodeJS.ProcessEnv): void {
  writeFileSync(path.join(root, BUILD_ENV_FILE), `${JSON.stringify(viteEnv(env), null, 2)}\n`);
}

async function main(): Promise<void> {
  const root = fileURLToPath(new URL('..', import.meta.url));
  if (process.argv.includes('--record')) {
    recordBuildEnv(root, process.env);
    return;
  }
  const state = staleness(readBuildState(root, process.env));
  if (state.stale) {
    // The whole build, the server's compiled copy included.
    console.log(`Building the client: ${state.reason}.`);
    const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) process.exit(build.status ?? 1);
    return;
  }
  console.log('The client build is up to date (npm run build makes it again).');
  const server = serverStaleness(root);
  if (!server.stale) return;
  console.log(`Compiling the server: ${server.reason}.`);
  const { files, ms } = await buildServer(root);
  console.log(`Server compiled to ${path.dirname(path.dirname(SERVER_ENTRY))}/: ${files} files in ${(ms / 1000).toFixed(1)} s.`);
}

if (process.argv[1] && existsSync(process.argv[1]) && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
