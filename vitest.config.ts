import { defineConfig } from 'vitest/config';
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
          // Each file in its own process (vitest's default, isolate: true). Sharing one module
          // graph per worker (isolate: false) was tried on 2026-11-29 and CI doubled (937 s to
          // 1,755 s, every file about twice as slow), most likely because what a file leaves running
          // (a server's timers, a subscription's loop) ran on beside every later file of its worker.
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
          include: ['test/client/**/*.test.{ts,tsx}'],
          exclude: PURE_CLIENT_FILES,
          setupFiles: ['test/client/setup.ts'],
          testTimeout: 20_000,
        },
      },
    ],
  },
});
