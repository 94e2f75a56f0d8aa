// Runs the real service in-process for a test file: Koa on a free port, a worker on its own
// task queue, the shared Temporal dev server and PostgreSQL database (or in-memory PGlite).
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { NativeConnection } from '@temporalio/worker';
import { inject } from 'vitest';
import { createApp } from '../../api/app.js';
import { closeArgumentThreads } from '../../api/argumentThreads.js';
import { JobGateway } from '../../api/jobs.js';
import type { Turns } from '../../api/turns.js';
import { listen } from '../../api/server.js';
import type { Logger } from '../../api/middleware/errors.js';
import type { FaultHooks } from '../../activities/deps.js';
import { openDb, type Db } from '../../db/connection.js';
import { migrateToLatest } from '../../db/migrate.js';
import { createApiKey, createUser, verifyEmail } from '../../lib/accounts.js';
import type { BlobStore } from '../../lib/blobs/blobStore.js';
import { LocalBlobStore } from '../../lib/blobs/localBlobStore.js';
import { loadConfig, type Config } from '../../lib/config.js';
import { freePort } from '../../lib/freePort.js';
import { TileCache } from '../../lib/render/tileCache.js';
import { tilePainting, type TileSettings } from '../../lib/render/xyzBackground.js';
import { createWorkers, type RunningWorker } from '../../workers/createWorker.js';
import { installWorkerRuntime } from '../../workers/runtime.js';
import { setLogLevel } from '../../lib/observability/logger.js';
import { openConfiguredStreetArchive } from '../../lib/streetArchive/index.js';
import { accountRepository } from '../../db/accounts.js';

// The service's logger and Temporal Runtime (JSON lines through pino), quiet below errors; a
// test file that reads the logs raises the level and diverts them (lib/observability/logger.ts).
setLogLevel('error');
try {
  installWorkerRuntime();
} catch {
  // already installed in this process
}

/** Answers are checked field by field in the tests; a loose type keeps those checks short. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = Record<string, any>;

export interface TestService {
  url: string;
  config: Config;
  db: Db;
  /** The local store's directory (unused when `blobs` was given). */
  blobDir: string;
  blobs: BlobStore;
  /** Errors the API logged as internal (a test can assert there were none). */
  internalErrors: unknown[];
  /** POST to /api/1/<op> with a JSON body. */
  call(op: string, key: string | null, body?: unknown): Promise<Answer>;
  /** POST a file operation: arguments in Service-API-Arg, `file` as the body. */
  send(op: string, key: string | null, args: unknown, file?: string | Uint8Array, headers?: Record<string, string>): Promise<Answer>;
  /** A new verified user and an API key of theirs. */
  newUser(options?: { verified?: boolean }): Promise<{ username: string; userId: number; key: string }>;
  stop(): Promise<void>;
}

export interface TestServiceOptions {
  config?: Partial<Config>;
  /** false: no worker polls the task queue. */
  worker?: boolean;
  /** false: no worker polls the render task queue (a map's image stays the placeholder). */
  renderWorker?: boolean;
  /** Overrides the Temporal address (e.g. a closed port). */
  temporalAddress?: string;
  noWorkerAfterMs?: number;
  faults?: FaultHooks;
  /** Turns for large map reads (default: the service's). */
  largeReads?: Turns;
  /** How commercial basemap tiles are fetched (tests point the URL at a local tile server). */
  tiles?: Partial<TileSettings>;
  /** The blob store of the API and the worker (default: a local directory under the test's data directory). */
  blobs?: BlobStore;
}

