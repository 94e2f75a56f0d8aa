// Authorization: Token <key>. The key's prefix finds the stored hash, which is compared in
// constant time; a revoked key or an unverified e-mail address is refused.
import type { Middleware } from 'koa';
import { findKeyOwnerByPrefix, touchApiKey } from '../../db/apiKeys.js';
import type { Db } from '../../db/connection.js';
import { apiKeyMatches, apiKeyPrefix } from '../../lib/apiKeys.js';
import { AppError } from '../../lib/errors.js';

export interface Caller {
  userId: number;
  username: string;
  /** The key's public prefix (`mps_XXXXXXXXXX`): names its rate-limit bucket. */
  keyPrefix: string;
}

/** A key's last use is written at most this often (one write a minute, not one per request). */
const LAST_USE_EVERY_MS = 60_000;

const INVALID = 'The API key is not valid: it may be mistyped, unknown or revoked.';

/** The caller the Authorization header names, or why it names none. */
async function callerOf(db: Db, header: string): Promise<Caller | AppError> {
  if (!header) return new AppError('missing_api_key', 'Send your API key in the header "Authorization: Token <key>".');
  const key = /^Token\s+(\S+)\s*$/i.exec(header)?.[1];
  if (!key) return new AppError('invalid_api_key', 'The Authorization header must have the form "Token <key>".');
  const prefix = apiKeyPrefix(key);
  const owner = prefix ? await findKeyOwnerByPrefix(db, prefix) : undefined;
  if (!owner || !apiKeyMatches(key, owner.keyHash) || owner.revoked) return new AppError('invalid_api_key', INVALID);
  if (!owner.emailVerified) return new AppError('email_not_verified', 'Verify your e-mail address before using the API.');
  if (!owner.lastUsedAt || Date.now() - owner.lastUsedAt.getTime() > LAST_USE_EVERY_MS) await touchApiKey(db, prefix!);
  return { userId: owner.userId, username: owner.username, keyPrefix: prefix! };
}

/** The caller a valid, verified API key names; undefined without a header or with a key that is not one (files anyone may fetch). */
export async function optionalCaller(db: Db, header: string): Promise<Caller | undefined> {
  const caller = await callerOf(db, header);
  return caller instanceof AppError ? undefined : caller;
}

export function authenticate(db: Db): Middleware {
  return async (ctx, next) => {
    const caller = await callerOf(db, ctx.get('authorization'));
    if (caller instanceof AppError) throw caller;
    ctx.state.caller = caller;
    await next();
  };
}
