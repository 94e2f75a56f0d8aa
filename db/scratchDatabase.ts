// A throw-away PostgreSQL database on the local server (127.0.0.1:5432, trust auth), migrated
// to the latest schema (or up to a given migration): for the test suite and the benchmarks.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDb } from './connection.js';
import { migrateToLatest, migrationSource } from './migrate.js';

const ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export interface ScratchDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** Undefined when no PostgreSQL answers on 127.0.0.1:5432. `upTo`: the last migration to apply. */
export async function createScratchDatabase(label: string, options: { upTo?: string } = {}): Promise<ScratchDatabase | undefined> {
  const admin = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3_000 });
  try {
    await admin.connect();
  } catch {
    return undefined;
  }
  const name = `mps_${label}_${randomBytes(6).toString('hex')}`;
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = `postgres://postgres@127.0.0.1:5432/${name}`;
  const db = openDb({ databaseUrl: url, pgliteDir: undefined });
  if (options.upTo === undefined) await migrateToLatest(db);
  else await db.migrate.latest({ migrationSource: migrationSource(options.upTo) });
  await db.destroy();
  return {
    url,
    name,
    drop: async () => {
      const client = new pg.Client({ connectionString: ADMIN_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
