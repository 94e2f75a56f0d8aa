// File operations carry their arguments as a JSON object in the Service-API-Arg header.
import type { Middleware } from 'koa';
import { AppError } from '../../lib/errors.js';

export const ARG_HEADER = 'Service-API-Arg';

export const headerArgs: Middleware = async (ctx, next) => {
  // Node reads header bytes as Latin-1; clients send UTF-8 (or \u escapes, which are ASCII).
  const raw = Buffer.from(ctx.get(ARG_HEADER), 'latin1').toString('utf8');
  if (!raw) throw new AppError('invalid_arguments', `Send the arguments as a JSON object in the ${ARG_HEADER} header.`);
  let args: unknown;
  try {
    args = JSON.parse(raw);
  } catch {
    throw new AppError('invalid_arguments', `The ${ARG_HEADER} header is not valid JSON.`);
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw new AppError('invalid_arguments', `The ${ARG_HEADER} header must hold a JSON object.`);
  }
  ctx.state.args = args;
  await next();
};
