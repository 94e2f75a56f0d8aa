// Once per test run: a real Temporal dev server from the installed binary, a workflow bundle
// shared by every test worker, and a fresh PostgreSQL database on 127.0.0.1:5432 (PGlite in
// memory per test file when no PostgreSQL answers). Everything is removed at the end.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import type { TestProject } from 'vitest/node';
import { createScratchDatabase } from '../../db/scratchDatabase.js';
import { startTemporalDevServer } from '../../scripts/temporalDevServer.js';
import { WORKFLOW_INTERCEPTOR_MODULES, WORKFLOWS_PATH } from '../../workers/createWorker.js';

declare module 'vitest' {
  export interface ProvidedContext {
    temporalAddress: string;
    workflowBundlePath: string;
    databaseUrl: string | null;
  }
}

export default async function setup(project: TestProject) {
  const [temporal, database, bundle] = await Promise.all([
    startTemporalDevServer({ dynamicConfig: { 'history.workflowIdReuseMinimalInterval': '"0s"' } }),
    // MPS_TEST_PGLITE=1 runs the suite on in-memory PGlite, as on a machine without PostgreSQL.
    process.env.MPS_TEST_PGLITE ? undefined : createScratchDatabase('test'),
    bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES, logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error: console.error } }),
  ]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mps-bundle-'));
  const bundlePath = path.join(dir, 'workflows.js');
  fs.writeFileSync(bundlePath, bundle.code);
  if (!database) console.warn('No PostgreSQL on 127.0.0.1:5432: integration tests use in-memory PGlite.');

  project.provide('temporalAddress', temporal.address);
  project.provide('workflowBundlePath', bundlePath);
  project.provide('databaseUrl', database?.url ?? null);

  return async () => {
    await temporal.stop();
    await database?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
