// The Temporal Runtime of a process that runs workers (npm start, npm run worker; the tests'
// harness): installed once, before any connection. Its logger is the service's pino logger
// (logger.ts), and the SDK Core's own log lines are forwarded to it too (WARN and up; INFO with
// LOG_LEVEL=debug). With WORKER_METRICS_ADDRESS (host:port) the SDK's worker metrics (task
// slots, poll and schedule-to-start latencies, activity and workflow outcomes, `temporal_…`)
// are served for Prometheus at http://host:port/metrics by the SDK's own exporter; unset, they
// are not collected. The service's own metrics are the API's GET /metrics.
import { Runtime, type RuntimeOptions } from '@temporalio/worker';
import { log } from '../lib/observability/logger.js';
import { temporalLogger } from './logger.js';

export interface WorkerRuntimeOptions {
  /** host:port for the SDK's Prometheus exporter; undefined: off. */
  metricsAddress?: string;
  /** Signals on which the SDK stops the workers itself (default: the SDK's). */
  shutdownSignals?: NodeJS.Signals[];
}

export function workerRuntimeOptions(options: WorkerRuntimeOptions): RuntimeOptions {
  return {
    logger: temporalLogger(),
    telemetryOptions: {
      logging: { filter: { core: log.isLevelEnabled('debug') ? 'INFO' : 'WARN', other: 'ERROR' }, forward: {} },
      ...(options.metricsAddress ? { metrics: { prometheus: { bindAddress: options.metricsAddress } } } : {}),
    },
    ...(options.shutdownSignals ? { shutdownSignals: options.shutdownSignals } : {}),
  };
}

/** Installs the process's Runtime (call setLogLevel first: the SDK Core's log filter is fixed here). */
export function installWorkerRuntime(options: WorkerRuntimeOptions = {}): void {
  Runtime.install(workerRuntimeOptions(options));
}
