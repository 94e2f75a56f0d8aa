// The one place that turns failures into API answers: HTTP 200 with {"error", "error_code"}
// (rate_limited also carries a Retry-After header and `retry_after`).
// Nothing else (stack traces, SQL, paths) ever reaches a client.
import type { Middleware } from 'koa';
import { DataRefused, DatabaseBusy, DatabaseUnavailable, MediaNotLinkable, translateDbError } from '../../db/errors.js';
import { AppError } from '../../lib/errors.js';
import { mapTooLarge } from '../../lib/geojson/sizeLimits.js';
import { mediaNotLinkable } from '../../lib/media/errors.js';
import { requestContextOf } from '../requestContext.js';
import { RateLimited } from '../../lib/rateLimited.js';

export interface Logger {
  /** `requestId`: the request's X-Request-Id (api/requestContext.ts), for the log line. */
  error(message: string, error?: unknown, requestId?: string): void;
}

/** The AppError a failure means to a client (database refusals, body parsing), or undefined for an internal error. */
export function asAppError(caught: unknown): AppError | undefined {
  if (caught instanceof AppError) return caught;
  const error = translateDbError(caught);
  if (error instanceof DatabaseBusy) {
    return new AppError('server_busy', 'The service is busy right now; please try again in a few seconds.');
  }
  if (error instanceof DatabaseUnavailable) {
    return new AppError('service_unavailable', 'The database cannot be reached right now; please try again in a minute.');
  }
  if (error instanceof MediaNotLinkable) return mediaNotLinkable(error.kind, error.mediaId);
  if (error instanceof DataRefused) {
    return error.reason === 'too_large'
      ? mapTooLarge()
      : new AppError('invalid_arguments', 'An argument holds text or a number the database cannot store.');
  }
  // Errors from body parsing (koa-body / co-body / http-errors) carry an HTTP status and a type.
  const e = error as { status?: number; type?: string; expose?: boolean };
  if (e?.type === 'entity.too.large' || e?.status === 413) {
    return new AppError('file_too_large', 'The request body is larger than the upload limit.');
  }
  if (e?.type === 'entity.parse.failed' || (e?.status === 400 && error instanceof SyntaxError)) {
    return new AppError('invalid_json', 'The request body is not valid JSON.');
  }
  if (e?.status === 415 || e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported') {
    return new AppError('invalid_json', 'The request body must be UTF-8 JSON.');
  }
  return undefined;
}

export function apiErrors(log: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      let appError = asAppError(error);
      if (!appError) {
        log.error(`${ctx.method} ${ctx.path} failed`, error, requestContextOf(ctx)?.requestId);
        appError = new AppError('internal_error', 'Something went wrong inside the service; please try again.');
      }
      ctx.type = 'application/json';
      if (appError instanceof RateLimited) {
        // HTTP 200 as every API answer (the interface spec); the wait also in Retry-After.
        ctx.status = 200;
        ctx.set('Retry-After', String(appError.retryAfterSeconds));
        ctx.body = appError.body();
        return;
      }
      ctx.status = 200;
      ctx.body = { error: appError.message, error_code: appError.code };
    }
  };
}
