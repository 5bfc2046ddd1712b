/**
 * The repository's root folder (the one with package.json), for files the server reads beside
 * its code: the client's build (dist/), the client's public files, the basemap archive.
 *
 * Found by walking up from this module rather than by a fixed `../..`: the same module runs
 * from its source (server/, under tsx in development and tests) and from its compiled copy
 * (dist/node/server/, what `npm start` runs; scripts/build-server.ts), two folders deeper.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

function findRoot(from: string): string {
  for (let folder = from; ; folder = path.dirname(folder)) {
    if (existsSync(path.join(folder, 'package.json'))) return folder;
    if (path.dirname(folder) === folder) throw new Error(`No package.json above ${from}`);
  }
}

export const PROJECT_ROOT = findRoot(import.meta.dirname);

/** A path inside the repository, from its root. */
export const fromProjectRoot = (...segments: string[]): string => path.join(PROJECT_ROOT, ...segments);
