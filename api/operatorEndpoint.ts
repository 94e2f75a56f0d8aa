// Embedded mode keeps its database (PGlite) inside the service process, which another process
// may not open at the same time. The operator CLI therefore hands its commands to the running
// service: POST /internal/admin, from loopback only, with the token the service wrote into
// DATA_DIR (readable by its owner only).
import type Router from '@koa/router';
import { koaBody } from 'koa-body';
import type { Db } from '../db/connection.js';
import { runAdminCommand, type MediaCleanupRunner } from '../lib/adminCommands.js';
import { AppError } from '../lib/errors.js';
import { timingSafeEqual } from 'node:crypto';
import { accountRepository } from '../db/accounts.js';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function mountOperatorEndpoint(router: Router, db: Db, token: string, media?: MediaCleanupRunner): void {
  router.post('/internal/admin', koaBody({ json: true, jsonLimit: 64 * 1024 }), async (ctx) => {
    if (!LOOPBACK.has(ctx.req.socket.remoteAddress ?? '') || !sameToken(ctx.get('x-operator-token'), token)) {
      ctx.status = 403;
      ctx.body = { error: 'Operator commands are accepted from this machine only.', error_code: 'permission_denied' };
      return;
    }
    try {
      ctx.body = { lines: await runAdminCommand(accountRepository(db), ctx.request.body, media) };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      ctx.body = { error: error.message, error_code: error.code };
    }
  });
}
