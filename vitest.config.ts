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
          // One module graph per worker instead of per file: most files import the whole server
          // (Fastify, zod schemas, PGlite, jsdom), and evaluating it again for each of 150 files
          // was a large part of the run. The node suites keep no state in modules between files:
          // each opens its own databases and servers. The client project stays isolated (it mocks
          // modules per file).
          isolate: false,
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
