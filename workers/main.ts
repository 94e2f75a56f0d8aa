// The worker entry point of the scaled-out shape: polls the task queues WORKER_QUEUES names
// (`maps`, `media`, `render`; all three by default). Needs DATABASE_URL and TEMPORAL_ADDRESS, and the same
// blob storage as the API.
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { openDatabase } from '../db/open.js';
import { openBlobStore } from '../lib/blobs/index.js';
import { ConfigError, loadConfig } from '../lib/config.js';
import { errorFields, log, setLogLevel } from '../lib/observability/logger.js';
import { createWorkers, tilePaintingOf } from './createWorker.js';
import { installWorkerRuntime } from './runtime.js';
import { ensureSchedules } from './schedules.js';

async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.databaseUrl || !config.temporalAddress) {
    throw new ConfigError('The worker entry point needs DATABASE_URL and TEMPORAL_ADDRESS (npm start runs the embedded service).');
  }
  setLogLevel(config.logLevel);
  installWorkerRuntime({ metricsAddress: config.workerMetricsAddress });
  const db = await openDatabase(config);
  const connection = await NativeConnection.connect({ address: config.temporalAddress });
  const worker = await createWorkers({
    connection,
    namespace: config.temporalNamespace,
    taskQueue: config.taskQueue,
    mediaTaskQueue: config.mediaTaskQueue,
    renderTaskQueue: config.renderTaskQueue,
    queues: config.workerQueues,
    deps: { db, blobs: openBlobStore(config), publicUrl: config.publicUrl, paintTiles: tilePaintingOf(config), serviceProviderKeys: config.serviceProviderKeys },
  });
  const clientConnection = await Connection.connect({ address: config.temporalAddress });
  await ensureSchedules(new Client({ connection: clientConnection, namespace: config.temporalNamespace }), config);
  await clientConnection.close();
  const queueNames = { maps: config.taskQueue, media: config.mediaTaskQueue, render: config.renderTaskQueue };
  const names = config.workerQueues.map((queue) => `"${queueNames[queue]}"`);
  log.info({ worker_metrics: config.workerMetricsAddress }, `Worker polling task queue${names.length > 1 ? 's' : ''} ${names.join(', ')} on ${config.temporalAddress}`);
  // The SDK stops the worker on SIGINT/SIGTERM; run() resolves once in-flight work is done.
  await worker.run();
  await connection.close();
  await db.destroy();
}

main().catch((error) => {
  log.fatal(error instanceof ConfigError ? {} : { err: errorFields(error) }, error instanceof ConfigError ? error.message : 'The worker stopped on an error');
  process.exit(1);
});
