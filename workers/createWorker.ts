// Builds a worker for the `maps` task queue over the given dependencies. The workflow code is
// bundled from workflows/index.ts (or taken from a prebuilt bundle).
import { fileURLToPath } from 'node:url';
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { createActivities, ParserPool, type ActivityDeps } from '../activities/index.js';

export const WORKFLOWS_PATH = fileURLToPath(new URL('../workflows/index.ts', import.meta.url));

export interface MapsWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  deps: ActivityDeps;
  /** A bundle made once by bundleWorkflowCode, to skip re-bundling (tests). */
  workflowBundle?: WorkerOptions['workflowBundle'];
}

export interface MapsWorker {
  /** Polls until shutdown() and in-flight work has finished; then frees the parser threads. */
  run(): Promise<void>;
  shutdown(): void;
}

export async function createMapsWorker(options: MapsWorkerOptions): Promise<MapsWorker> {
  const parsers = new ParserPool();
  const worker = await Worker.create({
    connection: options.connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    activities: createActivities(options.deps, parsers),
    ...(options.workflowBundle ? { workflowBundle: options.workflowBundle } : { workflowsPath: WORKFLOWS_PATH }),
    // Parsing is CPU-bound; a few at a time keeps heartbeats and other activities responsive.
    maxConcurrentActivityTaskExecutions: 4,
    // Each open poll holds one of those slots: two polls leave two for eager execution, where the
    // server hands a new activity straight back with the workflow task that scheduled it instead
    // of through the task queue (measured: 33–37 ms → 0 per upload on the dev server, which
    // enables it; a cluster needs system.enableActivityEagerExecution).
    maxConcurrentActivityTaskPolls: 2,
    // Let in-flight activities finish on Ctrl-C instead of abandoning them.
    shutdownGraceTime: '10 seconds',
  });
  // The first parser thread starts now (it loads the parsers), not on the first import.
  parsers.warm();
  return {
    run: () => worker.run().finally(() => parsers.close()),
    shutdown: () => worker.shutdown(),
  };
}
