// The set-up of the fault tests that kill workers: a deployment (test/support/deployment.ts) with
// one API process for the file, and the workers each test starts, killed after it. Registers the
// vitest hooks; call it inside the file's describe.
import { afterAll, afterEach, beforeAll } from 'vitest';
import { killAllChildren } from './childProcesses.js';
import { startDeployment, type Deployment } from './deployment.js';
import type { ApiProcess, WorkerProcess } from './serviceProcesses.js';

export interface WorkersPerTest {
  readonly deployment: Deployment;
  readonly api: ApiProcess;
  /** A worker process (`env`: a fault point, for one), killed after the test. */
  startWorker(name: string, env?: Record<string, string>): Promise<WorkerProcess>;
}

/** `env`: settings of every process of the deployment (startDeployment's). */
export function workersPerTest(options: { env?: Record<string, string> } = {}): WorkersPerTest {
  let deployment: Deployment | undefined;
  let api: ApiProcess | undefined;
  let workers: WorkerProcess[] = [];
  beforeAll(async () => {
    deployment = await startDeployment(options);
    api = await deployment.startApi('api');
  });
  afterEach(async () => {
    await Promise.all(workers.map((worker) => worker.child.kill()));
    workers = [];
  });
  afterAll(async () => {
    await killAllChildren();
    await deployment?.stop();
  });
  return {
    get deployment() {
      return deployment!;
    },
    get api() {
      return api!;
    },
    async startWorker(name, env) {
      const worker = await deployment!.startWorker(name, env);
      workers.push(worker);
      return worker;
    },
  };
}
