// Sessions, single-use account tokens and rate-limit counters of the web application
// (migration 021), waiting sign-ups (029), the addresses accounts log in from (030), and the
// user reads and writes its accounts need.
import type { User } from '../lib/users.js';
import type { LoginName, WebAccountRepository } from '../lib/webAccounts.js';
import type { Db } from './connection.js';
import { translating, UniqueViolation } from './errors.js';
import { findUserById } from './users.js';

const toUser = (row: Record<string, unknown>): User => ({
  id: Number(row.id),
  username: row.username as string,
  email: row.email as string,
  emailVerified: row.email_verified as boolean,
  createdAt: new Date(row.created_at as string),
});

/** How long an address an account logged in from counts as the account's (migration 030). */
const KNOWN_ADDRESS_DAYS = 60;

const whereName = (name: LoginName): [string, (string | number)[]] =>
  'userId' in name ? ['u.id = ?', [name.userId]] : 'email' in name ? ['lower(u.email) = lower(?)', [name.email]] : ['lower(u.username) = lower(?)', [name.username]];

/** Voids an account's unused verification links (marked used: they can never be opened). */
const voidVerificationTokens = (db: Db, userId: number) =>
  db('account_tokens').where({ user_id: userId, purpose: 'verify_email' }).whereNull('used_at').update({ used_at: db.fn.now() });

export function webAccountRepository(db: Db): WebAccountRepository {
  return {
    findUserById: (id) => findUserById(db, id),

    async findUserByEmail(email) {
      const row = await db('users').whereRaw('lower(email) = lower(?)', [email]).first();
      return row ? toUser(row) : undefined;
    },

    async credentialsOf(name, address) {
      const [where, bindings] = whereName(name);
      const row = await db('users as u')
        .select('u.id', 'u.username', 'u.email', 'u.email_verified', 'u.created_at', 'u.password_hash')
        .select(
          db.raw(
            `exists (select 1 from login_addresses a where a.user_id = u.id and a.address = ? and a.last_login_at > now() - make_interval(days => ?)) as address_known`,
            [address, KNOWN_ADDRESS_DAYS],
          ),
        )
        .whereRaw(where, bindings)
        .first();
      return row ? { user: toUser(row), passwordHash: row.password_hash as string, addressKnown: row.address_known === true } : undefined;
    },

    async rememberLoginAddress(userId, address) {
      await db('login_addresses').insert({ user_id: userId, address, last_login_at: db.fn.now() }).onConflict(['user_id', 'address']).merge(['last_login_at']);
      if (Math.random() < 0.01) await db('login_addresses').whereRaw('last_login_at < now() - make_interval(days => ?)', [KNOWN_ADDRESS_DAYS]).delete();
    },

    async setPassword(userId, passwordHash) {
      await db('users').where({ id: userId }).update({ password_hash: passwordHash });
    },

    async setPendingEmail(userId, email) {
      await db.transaction(async (trx) => {
        await trx('users').where({ id: userId }).update({ pending_email: email });
        await voidVerificationTokens(trx, userId);
      });
    },

    async pendingEmailOf(userId) {
      const row = await db('users').where({ id: userId }).first('pending_email');
      return (row?.pending_email as string | null | undefined) ?? null;
    },

    async confirmEmail(userId, email) {
      try {
        const rows = await translating(() =>
          db('users')
            .where({ id: userId })
            .andWhere((q) => q.whereRaw('lower(pending_email) = lower(?)', [email]).orWhereRaw('lower(email) = lower(?)', [email]))
            .update({ email, email_verified: true, pending_email: db.raw('case when lower(pending_email) = lower(?) then null else pending_email end', [email]) })
            .returning('id'),
        );
        return rows.length > 0 ? 'confirmed' : 'superseded';
      } catch (error) {
        if (error instanceof UniqueViolation) return 'taken';
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

    async insertVerificationToken(token) {
      return db.transaction(async (trx) => {
        // The account's row locked: a change of address at the same moment waits, or has already voided this.
        const user = await trx('users').where({ id: token.userId }).forUpdate().first('email', 'email_verified', 'pending_email');
        const verifying = (user?.pending_email as string | null) ?? (user && !user.email_verified ? (user.email as string) : null);
        if (verifying === null || verifying.toLowerCase() !== token.email.toLowerCase()) return false;
        await voidVerificationTokens(trx, token.userId);
        await trx('account_tokens').insert({ token_hash: token.hash, user_id: token.userId, purpose: 'verify_email', email: token.email, expires_at: token.expiresAt });
        return true;
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

    async saveSignup(signup) {
      if (Math.random() < 0.01) await db('signups').where('expires_at', '<', db.fn.now()).delete();
      // One statement: a username is an account's, or held by one unexpired sign-up (its address's).
      const result = await db.raw(
        `insert into signups (token_hash, username, email, password_hash, expires_at)
         select ?, ?, ?, ?, ? where not exists (select 1 from users where lower(username) = lower(?))
         on conflict ((lower(username))) do update set
           token_hash = excluded.token_hash, username = excluded.username, email = excluded.email,
           password_hash = excluded.password_hash, created_at = now(), expires_at = excluded.expires_at
         where lower(signups.email) = lower(excluded.email) or signups.expires_at <= now()
         returning token_hash`,
        [signup.tokenHash, signup.username, signup.email, signup.passwordHash, signup.expiresAt, signup.username],
      );
      return (result.rows as unknown[]).length > 0;
    },

    async takeSignup(tokenHash) {
      const rows = await db('signups').where({ token_hash: tokenHash }).andWhere('expires_at', '>', db.fn.now()).delete().returning(['username', 'email', 'password_hash']);
      const row = rows[0];
      return row ? { username: row.username as string, email: row.email as string, passwordHash: row.password_hash as string } : undefined;
    },

    async takeHit(key, windowStart, limit) {
      // Counted only while the window has places left: a refused attempt changes nothing.
      const result = await db.raw(
        `insert into rate_limit_hits (key, window_start, count) values (?, ?, 1)
         on conflict (key, window_start) do update set count = rate_limit_hits.count + 1 where rate_limit_hits.count < ?
         returning count`,
        [key, windowStart, limit],
      );
      return (result.rows as unknown[]).length > 0;
    },

    async returnHit(key, windowStart) {
      await db('rate_limit_hits').where({ key, window_start: windowStart }).andWhere('count', '>', 0).decrement('count', 1);
    },

    async forgetHitsBefore(cutoff) {
      await db('rate_limit_hits').where('window_start', '<', cutoff).delete();
    },
  };
}
