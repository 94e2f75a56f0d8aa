import type { Db } from './connection.js';
import { translating, UniqueViolation } from './errors.js';
import type { User } from '../lib/users.js';

interface UserRow {
  id: number;
  username: string;
  email: string;
  email_verified: boolean;
  created_at: Date;
}

const toUser = (row: UserRow): User => ({
  id: Number(row.id),
  username: row.username,
  email: row.email,
  emailVerified: row.email_verified,
  createdAt: new Date(row.created_at),
});

const columns = ['id', 'username', 'email', 'email_verified', 'created_at'];

/** The new user, or which of its unique names another account has already. */
export async function insertUser(
  db: Db,
  user: { username: string; email: string; passwordHash: string; emailVerified: boolean },
): Promise<User | { taken: 'username' | 'email' }> {
  try {
    return await translating(async () => {
      const [row] = await db('users')
        .insert({
          username: user.username,
          email: user.email,
          password_hash: user.passwordHash,
          email_verified: user.emailVerified,
        })
        .returning(columns);
      return toUser(row as UserRow);
    });
  } catch (error) {
    if (error instanceof UniqueViolation && error.constraint.includes('username')) return { taken: 'username' };
    if (error instanceof UniqueViolation && error.constraint.includes('email')) return { taken: 'email' };
    throw error;
  }
}

export async function findUserByUsername(db: Db, username: string): Promise<User | undefined> {
  const row = await db('users').select(columns).whereRaw('lower(username) = lower(?)', [username]).first();
  return row ? toUser(row as UserRow) : undefined;
}

export async function findUsersByUsernames(db: Db, usernames: string[]): Promise<User[]> {
  if (usernames.length === 0) return [];
  const lowered = usernames.map((name) => name.toLowerCase());
  const rows = await db('users').select(columns).whereRaw('lower(username) = any(?)', [lowered]);
  return (rows as UserRow[]).map(toUser);
}

export async function setEmailVerified(db: Db, userId: number): Promise<void> {
  await db('users').where({ id: userId }).update({ email_verified: true });
}

export async function findUserById(db: Db, id: number): Promise<User | undefined> {
  const row = await db('users').select(columns).where({ id }).first();
  return row ? toUser(row as UserRow) : undefined;
}
