// The scaled-out service of README.md ("npm run api", "npm run worker") as a test's own deployment:
// a private PostgreSQL cluster, a Temporal dev server with its SQLite file, one shared DATA_DIR
// (the blob store), and any number of API and worker processes started on them. The test reads
// the database and Temporal directly to check what the processes did. `stop()` kills every
// process and removes the cluster, the server's file and the directory, also after a failure.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { randomBytes } from 'node:crypto';
import { accountRepository } from '../../db/accounts.js';
import { openDb, type Db } from '../../db/connection.js';
import { migrateToLatest } from '../../db/migrate.js';
import { createApiKey, createUser, verifyEmail } from '../../lib/accounts.js';
import { childrenOutput, killAllChildren, type Child } from './childProcesses.js';
import { startPrivatePostgres, type PrivatePostgres } from './privatePostgres.js';
import { startApiProcess, startWorkerProcess, type ApiProcess, type WorkerProcess } from './serviceProcesses.js';
import { startTemporalServer, type TemporalServer } from './temporalServer.js';

export interface Deployment {
  postgres: PrivatePostgres;
  temporal: TemporalServer;
  /** DATA_DIR of every process; blobs under blobs/. */
  dataDir: string;
  blobDir: string;
  databaseUrl: string;
  /** The service's database, for checks. */
  db: Db;
  /** A Temporal client of the test's own (listing workflows, running the clean-up). */
  client: Client;
  startApi(name: string): Promise<ApiProcess>;
  /** `env`: extra variables, such as a fault point (activities/faultPoints.ts). */
  startWorker(name: string, env?: Record<string, string>): Promise<WorkerProcess>;
  newUser(): Promise<{ username: string; userId: number; key: string }>;
  /** The last lines of every process started, and the database server's log: for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

/** Every map URL the processes hand out starts here (as behind a load balancer). */
export const PUBLIC_URL = 'http://127.0.0.1:8080';

/** `env`: settings every API and worker process of the deployment gets (WEBHOOK_ALLOW_PRIVATE, for one). */
export async function startDeployment(options: { env?: Record<string, string> } = {}): Promise<Deployment> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mps-faults-'));
  const stops: (() => Promise<unknown>)[] = [async () => fs.rmSync(dataDir, { recursive: true, force: true })];
  const stop = async () => {
    await killAllChildren();
    for (const step of stops.reverse()) await step().catch((error) => console.error('clean-up step failed:', error));
    stops.length = 0;
  };
  try {
    const [postgres, temporal] = await Promise.all([startPrivatePostgres(), startTemporalServer(dataDir)]);
    stops.push(() => postgres.remove(), () => temporal.stop());
    const admin = openDb({ databaseUrl: postgres.url, pgliteDir: undefined });
    await admin.raw('create database maps');
    await admin.destroy();
    const databaseUrl = postgres.url.replace(/\/postgres$/, '/maps');
    const db = openDb({ databaseUrl, pgliteDir: undefined });
    stops.push(() => db.destroy());
    await migrateToLatest(db);
    const connection = await Connection.connect({ address: temporal.address });
    stops.push(() => connection.close());
    const client = new Client({ connection });

    const env = { ...options.env, DATABASE_URL: databaseUrl, TEMPORAL_ADDRESS: temporal.address, DATA_DIR: dataDir, PUBLIC_URL };
    const started: Child[] = [];
    return {
      postgres,
      temporal,
      dataDir,
      blobDir: path.join(dataDir, 'blobs'),
      databaseUrl,
      db,
      client,
      async startApi(name) {
        const api = await startApiProcess(name, env);
        started.push(api.child);
        return api;
      },
      async startWorker(name, extra = {}) {
        const worker = await startWorkerProcess(name, { ...env, ...extra }, connection);
        started.push(worker.child);
        return worker;
      },
      async newUser() {
        const username = `u${randomBytes(5).toString('hex')}`;
        const user = await createUser(accountRepository(db), { username, email: `${username}@example.com`, password: 'correct horse' });
        await verifyEmail(accountRepository(db), username);
        const { key } = await createApiKey(accountRepository(db), username, 'test');
        return { username, userId: user.id, key };
      },
      output() {
        const temporalChild = temporal.child();
        return `${childrenOutput([...started, ...(temporalChild ? [temporalChild] : [])])}\n----- postgres -----\n${postgres.log()}`;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
