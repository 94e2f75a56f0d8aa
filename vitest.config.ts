import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The Temporal SDK's native bridge is stable in forked processes (not worker threads).
    pool: 'forks',
    globalSetup: ['test/setup/global.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: integration files each run a worker; two at a time keeps them responsive.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'server', include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'], sequence: { groupOrder: 0 } } },
      // The browser tests after the rest: Chromium drawing WebGL in software takes a core, which
      // the timing and memory checks of the integration tests must not share.
      { extends: true, test: { name: 'browser', include: ['test/e2e/**/*.test.ts'], sequence: { groupOrder: 1 } } },
    ],
  },
});
