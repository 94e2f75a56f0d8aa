// Imported first by observability.test.ts, before the harness: installs the process's Temporal
// Runtime as a worker process with WORKER_METRICS_ADDRESS does (the service's logger, the SDK's
// Prometheus exporter on a free loopback port), so the test can scrape the SDK's worker metrics.
// The harness's own install then finds a Runtime and keeps it.
import { freePort } from '../../scripts/freePort.js';
import { installWorkerRuntime } from '../../workers/runtime.js';

export const workerMetricsAddress = `127.0.0.1:${await freePort()}`;
installWorkerRuntime({ metricsAddress: workerMetricsAddress });
