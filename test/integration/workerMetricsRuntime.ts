// Imported first by observability.test.ts, before the harness: starts the metrics listener and
// installs the process's Temporal Runtime feeding it, as a worker process with
// WORKER_METRICS_ADDRESS does (workers/runtime.ts), on a free loopback port, so the test can
// scrape what a worker serves. The harness's own install then finds a Runtime and keeps it.
import { freePort } from '../../lib/freePort.js';
import { serveWorkerMetrics } from '../../workers/metricsListener.js';
import { installWorkerRuntime } from '../../workers/runtime.js';

const listener = await serveWorkerMetrics({ address: `127.0.0.1:${await freePort()}` });
installWorkerRuntime({ metricsAddress: listener.sdkAddress });
export const workerMetricsAddress = listener.address;
