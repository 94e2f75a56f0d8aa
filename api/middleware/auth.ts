// Authorization: Token <key>. The key's prefix finds the stored hash, which is compared in
// constant time; a revoked key or an unverified e-mail address is refused.
import type { Middleware } from 'koa';
import { findKeyOwnerByPrefix } from '../../db/apiKeys.js';
import type { Db } from '../../db/connection.js';
import { apiKeyMatches, apiKeyPrefix } from '../../lib/apiKeys.js';
import { AppError } from '../../lib/errors.js';

export interface Caller {
  userId: number;
  username: string;
}

const INVALID = 'The API key is not valid: it may be mistyped, unknown or revoked.';

/** The caller a valid, verified API key names; undefined without a header or with a key that is not one. */
export async function optionalCaller(db: Db, header: string): Promise<Caller | undefined> {
  const key = /^Token\s+(\S+)\s*$/i.exec(header)?.[1];
  const prefix = key ? apiKeyPrefix(key) : undefined;
  const owner = prefix ? await findKeyOwnerByPrefix(db, prefix) : undefined;
  if (!key || !owner || !apiKeyMatches(key, owner.keyHash) || owner.revoked || !owner.emailVerified) return undefined;
  return { userId: owner.userId, username: owner.username };
}

export function authenticate(db: Db): Middleware {
  return async (ctx, next) => {
    const header = ctx.get('authorization');
    if (!header) {
      throw new AppError('missing_api_key', 'Send your API key in the header "Authorization: Token <key>".');
    }
    const match = /^Token\s+(\S+)\s*$/i.exec(header);
    if (!match) throw new AppError('invalid_api_key', 'The Authorization header must have the form "Token <key>".');
    const key = match[1]!;
    const prefix = apiKeyPrefix(key);
    const owner = prefix ? await findKeyOwnerByPrefix(db, prefix) : undefined;
    if (!owner || !apiKeyMatches(key, owner.keyHash) || owner.revoked) throw new AppError('invalid_api_key', INVALID);
    if (!owner.emailVerified) {
      throw new AppError('email_not_verified', 'Verify your e-mail address before using the API.');
    }
    ctx.state.caller = { userId: owner.userId, username: owner.username } satisfies Caller;
    await next();
  };
}
