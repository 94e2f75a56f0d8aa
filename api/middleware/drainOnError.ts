// An operation may fail before its body is read, or in the middle of it (bad key, bad arguments,
// a map the caller may not change, a corrupt compressed body). Answering while the client is
// still sending makes many HTTP clients report a reset connection instead of our JSON error, so
// the rest of the body is read and discarded first, up to the upload limit and a few seconds;
// past that the connection is closed.
import type { Context, Middleware } from 'koa';

const DRAIN_TIMEOUT_MS = 10_000;

/** Reads and drops the rest of the body; false when it is over `maxBytes` or does not come in time (close the connection then). */
export async function drain(ctx: Context, maxBytes: number | null): Promise<boolean> {
  const req = ctx.req;
  if (req.readableEnded || req.destroyed) return true;
  const declared = Number(ctx.get('content-length') || Number.NaN);
  if (maxBytes !== null && declared > maxBytes) return false;
  let seen = 0;
  const deadline = setTimeout(() => req.destroy(), DRAIN_TIMEOUT_MS);
  try {
    for await (const chunk of req) {
      seen += (chunk as Buffer).length;
      if (maxBytes !== null && seen > maxBytes) return false;
    }
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(deadline);
  }
}

export function drainOnError(maxBytes: number | null): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      if (!(await drain(ctx, maxBytes))) ctx.set('Connection', 'close');
      throw error;
    }
  };
}
