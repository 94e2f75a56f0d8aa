// The API entry point of the scaled-out shape: any number of these behind a load balancer.
// Needs DATABASE_URL and TEMPORAL_ADDRESS; workers run separately (workers/main.ts).
// SIGTERM or SIGINT: new connections are refused, requests in flight are answered within
// SHUTDOWN_GRACE_MS, then the Temporal client and the database pool close (lib/gracefulShutdown.ts).
import { openDatabase } from '../db/open.js';
import { openBlobStore } from '../lib/blobs/index.js';
import { ConfigError, loadConfig } from '../lib/config.js';
import { errorFields, log, setLogLevel } from '../lib/observability/logger.js';
import { GracefulShutdown } from '../lib/gracefulShutdown.js';
import { warmPlaceIndex } from '../lib/places/index.js';
import { describeArchive, openConfiguredStreetArchive } from '../lib/streetArchive/index.js';
import { createApp } from './app.js';
import { closeArgumentThreads } from './argumentThreads.js';
import { httpDrain } from './httpDrain.js';
import { JobGateway } from './jobs.js';
import { listen } from './server.js';

async function main(): Promise<void> {
  const config = loadConfig();
  setLogLevel(config.logLevel);
  if (!config.databaseUrl || !config.temporalAddress) {
    throw new ConfigError('The api entry point needs DATABASE_URL and TEMPORAL_ADDRESS (npm start runs the embedded service).');
  }
  const streets = await openConfiguredStreetArchive(config);
  if (streets) log.info(describeArchive(config.basemapTiles!, streets));
  const shutdown = new GracefulShutdown({ graceMs: config.shutdownGraceMs, log: (line) => log.info(line) }).listen();
  const db = await openDatabase(config);
  shutdown.onStop('the database pool', () => db.destroy());
  const jobs = new JobGateway({
    address: config.temporalAddress,
    namespace: config.temporalNamespace,
    taskQueue: config.taskQueue,
  });
  shutdown.onStop('the Temporal client', () => jobs.close());
  shutdown.onStop('the argument threads', () => closeArgumentThreads());
  const server = await listen(createApp({ config, db, blobs: openBlobStore(config), jobs, streets }), config.port, config.host);
  // The place search's index, made in a thread while the first requests come (lib/places/).
  warmPlaceIndex();
  const requests = httpDrain(server);
  shutdown.onStop('the HTTP server', (deadline) => requests.stop(deadline));
  log.info(`API listening on ${config.host}:${config.port}, public URL ${config.publicUrl}`);
}

main().catch((error) => {
  log.fatal(error instanceof ConfigError ? {} : { err: errorFields(error) }, error instanceof ConfigError ? error.message : 'The API stopped on an error');
  process.exit(1);
});
