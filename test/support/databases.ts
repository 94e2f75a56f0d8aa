// A database of a test's own, migrated up to a given migration only (to test the migrations
// that come after it): a scratch database on PostgreSQL, or an in-memory PGlite.
import { openDb, type Db } from '../../db/connection.js';
import { migrateToLatest, migrationSource } from '../../db/migrate.js';
import { createScratchDatabase } from '../../db/scratchDatabase.js';

export interface Database {
  db: Db;
  drop(): Promise<void>;
}

/** A database of its own, migrated up to `last` only (all migrations without it). */
export async function databaseUpTo(kind: 'pg' | 'pglite', last?: string): Promise<Database> {
  if (kind === 'pg') {
    const scratch = await createScratchDatabase('storage', { upTo: last });
    if (!scratch) throw new Error('no PostgreSQL');
    const db = openDb({ databaseUrl: scratch.url, pgliteDir: undefined });
    return {
      db,
      drop: async () => {
        await db.destroy();
        await scratch.drop();
      },
    };
  }
  const db = openDb({ databaseUrl: undefined, pgliteDir: undefined });
  if (last === undefined) await migrateToLatest(db);
  else await db.migrate.latest({ migrationSource: migrationSource(last) });
  return { db, drop: () => db.destroy() };
}

