// provider_keys: one key per user and provider kind (the `provider` column holds the kind).
import type { ProviderKind } from '../lib/basemaps.js';
import type { Db } from './connection.js';

export interface StoredProviderKey {
  kind: ProviderKind;
  key: string;
  updatedAt: Date;
}

/** Saves the user's key of this kind, replacing the one it had. */
export async function saveProviderKey(db: Db, userId: number, kind: ProviderKind, key: string): Promise<void> {
  await db('provider_keys')
    .insert({ user_id: userId, provider: kind, key, updated_at: db.fn.now() })
    .onConflict(['user_id', 'provider'])
    .merge(['key', 'updated_at']);
}

/** The user's keys, by kind. */
export async function listProviderKeys(db: Db, userId: number): Promise<StoredProviderKey[]> {
  const rows = await db('provider_keys').where({ user_id: userId }).orderBy('provider').select('provider', 'key', 'updated_at');
  return rows.map((row) => ({ kind: row.provider as ProviderKind, key: row.key as string, updatedAt: new Date(row.updated_at) }));
}

/** false when the user had no key of this kind. */
export async function deleteProviderKey(db: Db, userId: number, kind: ProviderKind): Promise<boolean> {
  // The deleted rows, not a count: knex-pglite does not report how many rows a delete removed.
  const deleted = await db('provider_keys').where({ user_id: userId, provider: kind }).delete().returning('provider');
  return deleted.length > 0;
}

/** The user's key of this kind, or undefined. */
export async function findProviderKey(db: Db, userId: number, kind: ProviderKind): Promise<string | undefined> {
  const row = await db('provider_keys').where({ user_id: userId, provider: kind }).first('key');
  return row?.key as string | undefined;
}
