import { defineConfig } from 'vitest/config';
import { PREACT_ALIASES } from './scripts/preact-aliases';
import { viewerMessages } from './scripts/viewer-messages-plugin';
import { SlowestFirstSequencer } from './test/support/slowest-first-sequencer';

/**
 * Files of test/server/ that are pure code too (parsers, planners' helpers, HTTP negotiation,
 * signatures, the build scripts' checks on a temporary folder): no database, server, mock or
 * process-wide setting, so they run in the 'unit' project below instead of a process each with
 * the node project's set-up (issue 26 item 9).
 */
const PURE_SERVER_FILES = [
  'basemap-archive',
  'build-if-stale',
  'built-in-maps-geo',
  'demo-mall-network',
  'import-column-guess',
  'import-formats',
  'import-geo',
  'lru-of-at-most',
  'public-address',
  'public-map-negotiation',
  'query-gate',
  'region-tints',
  'stripe-signature',
  'subscription-view',
  'svg-outlines',
  'svg-regions',
  'svg-upload-report',
].map((name) => `test/server/${name}.test.ts`);

/**
 * Files of test/client/ that test the client's pure code (its state machines' and panels'
 * rules, the map's clustering and label fitting, the history's diff): no DOM, component or
 * browser stub, so they too run in the 'unit' project instead of a jsdom of their own each.
 */
const PURE_CLIENT_FILES = ['publish-steps', 'region-name-fit', 'location-diff', 'map-clustering', 'path-tool-machine'].map(
  (name) => `test/client/${name}.test.ts`,
);

/**
 * The viewer's component tests, run a second time on Preact (the 'viewer-preact' project below):
 * published maps' pages run the viewer on Preact (vite.config.ts), the editor's preview on React.
 */
const VIEWER_CLIENT_FILES = ['viewer', 'viewer-language', 'viewer-ssr-near', 'directions', 'directions-languages'].map(
  (name) => `test/client/${name}.test.tsx`,
);

export default defineConfig({
  test: {
    // Each file gets its own databases and servers; two at a time suits a 2-core machine.
    maxWorkers: 2,
    // The slowest files first, by their seconds in a CI run (test/file-seconds.json), so no
    // three-minute file starts last and runs on alone.
    sequence: { sequencer: SlowestFirstSequencer },
    // Once per run: the PGlite template every in-memory test database starts from.
    globalSetup: ['test/support/global-setup.ts'],
    projects: [
      {
        // Pure code (the domain's deciders and rules, the benches' arithmetic, the catalogues):
        // no database, server, mock or environment, so one module graph per worker is safe here,
        // and none of the node project's set-up (which loads the database drivers) is needed.
        // Some 60 files that each spent longer starting than testing.
        plugins: [viewerMessages()],
        test: {
          name: 'unit',
          environment: 'node',
          isolate: false,
          include: ['test/{events,bench,i18n}/**/*.test.ts', ...PURE_SERVER_FILES, ...PURE_CLIENT_FILES],
          testTimeout: 30_000,
        },
      },
      {
        // The viewer's compiled catalogues (virtual:viewer-messages/*), as the builds have them.
        plugins: [viewerMessages()],
        test: {
          name: 'node',
          environment: 'node',
          // One module graph per worker, shared by its files (isolate: false): each file in a
          // process of its own (vitest's default) paid for importing the server's few hundred
          // modules through vite's module runner and for compiling PGlite's WebAssembly and
          // warming the app (its first test server took several times its later ones), seconds of
          // a core per file over some 150 files. Nine server files back to back on the same busy
          // machine on 2026-11-29: 306 s isolated, 120 s shared (import 102 s to 21 s). A run on
          // the same day once measured the opposite (937 s to 1,755 s) on a machine that was
          // itself twice as slow that day; back to back, sharing won. What a file leaves running
          // runs on beside its worker's later files, so a file must close what it starts (its
          // servers, browsers, subscriptions).
          isolate: false,
          include: ['test/{projections,server,contract,e2e}/**/*.test.ts'],
          exclude: PURE_SERVER_FILES,
          setupFiles: ['test/support/setup-node.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [viewerMessages()],
        test: {
          name: 'client',
          environment: 'jsdom',
          // One module graph per worker, shared by its files, as in the node project: a process per
          // file spent longer starting (vitest's worker, the setup, React and the app's modules
          // imported again) than testing; the project alone, back to back on the same busy machine:
          // 220 s isolated, 131-141 s shared. A file's jsdom is still its own; what it could leave
          // to the next file is stopped when it ends (test/client/setup.ts: its timers, stubs,
          // storage), after the first try at sharing (966ff57) failed CI on timers left running.
          isolate: false,
          include: ['test/client/**/*.test.{ts,tsx}'],
          exclude: PURE_CLIENT_FILES,
          setupFiles: ['test/client/setup.ts'],
          testTimeout: 20_000,
        },
      },
      {
        // The viewer's component tests on Preact, as published maps run it: react and react-dom
        // resolved to preact/compat as in the viewer's build, Testing Library's ES module taken
        // (its CommonJS one would load React itself, outside the aliases) and react-dom/test-utils'
        // act Preact's.
        plugins: [viewerMessages()],
        resolve: {
          alias: [
            { find: /^@testing-library\/react$/, replacement: '@testing-library/react/dist/@testing-library/react.esm.js' },
            { find: /^react-dom\/test-utils$/, replacement: 'preact/test-utils' },
            ...PREACT_ALIASES,
          ],
        },
        test: {
          name: 'viewer-preact',
          environment: 'jsdom',
          isolate: false,
          server: { deps: { inline: [/@testing-library\/react/] } },
          include: VIEWER_CLIENT_FILES,
          setupFiles: ['test/client/setup.ts'],
          testTimeout: 20_000,
        },
      },
    ],
  },
});
