// Opens the database: PostgreSQL through pg when a URL is given, otherwise embedded PGlite
// (the same SQL) in a folder under the data directory.
import fs from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import ClientPgLite from 'knex-pglite';
import pg from 'pg';
import { log as serviceLog } from '../lib/observability/logger.js';
import { timeQueries } from './queryTimings.js';

export type Db = Knex;

// Return bigint counts and timestamps as the application expects: ints as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number.parseInt(value, 10));

export interface DbOptions {
  databaseUrl: string | undefined;
  /** Where PGlite keeps its files when no databaseUrl is given; undefined: in memory. */
  pgliteDir: string | undefined;
  poolMax?: number;
}

/** What a connection given up in the middle of a COPY is marked with (copy.ts). */
export const ABANDONED_COPY = 'map document stream closed early';

/** Knex's warnings, but for the connections given up on purpose. */
const log = {
  warn(message: string) {
    const text = String(message);
    if (text.includes(ABANDONED_COPY)) return;
    // "Acquire connection error: <stack>" when the pool is exhausted: the first line says it all
    // (the request is answered server_busy).
    serviceLog.warn({ component: 'knex' }, text.startsWith('Acquire connection error') ? text.split('\n')[0]! : text);
  },
};

/** A pool whose queries are timed (queryTimings.ts). */
export function openDb(options: DbOptions): Db {
  const db = openPool(options);
  timeQueries(db);
  return db;
}

function openPool(options: DbOptions): Db {
  if (options.databaseUrl) {
    const db = knexFactory({
      client: 'pg',
      connection: options.databaseUrl,
      pool: { min: 0, max: options.poolMax ?? 10 },
      acquireConnectionTimeout: 10_000,
      log,
    });
    // A connection dropped by the server (restart, pg_terminate_backend) must not kill the process.
    const pool = db.client.pool as { on?: (event: string, fn: (...args: unknown[]) => void) => void };
    pool.on?.('createSuccess', (_eventId: unknown, conn: unknown) => {
      (conn as pg.Client).on('error', () => {});
    });
    return db;
  }
  if (options.pgliteDir) fs.mkdirSync(path.dirname(options.pgliteDir), { recursive: true });
  return knexFactory({
    client: ClientPgLite,
    dialect: 'postgres',
    connection: options.pgliteDir ? { filename: options.pgliteDir } : {},
  } as Knex.Config);
}

/** PostgreSQL through pg (false: embedded PGlite, one connection answering one query at a time). */
export const usesPg = (db: Knex | Knex.Transaction): boolean => db.client.config?.client === 'pg';

/** Runs a trivial query: true when the database answers. */
export async function pingDb(db: Db): Promise<boolean> {
  try {
    await db.raw('select 1');
    return true;
  } catch {
    return false;
  }
}

/** A jsonb column's value: pg and PGlite both hand it over parsed; a text value would mean a driver change. */
export const jsonColumn = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;
