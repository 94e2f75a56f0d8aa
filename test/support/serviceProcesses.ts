// The service's scaled-out entry points as real processes: `api/main.ts` and `workers/main.ts`
// run by Node with tsx, as `npm run api` and `npm run worker` run them (same flags), but started
// directly so the process a test kills is the service itself and not npm or a wrapper. Each
// resolves once the process serves: the API's /healthz answers 200, the worker polls its task
// queue (seen by the Temporal server, by the process's identity `<pid>@<host>`; an activity-only
// worker, WORKER_QUEUES=media,render, by its activity polls).
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Connection } from '@temporalio/client';
import { freePort } from '../../lib/freePort.js';
import { startChild, type Child } from './childProcesses.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PRELOAD = new URL('./exitWithParent.mjs', import.meta.url).href;
const READY_WITHIN_MS = 120_000;

/** Node with tsx, as the npm scripts run it. */
const nodeArgs = (entry: string) => ['--max-semi-space-size=2', '--import', 'tsx', '--import', PRELOAD, entry];

/** Only what the service reads: nothing of the test runner's environment leaks in. */
export function serviceEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  // Rate limits off: the bursts come from one address and measure the service, not its limits.
  return { PATH: process.env.PATH, HOME: process.env.HOME, LANG: 'C.UTF-8', RATE_LIMITS: 'off', ...extra };
}

export interface ApiProcess {
  url: string;
  child: Child;
}

export async function startApiProcess(name: string, env: Record<string, string | undefined>): Promise<ApiProcess> {
  const port = await freePort();
  const child = startChild(name, process.execPath, nodeArgs('api/main.ts'), { cwd: ROOT, env: serviceEnv({ ...env, PORT: String(port), HOST: '127.0.0.1' }) });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + READY_WITHIN_MS;
  let last = 'no answer';
  while (Date.now() < deadline && !child.exitStatus()) {
    try {
      const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5_000) });
      if (response.status === 200) return { url, child };
      last = `HTTP ${response.status} ${await response.text()}`;
    } catch (error) {
      last = String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await child.kill();
  throw new Error(`${name} did not become ready (/healthz: ${last}). Its last lines:\n${child.output()}`);
}

export interface WorkerProcess {
  child: Child;
}

/** Whether a worker with this identity polls the task queue `queue` (for workflow tasks, or activity tasks). */
async function polls(connection: Connection, queue: string, identity: string, kind: 'workflow' | 'activity'): Promise<boolean> {
  const answer = await connection.workflowService.describeTaskQueue({
    namespace: 'default',
    taskQueue: { name: queue },
    taskQueueType: kind === 'workflow' ? 1 : 2, // TASK_QUEUE_TYPE_WORKFLOW, TASK_QUEUE_TYPE_ACTIVITY
  });
  return (answer.pollers ?? []).some((poller) => poller.identity === identity);
}

/**
 * The queue a worker started with `env` is seen polling once it serves: the `maps` queue's
 * workflow tasks, or for an activity-only worker (WORKER_QUEUES without `maps`, such as
 * `media,render`) the activity tasks of the first queue it names.
 */
function readinessQueue(env: Record<string, string | undefined>): { queue: string; kind: 'workflow' | 'activity' } {
  const queues = env.WORKER_QUEUES?.split(',') ?? ['maps'];
  if (queues.includes('maps')) return { queue: env.TEMPORAL_TASK_QUEUE ?? 'maps', kind: 'workflow' };
  const first = queues[0];
  const queue = first === 'render' ? (env.TEMPORAL_RENDER_TASK_QUEUE ?? 'render') : (env.TEMPORAL_MEDIA_TASK_QUEUE ?? 'media');
  return { queue, kind: 'activity' };
}

/** A worker process polling WORKER_QUEUES (all three by default); `env` may arm a fault point (activities/faultPoints.ts). */
export async function startWorkerProcess(name: string, env: Record<string, string | undefined>, temporal: Connection): Promise<WorkerProcess> {
  const child = startChild(name, process.execPath, nodeArgs('workers/main.ts'), { cwd: ROOT, env: serviceEnv(env) });
  const identity = `${child.pid}@${os.hostname()}`;
  const { queue, kind } = readinessQueue(env);
  const deadline = Date.now() + READY_WITHIN_MS;
  while (Date.now() < deadline && !child.exitStatus()) {
    if (await polls(temporal, queue, identity, kind).catch(() => false)) return { child };
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  await child.kill();
  throw new Error(`${name} did not start polling the task queue "${queue}". Its last lines:\n${child.output()}`);
}
