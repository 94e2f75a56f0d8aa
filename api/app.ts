// Builds the Koa application: /api/1/ operations (always HTTP 200, JSON, errors as
// {"error", "error_code"}), the stored images and markers (/images/…, /markers/…), maps' static
// images ({map url}/static.png, /thumbnail.png), the built-in basemaps for the browser
// (/basemaps/…: styles, vector tiles, the labels' font), /healthz and /readyz, /metrics,
// /openapi.json and the loopback-only operator endpoint. Every request gets an id and one
// access log line (middleware/accessLog.ts), passes its address's rate limit first, and every
// operation its key's after authentication (rateLimits.ts); answers over HTTPS carry HSTS
// (strictTransport.ts).
import type http from 'node:http';
import Router from '@koa/router';
import Koa from 'koa';
import { usesPg } from '../db/connection.js';
import { useExtraBasemaps } from '../lib/basemaps.js';
import { AppError } from '../lib/errors.js';
import { timedBlobStore } from '../lib/observability/timedBlobStore.js';
import type { ApiDeps } from './context.js';
import { Turns } from './turns.js';
import { logInternalError } from './internalErrorLog.js';
import { accessLog, operationOf } from './middleware/accessLog.js';
import { authenticate } from './middleware/auth.js';
import { drainOnError } from './middleware/drainOnError.js';
import { apiErrors, type Logger } from './middleware/errors.js';
import { headerArgs } from './middleware/headerArgs.js';
import { jsonArgs } from './middleware/jsonArgs.js';
import { mountBasemapFiles } from './basemapFiles.js';
import { mountMapImages } from './mapImages.js';
import { mountWeb, notFoundPage } from './web/index.js';
import { mountMediaFiles } from './mediaFiles.js';
import { mountMetrics } from './metricsEndpoint.js';
import { mountProbes } from './probes.js';
import { requestContextOf } from './requestContext.js';
import { buildOpenApiDocument } from './openapi.js';
import { OPERATIONS } from './operations.js';
import { trustProxies } from './clientAddress.js';
import { createRateLimiter } from './rateLimits.js';
import { streetTileHandler } from './streetTiles.js';
import { strictTransport } from './strictTransport.js';
import { CLIENT_STALLED } from './routes/map/get.js';
import { COMMON_HEADERS } from './server.js';

export interface AppOptions {
  log?: Logger;
  /** Extra routes mounted before the catch-all (the embedded operator endpoint). */
  extraRoutes?: (router: Router) => void;
}

const serviceLogger: Logger = { error: logInternalError };

/** Errors of a client that went away while its answer was being sent: nothing to report. */
const CLIENT_GONE = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE', 'ERR_STREAM_DESTROYED', CLIENT_STALLED]);

/**
 * Large maps read at once per API process: 2 on PostgreSQL, 1 on PGlite, whose one connection
 * answers one query at a time, so a second read at once only doubles everyone else's wait (map/list
 * beside 16 readers of a 12 MB map: 1.3–2.3 s with 2, 0.9–1.1 s with 1).
 */
const largeReadSlots = (db: ApiDeps['db']): number => (usesPg(db) ? 2 : 1);
/** Large JSON bodies (over 64 kB, up to the upload limit) held and read at once per API process. */
const LARGE_BODY_SLOTS = 4;
/** How long a request waits for its turn before it is answered server_busy. */
const LARGE_WAIT_MS = 20_000;
const LARGE_READS_BUSY = 'Many large maps are being read right now; please try again in a few seconds.';
const LARGE_BODIES_BUSY = 'Many large requests are being read right now; please try again in a few seconds.';

