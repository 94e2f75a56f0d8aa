// The first middleware of the app: gives each request its id (the client's X-Request-Id when it
// is sane, else a new UUID; answered in X-Request-Id), keeps its RequestContext on the Koa
// context, and when the answer is done (its last byte sent, or the client gone) writes
// one access log line and counts the request in the HTTP metrics.
//
// The line: request_id, method, operation (the API operation, `map/upload`, or the route
// pattern, `/maps/:id/import`, never the URL: paths and query strings can hold tokens), status,
// error_code, duration_ms, user_id and map_id when known, workflow_id when the request ran a
// workflow, aborted when the client left first. At info level; warn for a 5xx status or an
// internal_error; probes and scrapes (/healthz, /readyz, /metrics) at debug level.
import { randomUUID } from 'node:crypto';
import { Stream } from 'node:stream';
import type { Context, Middleware } from 'koa';
import { log } from '../../lib/observability/logger.js';
import { httpDuration, httpRequests, secondsSince } from '../../lib/observability/metrics.js';
import { SANE_REQUEST_ID } from '../../lib/observability/requestId.js';
import { readMapRef } from '../../lib/mapSummary.js';
import { attachRequestContext, type RequestContext } from '../requestContext.js';

const API_PREFIX = '/api/1/';
const QUIET = new Set(['/healthz', '/readyz', '/metrics']);
/** Routes whose `:id` names a map (its id, an unlisted map's with its link key, which is never logged). */
const MAP_ID_ROUTES = /^\/(maps|embed)\/:id(\/|$)/;

/** The API operation (`map/get`) or the route pattern the router matched; `unmatched` for none. */
export function operationOf(ctx: Context): string {
  const route = (ctx as Context & { _matchedRoute?: string | RegExp })._matchedRoute;
  if (route === undefined) return 'unmatched';
  const pattern = String(route);
  return pattern.startsWith(API_PREFIX) && !pattern.includes('{') ? pattern.slice(API_PREFIX.length) : pattern;
}

/** The error_code of a JSON answer (every API failure, the web's JSON routes). */
function errorCodeOf(ctx: Context): string {
  const body: unknown = ctx.body;
  if (!body || typeof body !== 'object' || Buffer.isBuffer(body) || body instanceof Stream) return '';
  const code = (body as { error_code?: unknown }).error_code;
  return typeof code === 'string' ? code : '';
}

const positiveInt = (value: unknown): number | undefined => {
  const number = typeof value === 'string' ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) && number > 0 ? number : undefined;
};

function mapIdOf(ctx: Context, operation: string): number | undefined {
  const fromArgs = positiveInt((ctx.state.args as { map_id?: unknown } | undefined)?.map_id);
  if (fromArgs !== undefined) return fromArgs;
  if (operation === 'map/upload' && !errorCodeOf(ctx)) return positiveInt((ctx.body as { id?: unknown } | undefined)?.id);
  if (MAP_ID_ROUTES.test(operation)) return readMapRef(ctx.params?.id)?.id;
  return undefined;
}

function userIdOf(ctx: Context): number | undefined {
  const state = ctx.state as { caller?: { userId?: unknown }; viewer?: { id?: unknown } };
  return positiveInt(state.caller?.userId) ?? positiveInt(state.viewer?.id);
}

function finish(ctx: Context, context: RequestContext, start: bigint): void {
  const seconds = secondsSince(start);
  const operation = operationOf(ctx);
  const errorCode = errorCodeOf(ctx);
  const status = ctx.status;
  httpRequests.inc({ method: ctx.method, operation, status: String(status), error_code: errorCode });
  httpDuration.observe({ operation, error_code: errorCode }, seconds);
  // A failed readiness probe is an answer, not a fault: /readyz logs its changes itself.
  const level = QUIET.has(ctx.path) ? 'debug' : status >= 500 || errorCode === 'internal_error' ? 'warn' : 'info';
  if (!log.isLevelEnabled(level)) return;
  const userId = userIdOf(ctx);
  const mapId = mapIdOf(ctx, operation);
  log[level](
    {
      request_id: context.requestId,
      method: ctx.method,
      operation,
      status,
      ...(errorCode ? { error_code: errorCode } : {}),
      duration_ms: Math.round(seconds * 10_000) / 10,
      ...(userId !== undefined ? { user_id: userId } : {}),
      ...(mapId !== undefined ? { map_id: mapId } : {}),
      ...(context.workflowId ? { workflow_id: context.workflowId } : {}),
      ...(ctx.res.writableFinished ? {} : { aborted: true }),
    },
    'request',
  );
}

export function accessLog(): Middleware {
  return async (ctx, next) => {
    const start = process.hrtime.bigint();
    const given = ctx.get('x-request-id');
    const context: RequestContext = { requestId: SANE_REQUEST_ID.test(given) ? given : randomUUID() };
    ctx.set('X-Request-Id', context.requestId);
    attachRequestContext(ctx, context);
    // 'close' comes once per answer: after its last byte, or when the connection went first.
    ctx.res.once('close', () => {
      try {
        finish(ctx, context, start);
      } catch (error) {
        log.error({ err: error, request_id: context.requestId }, 'access log failed');
      }
    });
    await next();
  };
}
