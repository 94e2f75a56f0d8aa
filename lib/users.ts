// Accounts and their API keys as the service's code sees them. db/users.ts and db/apiKeys.ts
// return these.

export interface User {
  id: number;
  username: string;
  email: string;
  emailVerified: boolean;
  createdAt: Date;
}

export interface ApiKeyInfo {
  prefix: string;
  name: string;
  createdAt: Date;
  revokedAt: Date | null;
  /** Null until the key's first use (recorded at most once a minute). */
  lastUsedAt: Date | null;
}

/** What authentication needs of a key: the stored hash and the owner. */
export interface KeyOwner {
  keyHash: string;
  revoked: boolean;
  userId: number;
  username: string;
  emailVerified: boolean;
  lastUsedAt: Date | null;
}