export function createApp(given: Omit<ApiDeps, 'largeReads'> & Partial<Pick<ApiDeps, 'largeReads'>>, options: AppOptions = {}): Koa {
  // The operator's basemaps join the catalogue before anything reads it (workers/main.ts does the same).
  useExtraBasemaps(given.config.extraBasemaps);
  const deps: ApiDeps = {
    ...given,
    // Blob store operations timed into the metrics (lib/observability/timedBlobStore.ts).
    blobs: timedBlobStore(given.blobs),
    largeReads: given.largeReads ?? new Turns(largeReadSlots(given.db), LARGE_WAIT_MS, LARGE_READS_BUSY),
  };
  const app = new Koa();
  trustProxies(app, deps.config.trustProxy);
  const log = options.log ?? serviceLogger;
  // Failures after an answer has started (a streamed map/get); everything before is apiErrors' job.
  app.on('error', (error: NodeJS.ErrnoException, ctx?: Koa.Context) => {
    if (CLIENT_GONE.has(error?.code ?? '')) return;
    log.error(`${ctx?.method ?? ''} ${ctx ? operationOf(ctx) : ''} failed while answering`, error, requestContextOf(ctx)?.requestId);
  });
  app.use(accessLog());
  const hsts = strictTransport(deps.config.publicUrl);
  app.use(async (ctx, next) => {
    ctx.set(COMMON_HEADERS);
    hsts(ctx);
    await next();
  });
  const rateLimiter = createRateLimiter(deps.config, deps.db, log);
  app.use(rateLimiter.perAddress);

  const router = new Router();
  const api = new Router({ prefix: '/api/1' });
  // Answers may hold private maps: no cache keeps them.
  api.use(async (ctx, next) => {
    ctx.set('Cache-Control', 'no-store');
    await next();
  });
  api.use(apiErrors(log));

  const drain = drainOnError(deps.config.maxUploadBytes);
  const largeBodies = new Turns(LARGE_BODY_SLOTS, LARGE_WAIT_MS, LARGE_BODIES_BUSY);
  for (const operation of OPERATIONS) {
    const handle = (ctx: Koa.Context) => operation.handle(ctx, deps, ctx.state.args);
    if (operation.kind === 'json') {
      api.post(`/${operation.path}`, drain, authenticate(deps.db), rateLimiter.perKey(operation), jsonArgs(operation, deps.config.maxUploadBytes, largeBodies), handle);
    } else {
      api.post(`/${operation.path}`, drain, authenticate(deps.db), rateLimiter.perKey(operation), headerArgs(operation), handle);
    }
  }
  const known = new Set(OPERATIONS.map((operation) => `/api/1/${operation.path}`));
  api.all('/{*rest}', (ctx) => {
    if (known.has(ctx.path.replace(/\/+$/, ''))) {
      throw new AppError('method_not_allowed', `Call ${ctx.path} with POST, not ${ctx.method}.`);
    }
    throw new AppError('unknown_endpoint', `There is no API operation at ${ctx.path}.`);
  });

  mountProbes(router, deps);
  mountMetrics(router, deps.config);
  let openApi: object | undefined;
  router.get('/openapi.json', (ctx) => {
    ctx.body = openApi ??= buildOpenApiDocument(deps.config.publicUrl);
  });
  // Before the map routes: /basemaps/… is never an owner's map.
  mountBasemapFiles(router, deps.config.publicUrl, deps.streets);
  mountWeb(router, deps);
  mountMediaFiles(router, deps.db, deps.blobs);
  mountMapImages(router, deps.db, deps.blobs);
  options.extraRoutes?.(router);

  app.use(notFoundPage);
  app.use(api.routes());
  app.use(router.routes());
  app.use(router.allowedMethods());
  if (deps.streets) {
    // The street tiles are answered before the app (streetTiles.ts says why); what they leave is the app's.
    const tiles = streetTileHandler(deps.streets, { httpsService: new URL(deps.config.publicUrl).protocol === 'https:', trustProxy: deps.config.trustProxy !== false });
    const appCallback = app.callback.bind(app);
    app.callback = () => {
      const handle = appCallback();
      return (req, res) => (tiles(req as http.IncomingMessage, res as http.ServerResponse) ? Promise.resolve() : handle(req, res));
    };
  }
  return app;
}
