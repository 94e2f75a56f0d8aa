// Builds the Koa application: /api/1/ operations (always HTTP 200, JSON, errors as
// {"error", "error_code"}), /healthz, and the loopback-only operator endpoint.
import Router from '@koa/router';
import Koa from 'koa';
import { pingDb } from '../db/connection.js';
import { AppError } from '../lib/errors.js';
import type { ApiDeps } from './context.js';
import { authenticate } from './middleware/auth.js';
import { drainOnError } from './middleware/drainOnError.js';
import { apiErrors, type Logger } from './middleware/errors.js';
import { headerArgs } from './middleware/headerArgs.js';
import { jsonArgs } from './middleware/jsonArgs.js';
import { buildOpenApiDocument } from './openapi.js';
import { OPERATIONS } from './routes.js';

export interface AppOptions {
  log?: Logger;
  /** Extra routes mounted before the catch-all (the embedded operator endpoint). */
  extraRoutes?: (router: Router) => void;
}

const consoleLogger: Logger = {
  error: (message, error) => console.error(message, error),
};

export function createApp(deps: ApiDeps, options: AppOptions = {}): Koa {
  const app = new Koa();
  app.proxy = true;
  const router = new Router();
  const api = new Router({ prefix: '/api/1' });
  api.use(apiErrors(options.log ?? consoleLogger));

  const drain = drainOnError(deps.config.maxUploadBytes);
  for (const op of OPERATIONS) {
    const handle = (ctx: Koa.Context) => op.handler(ctx, deps);
    if (op.args === 'json') api.post(`/${op.path}`, authenticate(deps.db), jsonArgs(deps.config.maxUploadBytes), handle);
    else api.post(`/${op.path}`, drain, authenticate(deps.db), headerArgs, handle);
  }
  const known = new Set(OPERATIONS.map((op) => `/api/1/${op.path}`));
  api.all('/{*rest}', (ctx) => {
    if (known.has(ctx.path.replace(/\/+$/, ''))) {
      throw new AppError('method_not_allowed', `Call ${ctx.path} with POST, not ${ctx.method}.`);
    }
    throw new AppError('unknown_endpoint', `There is no API operation at ${ctx.path}.`);
  });

  router.get('/healthz', async (ctx) => {
    const [database, temporal] = await Promise.all([pingDb(deps.db), deps.jobs.ping()]);
    const ok = database && temporal;
    ctx.status = ok ? 200 : 503;
    ctx.body = { status: ok ? 'ok' : 'unavailable', database: database ? 'ok' : 'down', temporal: temporal ? 'ok' : 'down' };
  });
  let openApi: object | undefined;
  router.get('/openapi.json', (ctx) => {
    ctx.body = openApi ??= buildOpenApiDocument(deps.config.publicUrl);
  });
  options.extraRoutes?.(router);

  app.use(api.routes());
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
