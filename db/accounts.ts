// The repository lib/accounts.ts works through, over this database.
import type { AccountRepository } from '../lib/accounts.js';
import { insertApiKey, listApiKeys, revokeApiKey } from './apiKeys.js';
import type { Db } from './connection.js';
import { deleteProviderKey, listProviderKeys, saveProviderKey } from './providerKeys.js';
import { findUserByUsername, insertUser, setEmailVerified } from './users.js';

export function accountRepository(db: Db): AccountRepository {
  return {
    insertUser: (user) => insertUser(db, user),
    findUserByUsername: (username) => findUserByUsername(db, username),
    setEmailVerified: (userId) => setEmailVerified(db, userId),
    insertApiKey: (key) => insertApiKey(db, key),
    listApiKeys: (userId) => listApiKeys(db, userId),
    revokeApiKey: (userId, prefix) => revokeApiKey(db, userId, prefix),
    saveProviderKey: (userId, kind, key) => saveProviderKey(db, userId, kind, key),
    listProviderKeys: (userId) => listProviderKeys(db, userId),
    deleteProviderKey: (userId, kind) => deleteProviderKey(db, userId, kind),
  };
}
