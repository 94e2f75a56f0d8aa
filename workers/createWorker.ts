// Builds the workers over the given dependencies: one for the `maps` task queue (every workflow,
// the import activities; the workflow code is bundled from workflows/index.ts or taken from a
// prebuilt bundle), one for the `media` task queue (image and marker processing, the cleanup of
// unused media; activities only), one for the `render` task queue (static map images).
import { fileURLToPath } from 'node:url';
import { Client } from '@temporalio/client';
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { createActivities, createMediaActivities, createRenderActivities, ParserPool, RenderPool, type ActivityDeps } from '../activities/index.js';
import type { Config, WorkerQueue } from '../lib/config.js';
import { timedBlobStore } from '../lib/observability/timedBlobStore.js';
import { TileCache } from '../lib/render/tileCache.js';
import { tilePainting } from '../lib/render/xyzBackground.js';
import { activityRequestContext } from './activityRequestContext.js';

/** How long activities in flight may finish after shutdown() when no grace is given. */
const DEFAULT_GRACE_MS = 10_000;

export const WORKFLOWS_PATH = fileURLToPath(new URL('../workflows/index.ts', import.meta.url));
/** Workflow interceptor modules: bundled with the workflows (a prebuilt bundle must name them in bundleWorkflowCode's workflowInterceptorModules). */
export const WORKFLOW_INTERCEPTOR_MODULES = [fileURLToPath(new URL('../workflows/requestContext.ts', import.meta.url))];

/** The request id and the activity's user and map on every log line (workflows/requestContext.ts, activityRequestContext.ts). */
const interceptors: WorkerOptions['interceptors'] = { activity: [activityRequestContext] };

export interface MapsWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  deps: ActivityDeps;
  /** A bundle made once by bundleWorkflowCode, to skip re-bundling (tests). */
  workflowBundle?: WorkerOptions['workflowBundle'];
  /** How long activities in flight may finish after shutdown() before they are cancelled (SHUTDOWN_GRACE_MS; 10 s without it). */
  shutdownGraceMs?: number;
}

export interface RunningWorker {
  /** Polls until shutdown() and in-flight work has finished; then frees the parser threads. */
  run(): Promise<void>;
  shutdown(): void;
}

export async function createMapsWorker(options: MapsWorkerOptions): Promise<RunningWorker> {
  const parsers = new ParserPool();
  const worker = await Worker.create({
    connection: options.connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    activities: createActivities(options.deps, parsers, new Client({ connection: options.connection, namespace: options.namespace })),
    ...(options.workflowBundle
      ? { workflowBundle: options.workflowBundle, interceptors }
      : { workflowsPath: WORKFLOWS_PATH, interceptors: { ...interceptors, workflowModules: WORKFLOW_INTERCEPTOR_MODULES } }),
    // Parsing is CPU-bound; a few at a time keeps heartbeats and other activities responsive.
    maxConcurrentActivityTaskExecutions: 4,
    // Each open poll holds one of those slots: two polls leave two for eager execution, where the
    // server hands a new activity straight back with the workflow task that scheduled it instead
    // of through the task queue (measured: 33–37 ms → 0 per upload on the dev server, which
    // enables it; a cluster needs system.enableActivityEagerExecution).
    maxConcurrentActivityTaskPolls: 2,
    // Let in-flight activities finish on Ctrl-C instead of abandoning them.
    shutdownGraceTime: options.shutdownGraceMs ?? DEFAULT_GRACE_MS,
  });
  // The first parser thread starts now (it loads the parsers), not on the first import.
  parsers.warm();
  return {
    run: () => worker.run().finally(() => parsers.close()),
    shutdown: () => worker.shutdown(),
  };
}

export interface MediaWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  /** The `media` task queue. */
  taskQueue: string;
  deps: ActivityDeps;
  shutdownGraceMs?: number;
}

export async function createMediaWorker(options: MediaWorkerOptions): Promise<RunningWorker> {
  const worker = await Worker.create({
    connection: options.connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    activities: createMediaActivities(options.deps),
    interceptors,
    // Decoding and resizing run on libuv's thread pool (sharp); two at a time keep a 2-core
    // machine's other work responsive, and a 100-megapixel decode's memory bounded.
    maxConcurrentActivityTaskExecutions: 2,
    shutdownGraceTime: options.shutdownGraceMs ?? DEFAULT_GRACE_MS,
  });
  return { run: () => worker.run(), shutdown: () => worker.shutdown() };
}

export interface RenderWorkerOptions extends MediaWorkerOptions {
  /** Renders at once, each in its own thread (RENDER_CONCURRENCY; 1 without it). */
  renderConcurrency?: number;
}

export async function createRenderWorker(options: RenderWorkerOptions): Promise<RunningWorker> {
  const concurrency = options.renderConcurrency ?? 1;
  const renderer = new RenderPool(concurrency);
  const worker = await Worker.create({
    connection: options.connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    activities: createRenderActivities(options.deps, renderer),
    interceptors,
    // One at a time by default: images are not urgent, each render takes a thread (a core) while
    // it draws, and a map of large features takes tens of MB to draw (a 14 MB MultiPolygon about
    // 100 MB); more render workers scale it out.
    maxConcurrentActivityTaskExecutions: concurrency,
    shutdownGraceTime: options.shutdownGraceMs ?? DEFAULT_GRACE_MS,
  });
  renderer.warm();
  return { run: () => worker.run().finally(() => renderer.close()), shutdown: () => worker.shutdown() };
}

export interface WorkersOptions extends Omit<MapsWorkerOptions, 'taskQueue'> {
  /** The `maps` task queue's name. */
  taskQueue: string;
  mediaTaskQueue: string;
  renderTaskQueue: string;
  /** Which task queues this process polls. */
  queues: readonly WorkerQueue[];
  /** Static images drawn at once (RENDER_CONCURRENCY). */
  renderConcurrency?: number;
}

/** The workers of this process, one per task queue it polls, run and stopped together. */
export async function createWorkers(given: WorkersOptions): Promise<RunningWorker> {
  // Blob store operations timed into the metrics (lib/observability/timedBlobStore.ts).
  const options = { ...given, deps: { ...given.deps, blobs: timedBlobStore(given.deps.blobs) } };
  const workers: RunningWorker[] = [];
  if (options.queues.includes('maps')) workers.push(await createMapsWorker(options));
  if (options.queues.includes('media')) workers.push(await createMediaWorker({ ...options, taskQueue: options.mediaTaskQueue }));
  if (options.queues.includes('render')) workers.push(await createRenderWorker({ ...options, taskQueue: options.renderTaskQueue }));
  return {
    run: async () => {
      await Promise.all(workers.map((worker) => worker.run()));
    },
    shutdown: () => workers.forEach((worker) => worker.shutdown()),
  };
}

/** How this process's renderer fetches commercial basemap tiles: one cache per process. */
export const tilePaintingOf = (config: Config) =>
  tilePainting({
    cache: new TileCache({ dir: config.tileCacheDir, maxBytes: config.tileCacheMaxBytes }),
    timeoutMs: config.tileTimeoutMs,
    allowPrivateAddresses: config.basemapsAllowPrivate,
  });
