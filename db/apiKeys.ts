import type { Db } from './connection.js';
import { translating } from './errors.js';
import type { ApiKeyInfo, KeyOwner } from '../lib/users.js';

export async function insertApiKey(
  db: Db,
  key: { userId: number; name: string; prefix: string; keyHash: string },
): Promise<void> {
  await translating(() =>
    db('api_keys').insert({ user_id: key.userId, name: key.name, prefix: key.prefix, key_hash: key.keyHash }),
  );
}

export async function findKeyOwnerByPrefix(db: Db, prefix: string): Promise<KeyOwner | undefined> {
  const row = await db('api_keys as k')
    .join('users as u', 'u.id', 'k.user_id')
    .select('k.key_hash', 'k.revoked_at', 'k.last_used_at', 'u.id as user_id', 'u.username', 'u.email_verified')
    .where('k.prefix', prefix)
    .first();
  if (!row) return undefined;
  return {
    keyHash: row.key_hash,
    revoked: row.revoked_at !== null,
    userId: Number(row.user_id),
    username: row.username,
    emailVerified: row.email_verified,
    lastUsedAt: row.last_used_at ? new Date(row.last_used_at) : null,
  };
}

/** Records that the key was used now. */
export async function touchApiKey(db: Db, prefix: string): Promise<void> {
  await db('api_keys').where({ prefix }).update({ last_used_at: db.fn.now() });
}

export async function listApiKeys(db: Db, userId: number): Promise<ApiKeyInfo[]> {
  const rows = await db('api_keys')
    .select('prefix', 'name', 'created_at', 'revoked_at', 'last_used_at')
    .where({ user_id: userId })
    .orderBy('id');
  return rows.map((row) => ({
    prefix: row.prefix,
    name: row.name,
    createdAt: new Date(row.created_at),
    revokedAt: row.revoked_at ? new Date(row.revoked_at) : null,
    lastUsedAt: row.last_used_at ? new Date(row.last_used_at) : null,
  }));
}

/** Revokes the user's key with this prefix; false when there is no such active key. */
export async function revokeApiKey(db: Db, userId: number, prefix: string): Promise<boolean> {
  const count = await db('api_keys')
    .where({ user_id: userId, prefix })
    .whereNull('revoked_at')
    .update({ revoked_at: db.fn.now() });
  return count > 0;
}
