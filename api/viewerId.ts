// Who asks for a file or a page that anyone who may see a map may have: an API client by its key,
// a browser by its session; null for nobody signed in.
import type { Context } from 'koa';
import type { Db } from '../db/connection.js';
import { webAccountRepository } from '../db/webAccounts.js';
import { sessionUser } from '../lib/webAccounts.js';
import { optionalCaller } from './middleware/auth.js';
import { sessionTokenOf } from './web/session.js';

export function viewerIdOf(db: Db): (ctx: Context) => Promise<number | null> {
  const sessions = webAccountRepository(db);
  return async (ctx) => (await optionalCaller(db, ctx.get('authorization')))?.userId ?? (await sessionUser(sessions, sessionTokenOf(ctx)))?.id ?? null;
}
