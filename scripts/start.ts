// `npm start`: the embedded default. One process runs the API and a worker; a Temporal dev
// server (SQLite file and Web UI under DATA_DIR) is started unless TEMPORAL_ADDRESS is set, and
// PGlite under DATA_DIR is the database unless DATABASE_URL is set. Ctrl-C (or SIGTERM) stops it
// all gracefully: new connections refused, requests in flight answered (the worker still runs
// their workflows), then the worker's activities finished, all within SHUTDOWN_GRACE_MS
// (lib/gracefulShutdown.ts); a second Ctrl-C stops at once.
import { webhookSettingsOf } from '../lib/webhooks/model.js';
import { createMailer } from '../lib/mail.js';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { NativeConnection } from '@temporalio/worker';
import { createApp } from '../api/app.js';
import { closeArgumentThreads } from '../api/argumentThreads.js';
import { JobGateway } from '../api/jobs.js';
import { mountOperatorEndpoint } from '../api/operatorEndpoint.js';
import { httpDrain } from '../api/httpDrain.js';
import { listen } from '../api/server.js';
import { openDatabase } from '../db/open.js';
import { openBlobStore } from '../lib/blobs/index.js';
import { ConfigError, loadConfig } from '../lib/config.js';
import { errorFields, log, setLogLevel } from '../lib/observability/logger.js';
import { GracefulShutdown } from '../lib/gracefulShutdown.js';
import { warmPlaceIndex } from '../lib/places/index.js';
import { describeArchive, NO_STREETS_HINT, openConfiguredStreetArchive } from '../lib/streetArchive/index.js';
import { waitFor } from '../lib/waitFor.js';
import { createWorkers, tilePaintingOf } from '../workers/createWorker.js';
import { installWorkerRuntimeWithMetrics } from '../workers/runtime.js';
import { ensureSchedules, mediaCleanupRunner } from '../workers/schedules.js';
import { slowActivities } from '../workers/slowActivities.js';
import { removeEmbeddedState, writeEmbeddedState } from './embeddedState.js';
import { startTemporalDevServer, type DevServer } from './temporalDevServer.js';

/** The process's shutdown, once made: a failure to start still stops what was started. */
let shutdown: GracefulShutdown | undefined;

async function main(): Promise<void> {
  const config = loadConfig();
  setLogLevel(config.logLevel);
  fs.mkdirSync(config.dataDir, { recursive: true });
  // Before anything is started: an archive that is missing or not what the styles draw stops here.
  const streets = await openConfiguredStreetArchive(config);
  log.info(streets ? describeArchive(config.basemapTiles!, streets) : NO_STREETS_HINT);
  // In a terminal, SIGHUP too: the terminal closing does not reach the Temporal dev server (in a
  // session of its own), so the service stops it. Not otherwise: under nohup (output not a
  // terminal) SIGHUP is meant to be ignored, and a handler would undo that.
  shutdown = new GracefulShutdown({ graceMs: config.shutdownGraceMs, log: (line) => log.info(line) }).listen(['SIGINT', 'SIGTERM', ...(process.stdout.isTTY ? (['SIGHUP'] as const) : [])]);

  let address = config.temporalAddress;
  if (!address) {
    const temporal: DevServer = await startTemporalDevServer({
      dbFile: path.join(config.dataDir, 'temporal.sqlite'),
      ui: true,
      ownProcessGroup: true,
    });
    shutdown.onStop('the Temporal dev server', () => temporal.stop());
    shutdown.onExit(() => temporal.process.kill('SIGTERM'));
    address = temporal.address;
    log.info({ temporal_address: address, temporal_ui: temporal.uiUrl }, `Temporal dev server at ${address}; Web UI: ${temporal.uiUrl}`);
  }

  const db = await openDatabase(config);
  shutdown.onStop('the database', () => db.destroy());
  const blobs = openBlobStore(config);
  const metricsAddress = await installWorkerRuntimeWithMetrics(config, shutdown);
  const connection = await connectWhenReady(address);
  // The API starts its jobs on the worker's connection: eagerly, with the first workflow task handed straight to the worker.
  const jobs = new JobGateway({ address, namespace: config.temporalNamespace, taskQueue: config.taskQueue, sharedConnection: connection });
  await waitFor('the Temporal namespace', () => jobs.ping(), 60_000);
  // The embedded worker polls all three task queues: the maps', the media's and the renderer's.
  const worker = await createWorkers({
    connection,
    namespace: config.temporalNamespace,
    taskQueue: config.taskQueue,
    mediaTaskQueue: config.mediaTaskQueue,
    renderTaskQueue: config.renderTaskQueue,
    renderConcurrency: config.renderConcurrency,
    queues: ['maps', 'media', 'render'],
    shutdownGraceMs: config.shutdownGraceMs,
    deps: {
      db,
      blobs,
      publicUrl: config.publicUrl,
      paintTiles: tilePaintingOf(config),
      serviceProviderKeys: config.serviceProviderKeys,
      webhooks: webhookSettingsOf(config),
      mailer: createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: path.join(config.dataDir, 'outbox') }),
      faults: slowActivities(config.testSlowActivityMs),
      streets,
    },
  });
  const workerDone = worker.run();
  await ensureSchedules(await jobs.client(), config);
  // After the HTTP requests (their workflows need the worker until they are answered).
  shutdown.onStop('the worker', async () => {
    worker.shutdown();
    await workerDone;
    await connection.close();
  });

  const token = randomBytes(32).toString('hex');
  const app = createApp(
    { config, db, blobs, jobs, streets },
    {
      extraRoutes: config.databaseUrl
        ? undefined
        : (router) =>
            mountOperatorEndpoint(router, db, token, mediaCleanupRunner(() => jobs.client(), config)),
    },
  );
  const server: Server = await listen(app, config.port, config.host);
  // The place search's index, made in a thread while the first requests come (lib/places/).
  warmPlaceIndex();
  const requests = httpDrain(server);
  shutdown.onStop('the HTTP server', (deadline) => requests.stop(deadline).then(closeArgumentThreads));
  if (!config.databaseUrl) {
    writeEmbeddedState(config.dataDir, { url: `http://127.0.0.1:${config.port}`, token, pid: process.pid });
    shutdown.onStop('the operator endpoint', async () => removeEmbeddedState(config.dataDir));
  }
  log.info(
    { url: config.publicUrl, data_dir: config.dataDir, worker_metrics: metricsAddress },
    `Map publishing service ready at ${config.publicUrl} (API under ${config.publicUrl}/api/1/; data in ${config.dataDir}). Press Ctrl-C to stop.`,
  );
}

/** The worker's connection to the Temporal server, once the server accepts one (it may still be starting). */
async function connectWhenReady(address: string): Promise<NativeConnection> {
  let connection: NativeConnection | undefined;
  await waitFor('the Temporal server', async () => (connection ??= await NativeConnection.connect({ address }).catch(() => undefined)) !== undefined, 60_000);
  return connection!;
}

main().catch((error) => {
  log.fatal(error instanceof ConfigError ? {} : { err: errorFields(error) }, error instanceof ConfigError ? error.message : 'The service stopped on an error');
  // The Temporal dev server, when it was started, goes too (its onExit hook).
  if (shutdown) shutdown.exitNow(1);
  else process.exit(1);
});
