import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The Temporal SDK's native bridge is stable in forked processes (not worker threads).
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // expect.poll waits for a page or a job to get somewhere: up to 10 s (vitest's 1 s default
    // was too short for a browser test on CI's loaded machine). A wait's bound, not a speed check.
    expect: { poll: { timeout: 10_000 } },
    // Two cores: integration files each run a worker; two at a time keeps them responsive.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'server', globalSetup: ['test/setup/global.ts'], include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'], sequence: { groupOrder: 0 } } },
      // The browser tests after the rest: Chromium drawing WebGL in software takes a core, which
      // the timing and memory checks of the integration tests must not share.
      // A browser test is a journey through several pages drawn in software: 180 s is its bound
      // (CI's loaded machine took 60–65 s for journeys that take 45 s alone), not a speed check.
      { extends: true, test: { name: 'browser', globalSetup: ['test/setup/global.ts'], include: ['test/e2e/**/*.test.ts'], sequence: { groupOrder: 1 }, testTimeout: 180_000 } },
      // Last, one file at a time: each starts its own PostgreSQL cluster, Temporal server and API and
      // worker processes (test/support/deployment.ts), and kills or restarts them; the shared
      // server and database of test/setup/global.ts are not needed.
      { extends: true, test: { name: 'faults', include: ['test/faults/**/*.test.ts'], sequence: { groupOrder: 2 }, fileParallelism: false, testTimeout: 300_000, hookTimeout: 300_000 } },
    ],
  },
});
