// The API entry point of the scaled-out shape: any number of these behind a load balancer.
// Needs DATABASE_URL and TEMPORAL_ADDRESS; workers run separately (workers/main.ts).
import { openDatabase } from '../db/open.js';
import { openBlobStore } from '../lib/blobs/index.js';
import { ConfigError, loadConfig } from '../lib/config.js';
import { errorFields, log, setLogLevel } from '../lib/observability/logger.js';
import { createApp } from './app.js';
import { closeArgumentThreads } from './argumentThreads.js';
import { JobGateway } from './jobs.js';
import { listen } from './server.js';

async function main(): Promise<void> {
  const config = loadConfig();
  setLogLevel(config.logLevel);
  if (!config.databaseUrl || !config.temporalAddress) {
    throw new ConfigError('The api entry point needs DATABASE_URL and TEMPORAL_ADDRESS (npm start runs the embedded service).');
  }
  const db = await openDatabase(config);
  const jobs = new JobGateway({
    address: config.temporalAddress,
    namespace: config.temporalNamespace,
    taskQueue: config.taskQueue,
  });
  const server = await listen(createApp({ config, db, blobs: openBlobStore(config), jobs }), config.port, config.host);
  log.info(`API listening on ${config.host}:${config.port}, public URL ${config.publicUrl}`);
  const stop = () => server.close(() => void Promise.all([jobs.close(), db.destroy(), closeArgumentThreads()]).then(() => process.exit(0)));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error) => {
  log.fatal(error instanceof ConfigError ? {} : { err: errorFields(error) }, error instanceof ConfigError ? error.message : 'The API stopped on an error');
  process.exit(1);
});
