// The Temporal Runtime of a process that runs workers (npm start, npm run worker; the tests'
// harness): installed once, before any connection. Its logger is the service's pino logger
// (logger.ts), and the SDK Core's own log lines are forwarded to it too (WARN and up; INFO with
// LOG_LEVEL=debug). With `metricsAddress` (a loopback host:port) the SDK's worker metrics (task
// slots, poll and schedule-to-start latencies, activity and workflow outcomes, `temporal_…`)
// are collected and served there by the SDK's own exporter, which the process's metrics
// listener at WORKER_METRICS_ADDRESS reads (./metricsListener.ts); unset, they are not collected.
import { Runtime, type RuntimeOptions } from '@temporalio/worker';
import type { Config } from '../lib/config.js';
import type { GracefulShutdown } from '../lib/gracefulShutdown.js';
import { log } from '../lib/observability/logger.js';
import { serveWorkerMetrics } from './metricsListener.js';
import { temporalLogger } from './logger.js';

export interface WorkerRuntimeOptions {
  /** host:port for the SDK's Prometheus exporter (the metrics listener's sdkAddress); undefined: off. */
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

/**
 * For the entry points (workers/main.ts, scripts/start.ts): with WORKER_METRICS_ADDRESS, the
 * metrics listener (this process's metrics and the SDK's, one scrape target; closed with the
 * shutdown), then the Runtime feeding it. Signals are the process's own shutdown's, not the SDK's.
 * Returns the address the listener serves, or undefined.
 */
export async function installWorkerRuntimeWithMetrics(config: Pick<Config, 'workerMetricsAddress' | 'metricsToken'>, shutdown: GracefulShutdown): Promise<string | undefined> {
  const metrics = config.workerMetricsAddress ? await serveWorkerMetrics({ address: config.workerMetricsAddress, token: config.metricsToken }) : undefined;
  if (metrics) shutdown.onStop('the metrics listener', () => metrics.close());
  installWorkerRuntime({ metricsAddress: metrics?.sdkAddress, shutdownSignals: [] });
  return metrics?.address;
}
