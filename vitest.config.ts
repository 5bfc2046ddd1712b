import { defineConfig } from 'vitest/config';
import { viewerMessages } from './scripts/viewer-messages-plugin';

export default defineConfig({
  test: {
    // Each file gets its own databases and servers; two at a time suits a 2-core machine.
    maxWorkers: 2,
    // Once per run: the PGlite template every in-memory test database starts from.
    globalSetup: ['test/support/global-setup.ts'],
    projects: [
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
          include: ['test/{events,projections,server,contract,e2e,bench,i18n}/**/*.test.ts'],
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
          setupFiles: ['test/client/setup.ts'],
          testTimeout: 20_000,
        },
      },
    ],
  },
});
