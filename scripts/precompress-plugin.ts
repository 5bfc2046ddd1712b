/**
 * A Vite plugin: once the client is built, every text file of it (scripts, styles, pages,
 * drawings) is also written brotli- and gzip-compressed beside itself (`app-1a2b3c4d.js.br`,
 * `.gz`), at the strongest settings, once. The server hands those out by the request's
 * Accept-Encoding (`@fastify/static`'s `preCompressed`), so no request pays for compressing.
 * Node's zlib does it: nothing to install, and it is the same brotli every browser reads.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** Files worth compressing: text. Images and fonts are compressed already; source maps are not sent to browsers. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest)$/i;
/** Below this, compressed bytes plus the headers are no gain. */
const MIN_BYTES = 1024;

function filesUnder(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const full = path.join(directory, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

/** Writes `.br` and `.gz` beside every compressible file under `directory`; answers how many files it compressed. */
export function precompressDirectory(directory: string): number {
  let count = 0;
  for (const file of filesUnder(directory)) {
    if (!COMPRESSIBLE.test(file)) continue;
    const bytes = readFileSync(file);
    if (bytes.length < MIN_BYTES) continue;
    const brotli = brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    });
    const gzip = gzipSync(bytes, { level: 9 });
    // A compressed copy larger than the file would only cost: leave it out.
    if (brotli.length < bytes.length) writeFileSync(`${file}.br`, brotli);
    if (gzip.length < bytes.length) writeFileSync(`${file}.gz`, gzip);
    count++;
  }
  return count;
}

export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'mapfold-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      precompressDirectory(outDir);
    },
  };
}
