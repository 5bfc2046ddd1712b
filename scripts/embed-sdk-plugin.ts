/**
 * A Vite plugin: the client's build also writes `embed.js`, the embed SDK
 * (client/src/embed-sdk/embed.ts), as one classic script at the site's root, where a host page
 * loads it with `<script src="https://…/embed.js">`. Its own build (an IIFE, nothing shared with
 * the app's chunks, no hash in its name: host pages keep one address); the precompress plugin
 * then writes its .br and .gz like every other file.
 */
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'vite';

const ENTRY = fileURLToPath(new URL('../client/src/embed-sdk/embed.ts', import.meta.url));
/** The SDK's budget (issue 30): at most 6 KB gzipped. test/e2e/embed-sdk.test.ts checks it. */
export const EMBED_SDK_BUDGET = 6 * 1024;

export function embedSdk(): Plugin {
  return {
    name: 'mapfold-embed-sdk',
    apply: 'build',
    async generateBundle() {
      const output = await build({
        configFile: false,
        logLevel: 'warn',
        publicDir: false,
        build: {
          write: false,
          emptyOutDir: false,
          minify: true,
          sourcemap: false,
          lib: { entry: ENTRY, formats: ['iife'], name: 'MapfoldEmbedSdk', fileName: () => 'embed.js' },
        },
      });
      const results = Array.isArray(output) ? output : [output];
      const chunk = results.flatMap((result) => ('output' in result ? result.output : [])).find((file) => file.type === 'chunk');
      if (!chunk || chunk.type !== 'chunk') throw new Error('The embed SDK did not build');
      this.emitFile({ type: 'asset', fileName: 'embed.js', source: chunk.code });
    },
  };
}
