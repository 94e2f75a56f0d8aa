// Once per test run: a real Temporal dev server from the installed binary, a workflow bundle
// shared by every test worker, and a fresh PostgreSQL database on 127.0.0.1:5432 (PGlite in
// memory per test file when no PostgreSQL answers). Everything is removed at the end.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDb } from '../../db/connection.js';
import { migrateToLatest } from '../../db/migrate.js';
import { startTemporalDevServer } from '../../scripts/temporalDevServer.js';
import { WORKFLOWS_PATH } from '../../workers/createWorker.js';

declare module 'vitest' {
  export interface ProvidedContext {
    temporalAddress: string;
    workflowBundlePath: string;
    databaseUrl: string | null;
  }
}

const ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

async function createTestDatabase(): Promise<{ url: string; drop: () => Promise<void> } | null> {
  const admin = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3_000 });
  try {
    await admin.connect();
  } catch {
    return null;
  }
  const name = `mps_test_${randomBytes(6).toString('hex')}`;
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = `postgres://postgres@127.0.0.1:5432/${name}`;
  // Migrate once here: test files running side by side must not race to create the schema.
  const db = openDb({ databaseUrl: url, pgliteDir: undefined });
  await migrateToLatest(db);
  await db.destroy();
  return {
    url,
    drop: async () => {
      const client = new pg.Client({ connectionString: ADMIN_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

export default async function setup(project: TestProject) {
  const [temporal, database, bundle] = await Promise.all([
    startTemporalDevServer({ dynamicConfig: { 'history.workflowIdReuseMinimalInterval': '"0s"' } }),
    createTestDatabase(),
    bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error: console.error } }),
  ]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mps-bundle-'));
  const bundlePath = path.join(dir, 'workflows.js');
  fs.writeFileSync(bundlePath, bundle.code);
  if (!database) console.warn('No PostgreSQL on 127.0.0.1:5432: integration tests use in-memory PGlite.');

  project.provide('temporalAddress', temporal.address);
  project.provide('workflowBundlePath', bundlePath);
  project.provide('databaseUrl', database?.url ?? null);

  return async () => {
    await temporal.stop();
    await database?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
