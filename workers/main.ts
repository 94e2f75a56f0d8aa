// The worker entry point of the scaled-out shape: polls the task queues WORKER_QUEUES (or
// `--queues maps,render` on its command line: ./queueArgs.ts) names (`maps`, `media`, `render`;
// all three by default). Needs DATABASE_URL and TEMPORAL_ADDRESS, and the same
// blob storage as the API. SIGTERM or SIGINT: it stops polling, lets the activities in flight
// finish within SHUTDOWN_GRACE_MS (Temporal's shutdownGraceTime; past it they are cancelled and
// retried elsewhere), then closes its connections (lib/gracefulShutdown.ts).
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { openDatabase } from '../db/open.js';
import { useExtraBasemaps } from '../lib/basemaps.js';
import { openBlobStore } from '../lib/blobs/index.js';
import { ConfigError, loadConfig } from '../lib/config.js';
import { createMailer } from '../lib/mail.js';
import { errorFields, log, setLogLevel } from '../lib/observability/logger.js';
import { GracefulShutdown } from '../lib/gracefulShutdown.js';
import { describeArchive, openConfiguredStreetArchive } from '../lib/streetArchive/index.js';
import { webhookSettingsOf } from '../lib/webhooks/model.js';
import { createWorkers, tilePaintingOf } from './createWorker.js';
import { envWithQueueArgs } from './queueArgs.js';
import { installWorkerRuntimeWithMetrics } from './runtime.js';
import { ensureSchedules } from './schedules.js';
import { slowActivities } from './slowActivities.js';

async function main(): Promise<void> {
  const config = loadConfig(envWithQueueArgs(process.argv.slice(2), process.env));
  if (!config.databaseUrl || !config.temporalAddress) {
    throw new ConfigError('The worker entry point needs DATABASE_URL and TEMPORAL_ADDRESS (npm start runs the embedded service).');
  }
  setLogLevel(config.logLevel);
  useExtraBasemaps(config.extraBasemaps);
  // Every worker checks it, not only the renderer's: one configuration, one answer at start.
  const streets = await openConfiguredStreetArchive(config);
  if (streets) log.info(describeArchive(config.basemapTiles!, streets));
  const shutdown = new GracefulShutdown({ graceMs: config.shutdownGraceMs, log: (line) => log.info(line) }).listen();
  const metricsAddress = await installWorkerRuntimeWithMetrics(config, shutdown);
  const db = await openDatabase(config);
  shutdown.onStop('the database pool', () => db.destroy());
  const connection = await NativeConnection.connect({ address: config.temporalAddress });
  shutdown.onStop('the Temporal connection', () => connection.close());
  const worker = await createWorkers({
    connection,
    namespace: config.temporalNamespace,
    taskQueue: config.taskQueue,
    mediaTaskQueue: config.mediaTaskQueue,
    renderTaskQueue: config.renderTaskQueue,
    renderConcurrency: config.renderConcurrency,
    queues: config.workerQueues,
    shutdownGraceMs: config.shutdownGraceMs,
    deps: {
      db,
      blobs: openBlobStore(config),
      publicUrl: config.publicUrl,
      paintTiles: tilePaintingOf(config),
      serviceProviderKeys: config.serviceProviderKeys,
      webhooks: webhookSettingsOf(config),
      mailer: createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: path.join(config.dataDir, 'outbox') }),
      faults: slowActivities(config.testSlowActivityMs),
      streets,
    },
  });
  const clientConnection = await Connection.connect({ address: config.temporalAddress });
  await ensureSchedules(new Client({ connection: clientConnection, namespace: config.temporalNamespace }), config);
  await clientConnection.close();
  const queueNames = { maps: config.taskQueue, media: config.mediaTaskQueue, render: config.renderTaskQueue };
  const names = config.workerQueues.map((queue) => `"${queueNames[queue]}"`);
  const running = worker.run();
  shutdown.onStop('the worker', async () => {
    worker.shutdown();
    await running;
  });
  log.info({ worker_metrics: metricsAddress }, `Worker polling task queue${names.length > 1 ? 's' : ''} ${names.join(', ')} on ${config.temporalAddress}`);
  // run() ends after a signal (the shutdown's steps go on from there) or by failing (exit 1).
  await running.catch((error) => {
    if (!shutdown.stopping) throw error;
  });
}

main().catch((error) => {
  log.fatal(error instanceof ConfigError ? {} : { err: errorFields(error) }, error instanceof ConfigError ? error.message : 'The worker stopped on an error');
  process.exit(1);
});
