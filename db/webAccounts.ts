// Sessions, single-use account tokens and rate-limit counters of the web application
// (migration 021), and the user reads and writes its accounts need.
import type { User } from '../lib/users.js';
import type { WebAccountRepository } from '../lib/webAccounts.js';
import type { Db } from './connection.js';
import { translating, UniqueViolation } from './errors.js';
import { findUserById, findUserByUsername } from './users.js';

const toUser = (row: Record<string, unknown>): User => ({
  id: Number(row.id),
  username: row.username as string,
  email: row.email as string,
  emailVerified: row.email_verified as boolean,
  createdAt: new Date(row.created_at as string),
});

export function webAccountRepository(db: Db): WebAccountRepository {
  return {
    findUserById: (id) => findUserById(db, id),
    findUserByUsername: (username) => findUserByUsername(db, username),

    async findUserByEmail(email) {
      const row = await db('users').whereRaw('lower(email) = lower(?)', [email]).first();
      return row ? toUser(row) : undefined;
    },

    async passwordHashOf(userId) {
      const row = await db('users').where({ id: userId }).first('password_hash');
      return row?.password_hash as string | undefined;
    },

    async setPassword(userId, passwordHash) {
      await db('users').where({ id: userId }).update({ password_hash: passwordHash });
    },

    async setPendingEmail(userId, email) {
      await db('users').where({ id: userId }).update({ pending_email: email });
    },

    async pendingEmailOf(userId) {
      const row = await db('users').where({ id: userId }).first('pending_email');
      return (row?.pending_email as string | null | undefined) ?? null;
    },

    async confirmEmail(userId, email) {
      try {
        await translating(() => db('users').where({ id: userId }).update({ email, email_verified: true, pending_email: null }));
        return true;
      } catch (error) {
        if (error instanceof UniqueViolation) return false;
        throw error;
      }
    },

    async insertSession(session) {
      await db('sessions').insert({ id: session.id, user_id: session.userId, expires_at: session.expiresAt });
    },

    async findSession(id) {
      const row = await db('sessions').where({ id }).andWhere('expires_at', '>', db.fn.now()).first('user_id', 'last_seen_at');
      return row ? { userId: Number(row.user_id), lastSeenAt: new Date(row.last_seen_at) } : undefined;
    },

    async touchSession(id, expiresAt) {
      await db('sessions').where({ id }).update({ last_seen_at: db.fn.now(), expires_at: expiresAt });
    },

    async deleteSession(id) {
      await db('sessions').where({ id }).delete();
    },

    async deleteSessionsOfUser(userId) {
      await db('sessions').where({ user_id: userId }).delete();
    },

    async insertToken(token) {
      await db('account_tokens').insert({
        token_hash: token.hash,
        user_id: token.userId,
        purpose: token.purpose,
        email: token.email,
        expires_at: token.expiresAt,
      });
    },

    async useToken(hash, purpose) {
      // Single use: the first request to mark it used gets it; a second finds it used.
      const rows = await db('account_tokens')
        .where({ token_hash: hash, purpose })
        .whereNull('used_at')
        .andWhere('expires_at', '>', db.fn.now())
        .update({ used_at: db.fn.now() })
        .returning(['user_id', 'email']);
      const row = rows[0];
      return row ? { userId: Number(row.user_id), email: row.email as string } : undefined;
    },

    async countHit(key, windowStart) {
      const rows = await db('rate_limit_hits')
        .insert({ key, window_start: windowStart, count: 1 })
        .onConflict(['key', 'window_start'])
        .merge({ count: db.raw('rate_limit_hits.count + 1') })
        .returning('count');
      return Number(rows[0]?.count ?? 1);
    },

    async forgetHitsBefore(cutoff) {
      await db('rate_limit_hits').where('window_start', '<', cutoff).delete();
    },
  };
}
