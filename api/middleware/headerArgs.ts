// File operations carry their arguments as a JSON object in the Service-API-Arg header, checked
// against the operation's schema; the validated arguments are ctx.state.args.
import type { Middleware } from 'koa';
import { ARG_HEADER, readArguments } from '../arguments.js';
import type { Operation } from '../operation.js';
import { checkContentEncoding } from '../requestBody.js';

export { ARG_HEADER };

export function headerArgs(operation: Operation): Middleware {
  return async (ctx, next) => {
    checkContentEncoding(ctx);
    const raw = ctx.req.headers[ARG_HEADER.toLowerCase()];
    // Node reads header bytes as Latin-1: back to the bytes, which must be UTF-8 (or \u escapes, which are ASCII).
    const bytes = Buffer.from(typeof raw === 'string' ? raw : '', 'latin1');
    ctx.state.args = readArguments(operation.args, bytes, 'header');
    await next();
  };
}
