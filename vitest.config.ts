import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Each file gets its own databases and servers; two at a time suits a 2-core machine.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['test/{events,projections,server,contract,e2e,bench}/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
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
