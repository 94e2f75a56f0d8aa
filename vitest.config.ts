import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/e2e/**/*.test.ts'],
    // The Temporal SDK's native bridge is stable in forked processes (not worker threads).
    pool: 'forks',
    globalSetup: ['test/setup/global.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: integration files each run a worker; two at a time keeps them responsive.
    maxWorkers: 2,
  },
});
