// Provider keys through the operator commands over the real database: saved per user and kind,
// replaced, listed masked, deleted.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { accountRepository } from '../../db/accounts.js';
import { openDb, type Db } from '../../db/connection.js';
import { migrateToLatest } from '../../db/migrate.js';
import { runAdminCommand } from '../../lib/adminCommands.js';
import { createUser } from '../../lib/accounts.js';

let db: Db;
let username: string;
beforeAll(async () => {
  db = openDb({ databaseUrl: inject('databaseUrl') ?? undefined, pgliteDir: undefined });
  await migrateToLatest(db);
  username = `pk${randomBytes(4).toString('hex')}`;
  await createUser(accountRepository(db), { username, email: `${username}@example.com`, password: 'long enough' });
});
afterAll(() => db?.destroy());

const admin = (request: Record<string, unknown>) => runAdminCommand(accountRepository(db), request);
const TOKEN = 'pk.eyJ1IjoiYWxpY2UiLCJhIjoiY2xxMnRlc3QifQ.abcDEF123_-x9Q1c';

describe('provider keys', () => {
  it('saves one key per kind, replaces it, lists it masked and deletes it', async () => {
    expect(await admin({ command: 'list-provider-keys', username })).toEqual([`${username} has no provider keys.`]);
    expect(await admin({ command: 'set-provider-key', username, kind: 'map_platform', key: TOKEN })).toEqual([
      `Saved the map_platform provider key of ${username} (pk.eyJ…9Q1c).`,
    ]);
    await admin({ command: 'set-provider-key', username, kind: 'tile_provider', key: 'first-key-123456' });
    await admin({ command: 'set-provider-key', username, kind: 'tile_provider', key: 'second-key-abcdef' });
    const listed = await admin({ command: 'list-provider-keys', username });
    expect(listed.map((line) => line.split('  ').slice(0, 2))).toEqual([
      ['map_platform', 'pk.eyJ…9Q1c'],
      ['tile_provider', 'sec…cdef'],
    ]);
    expect(listed.join('\n')).not.toContain(TOKEN);
    const user = await db('users').where({ username }).first('id');
    expect(await db('provider_keys').where({ user_id: user.id }).orderBy('provider').pluck('key')).toEqual([TOKEN, 'second-key-abcdef']);
    await admin({ command: 'delete-provider-key', username, kind: 'tile_provider' });
    await expect(admin({ command: 'delete-provider-key', username, kind: 'tile_provider' })).rejects.toMatchObject({ code: 'key_not_found' });
    expect((await admin({ command: 'list-provider-keys', username })).map((line) => line.split('  ')[0])).toEqual(['map_platform']);
  });

  it('refuses a malformed key, an unknown kind or user, and saves nothing', async () => {
    await expect(admin({ command: 'set-provider-key', username, kind: 'map_platform', key: 'sk.secret-token-of-the-account' })).rejects.toMatchObject({ code: 'invalid_provider_key' });
    await expect(admin({ command: 'set-provider-key', username, kind: 'mapbox', key: TOKEN })).rejects.toMatchObject({ code: 'invalid_arguments' });
    await expect(admin({ command: 'set-provider-key', username: 'nobody-at-all', kind: 'gis_platform', key: 'AAPK1234abcd' })).rejects.toMatchObject({ code: 'user_not_found' });
    await expect(admin({ command: 'set-provider-key', username, kind: 'gis_platform' })).rejects.toMatchObject({ code: 'invalid_arguments', message: '--key is required' });
    expect((await admin({ command: 'list-provider-keys', username })).join('\n')).not.toContain('gis_platform');
  });
});
