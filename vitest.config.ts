import { defineConfig } from 'vitest/config';

/**
 * Two projects:
 * - `unit`: pure tests beside the source (`src/**\/*.test.ts`) and `test/unit`, run in parallel.
 * - `integration`: real Redis, real BullMQ, real Bolt, child processes (`test/integration`, `test/e2e`),
 *   one file at a time so that timings stay honest on a 2-core machine.
 * The global setup starts a private `redis-server` (or uses `REDIS_URL`) for both.
 */
export default defineConfig({
  test: {
    globals: false,
    globalSetup: ['test/support/global-setup.ts'],
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['src/**/*.test.ts', 'test/unit/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts', 'test/e2e/**/*.test.ts'],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
