import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['test/{events,projections,server,contract,e2e}/**/*.test.ts'],
          // Each file gets its own databases; a few at a time suits a 2-core machine.
          maxWorkers: 2,
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
