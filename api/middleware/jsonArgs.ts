// JSON operations take their arguments as a JSON object in the body, whatever Content-Type the
// client sent (curl -d sends a form type): the body is always parsed as JSON.
import type { Middleware } from 'koa';
import { koaBody } from 'koa-body';
import { AppError } from '../../lib/errors.js';

export function jsonArgs(maxBytes: number | null): Middleware {
  const parse = koaBody({
    json: true,
    urlencoded: false,
    text: false,
    multipart: false,
    jsonStrict: false,
    jsonLimit: maxBytes ?? 1024 * 1024 * 1024,
  });
  return async (ctx, next) => {
    ctx.request.headers['content-type'] = 'application/json';
    await parse(ctx, async () => {
      const body: unknown = ctx.request.body;
      const empty = body === undefined || body === '' || (typeof body === 'object' && body !== null && Object.keys(body).length === 0);
      if (!empty && (typeof body !== 'object' || body === null || Array.isArray(body))) {
        throw new AppError('invalid_json', 'The request body must be a JSON object of arguments.');
      }
      ctx.state.args = empty ? {} : body;
      await next();
    });
  };
}