export async function startTestService(options: TestServiceOptions = {}): Promise<TestService> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mps-test-'));
  const databaseUrl = inject('databaseUrl') ?? undefined;
  const port = await freePort();
  const config: Config = {
    // No rate limits unless a test turns them on (rate-limits.test.ts); the web tests' browsers
    // each send their own X-Forwarded-For address, as behind one proxy.
    // The tests' tile servers listen on loopback: allowed as an operator allows an internal one.
    ...loadConfig({ DATA_DIR: dataDir, PORT: String(port), RATE_LIMITS: 'off', TRUST_PROXY: '1', BASEMAPS_ALLOW_PRIVATE: 'true' }),
    databaseUrl,
    publicUrl: `http://127.0.0.1:${port}`,
    taskQueue: `test-${randomUUID()}`,
    mediaTaskQueue: `test-media-${randomUUID()}`,
    renderTaskQueue: `test-render-${randomUUID()}`,
    ...options.config,
  };
  const address = options.temporalAddress ?? inject('temporalAddress');
  const db = openDb({ databaseUrl, pgliteDir: undefined, poolMax: 30 });
  if (!databaseUrl) await migrateToLatest(db); // PostgreSQL was migrated by the global setup
  // As the entry points do: the street map archive of config.basemapTiles, opened and checked.
  const streets = await openConfiguredStreetArchive(config);
  const blobDir = path.join(dataDir, 'blobs');
  const blobs = options.blobs ?? new LocalBlobStore(blobDir);
  let worker: RunningWorker | undefined;
  let workerDone: Promise<void> | undefined;
  let connection: NativeConnection | undefined;
  if (options.worker !== false && !options.temporalAddress) {
    connection = await NativeConnection.connect({ address });
    worker = await createWorkers({
      connection,
      namespace: config.temporalNamespace,
      taskQueue: config.taskQueue,
      mediaTaskQueue: config.mediaTaskQueue,
      renderTaskQueue: config.renderTaskQueue,
      queues: options.renderWorker === false ? ['maps', 'media'] : ['maps', 'media', 'render'],
      deps: {
        db,
        blobs,
        publicUrl: config.publicUrl,
        faults: options.faults,
        paintTiles: tilePainting({
          cache: new TileCache({ dir: config.tileCacheDir, maxBytes: config.tileCacheMaxBytes }),
          timeoutMs: config.tileTimeoutMs,
          allowPrivateAddresses: config.basemapsAllowPrivate,
          ...options.tiles,
        }),
        serviceProviderKeys: config.serviceProviderKeys,
        streets,
      },
      workflowBundle: { codePath: inject('workflowBundlePath') },
    });
    workerDone = worker.run();
  }
  const jobs = new JobGateway({
    address,
    namespace: config.temporalNamespace,
    taskQueue: config.taskQueue,
    connectTimeoutMs: 2_000,
    noWorkerAfterMs: options.noWorkerAfterMs,
    // As `npm start` does: jobs start eagerly on the worker's connection when a worker runs here.
    sharedConnection: connection,
  });

  const internalErrors: unknown[] = [];
  const log: Logger = { error: (_message, error) => internalErrors.push(error) };
  const server: Server = await listen(createApp({ config, db, blobs, jobs, streets, largeReads: options.largeReads, ...(options.tiles ? { tiles: options.tiles } : {}) }, { log }), port, '127.0.0.1');
  const url = `http://127.0.0.1:${port}`;

  const auth = (key: string | null): Record<string, string> => (key ? { authorization: `Token ${key}` } : {});

  return {
    url,
    config,
    db,
    blobDir,
    blobs,
    internalErrors,
    async call(op, key, body) {
      const response = await fetch(`${url}/api/1/${op}`, {
        method: 'POST',
        headers: { ...auth(key), 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (response.status !== 200) throw new Error(`HTTP ${response.status} from ${op}`);
      return (await response.json()) as Answer;
    },
    async send(op, key, args, file, headers = {}) {
      const response = await fetch(`${url}/api/1/${op}`, {
        method: 'POST',
        headers: {
          ...auth(key),
          ...(args === undefined ? {} : { 'service-api-arg': typeof args === 'string' ? args : JSON.stringify(args) }),
          ...headers,
        },
        body: file as string | Uint8Array<ArrayBuffer> | undefined,
      });
      if (response.status !== 200) throw new Error(`HTTP ${response.status} from ${op}`);
      return (await response.json()) as Answer;
    },
    async newUser({ verified = true } = {}) {
      const username = `u${randomBytes(5).toString('hex')}`;
      const user = await createUser(accountRepository(db), { username, email: `${username}@example.com`, password: 'correct horse' });
      if (verified) await verifyEmail(accountRepository(db), username);
      const { key } = await createApiKey(accountRepository(db), username, 'test');
      return { username, userId: user.id, key };
    },
    async stop() {
      await new Promise((resolve) => server.close(resolve));
      await closeArgumentThreads();
      worker?.shutdown();
      await workerDone;
      await connection?.close();
      await jobs.close();
      await db.destroy();
      await streets?.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const featureCollection = (count: number, offset = 0) => ({
  type: 'FeatureCollection',
  features: Array.from({ length: count }, (_, i) => ({
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [((i + offset) % 360) - 180, ((i + offset) % 170) - 85] },
    properties: { title: `Point ${i + offset}` },
  })),
});
