import path from 'node:path';
import type { Config } from '../lib/config.js';
import { openDb, type Db } from './connection.js';
import { migrateToLatest } from './migrate.js';

/** The service's database (PostgreSQL, or PGlite under DATA_DIR), migrated to the latest schema. */
export async function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>): Promise<Db> {
  const db = openDb({ databaseUrl: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'pglite') });
  await migrateToLatest(db);
  return db;
}
