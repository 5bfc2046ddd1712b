/**
 * Shorter preload lists for the build's dynamic imports (vite's `__vite__mapDeps`: every file a
 * dynamic import's chunk needs, listed in the importing chunk, 39 hashed names in the viewer's
 * first load). Vite's list for a chunk's dynamic import of chunk x holds x itself, everything x imports
 * statically (transitively) and their stylesheets. Two kinds of names in it do nothing on any load:
 *  - files the importing chunk imports statically itself (React, the runtime, the viewer's core):
 *    they ran before the chunk did, and vite's helper skips a file already linked anyway;
 *  - x itself when no stylesheet is waited for: the helper calls `import()` a microtask after it
 *    adds its links, so the browser fetches x at once either way. With a stylesheet to wait for,
 *    x stays listed, fetched while the stylesheet loads.
 * The rest (x's own imports) stay: without them a cold load would find them only once x has
 * arrived, a round trip later. Measured in Chromium on a cold load: the same requests, the lazy
 * chunks as early (bench/viewer-size.ts gives the figures).
 *
 * `build.modulePreload.resolveDependencies` is given no chunk graph, so the plugin takes the
 * bundle's as it is written (its generateBundle runs before vite's import analysis, which calls
 * resolveDependencies): use both, `const preload = preloadDeps()`, `plugins: [preload.plugin]`,
 * `modulePreload: { resolveDependencies: preload.resolveDependencies }`.
 */
import type { Plugin } from 'vite';

interface Node {
  imports: string[];
  css: boolean;
}

export function preloadDeps(): {
  plugin: Plugin;
  resolveDependencies: (filename: string, deps: string[], context: { hostId: string; hostType: 'html' | 'js' }) => string[];
} {
  let graph = new Map<string, Node>();
  const closure = (start: string): Set<string> => {
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const imported of graph.get(file)?.imports ?? []) visit(imported);
    };
    visit(start);
    return seen;
  };
  return {
    plugin: {
      name: 'mapfold:preload-deps',
      apply: 'build',
      generateBundle: {
        order: 'pre',
        handler(_options, bundle) {
          graph = new Map();
          for (const [fileName, output] of Object.entries(bundle)) {
            if (output.type !== 'chunk') continue;
            graph.set(fileName, { imports: output.imports, css: (output.viteMetadata?.importedCss.size ?? 0) > 0 });
          }
        },
      },
    },
    resolveDependencies(filename, deps, { hostId, hostType }) {
      // An HTML page's preloads, or a chunk the graph does not know: vite's list as it is.
      if (hostType !== 'js' || !graph.has(hostId) || !graph.has(filename)) return deps;
      const loaded = closure(hostId);
      const waitsForCss = [...closure(filename)].some((file) => !loaded.has(file) && graph.get(file)?.css);
      return deps.filter((dep) => !loaded.has(dep) && (dep !== filename || waitsForCss));
    },
  };
}
