// The rate limits (issue 14): token buckets per client address (every request: API calls, web
// pages and their files, log-in attempts) and per API key (authenticated /api/1/ calls). A plain
// request costs 1, a file job its size and the jobs its client already runs (issue 24), reading a
// large map more by its size (map/get, and the site's GeoJSON, downloads and versions of it):
// rateCharges.ts. Past a bucket: a Retry-After header and, for the API (HTTP 200, as every API
// answer) and the site's other JSON requests (HTTP 429), {"error", "error_code": "rate_limited",
// "retry_after"}; for a browser's page or form a 429 page saying how long to wait.
// Buckets live in this process's memory by default, or in PostgreSQL (RATE_LIMIT_STORE=postgres)
// for API processes that must share one budget: README "Rate limits" says why.
import type { Context, Middleware, Next } from 'koa';
import { h } from 'preact';
import type { Db } from '../db/connection.js';
import { PostgresBuckets } from '../db/rateBuckets.js';
import type { Config } from '../lib/config.js';
import type { RateLimits } from '../lib/limitsConfig.js';
import { RateLimited } from '../lib/rateLimited.js';
import { MemoryBuckets, type BucketRule, type Grant, type TokenBucketStore } from '../lib/tokenBuckets.js';
import { MessagePage } from '../web/pages/accountPages.js';
import { addressBucket } from './clientAddress.js';
import { callerOf } from './context.js';
import { drain } from './middleware/drainOnError.js';
import type { Logger } from './middleware/errors.js';
import type { Operation } from './operation.js';
import { JobsInFlight, meterOf, RateMeter } from './rateCharges.js';
import { contentEncoding } from './requestBody.js';
import { answerPage } from './web/pageAnswer.js';

/**
 * Never limited: probes of the service's health and metrics (a load balancer's or a scraper's,
 * from one address every few seconds) and the embedded CLI's loopback endpoint.
 */
const EXEMPT_PATHS = new Set(['/healthz', '/readyz', '/metrics', '/internal/admin']);

/** The editor's file posts (Import, photo and icon uploads): file jobs of the address, as an API key's file operations are the key's. */
const WEB_FILE_POSTS = /^\/maps\/\d+\/(import|images|markers)\/?$/;

export interface RateLimiter {
  /** Every request but the exempt ones: the client address's bucket (app-wide, first). */
  perAddress: Middleware;
  /** An API operation after authentication: the key's bucket, at the operation's cost. */
  perKey(operation: Operation): Middleware;
  close(): Promise<void>;
}

const pass: Middleware = (_ctx, next) => next();

/**
 * The bytes a file request says it sends (0 when it does not say, or sends them compressed):
 * charged before the body is read, the rest once the file is stored (api/fileBody.ts).
 */
const declaredBytes = (ctx: Context): number => {
  const length = Number(ctx.get('content-length'));
  return contentEncoding(ctx) === 'identity' && Number.isSafeInteger(length) && length > 0 ? length : 0;
};

/** The longest time a bucket of these rules takes to fill up from empty. */
const fullAfterMs = (limits: RateLimits): number => Math.max(...[limits.perKey, limits.perIp].map((rule) => (rule.burst * 60_000) / rule.perMinute));

/**
 * A store that lets requests through when it fails (PostgreSQL down or out of connections): a
 * broken limiter must not take the service down with it. Logged once a minute at most.
 */
function failingOpen(store: TokenBucketStore, log: Logger): TokenBucketStore {
  let loggedAt = 0;
  const failed = (error: unknown) => {
    if (Date.now() - loggedAt > 60_000) {
      loggedAt = Date.now();
      log.error('Rate limits not applied: their buckets cannot be read', error);
    }
  };
  return {
    async take(subject: string, rule: BucketRule, cost: number): Promise<Grant> {
      try {
        return await store.take(subject, rule, cost);
      } catch (error) {
        failed(error);
        return { granted: true };
      }
    },
    async give(subject: string, rule: BucketRule, tokens: number): Promise<void> {
      await store.give(subject, rule, tokens).catch(failed);
    },
    close: () => store.close(),
  };
}

/** Answers a request the address's bucket refused: a page for a browser's page or form, JSON otherwise. */
async function refuse(ctx: Context, error: RateLimited, maxUploadBytes: number | null): Promise<void> {
  // As every early refusal: the client is still sending its body, and would see a reset instead of the answer.
  if (!(await drain(ctx, maxUploadBytes))) ctx.set('Connection', 'close');
  if (!ctx.path.startsWith('/api/') && ctx.accepts('json', 'html') === 'html') {
    answerPage(ctx, { status: 429, title: 'Too many requests', body: h(MessagePage, { heading: 'Too many requests', message: error.message }) });
  } else {
    // The API answers HTTP 200 whatever happened (the interface spec); the site's JSON routes 429.
    ctx.status = ctx.path.startsWith('/api/') ? 200 : 429;
    ctx.type = 'application/json';
    ctx.body = error.body();
  }
  ctx.set('Retry-After', String(error.retryAfterSeconds));
  ctx.set('Cache-Control', 'no-store');
}

export function createRateLimiter(config: Pick<Config, 'rateLimits' | 'maxUploadBytes'>, db: Db, log: Logger): RateLimiter {
  const limits = config.rateLimits;
  if (!limits) return { perAddress: pass, perKey: () => pass, close: async () => {} };
  const store = failingOpen(limits.store === 'postgres' ? new PostgresBuckets(db, fullAfterMs(limits)) : new MemoryBuckets(), log);
  const jobs = new JobsInFlight();

  const perAddress: Middleware = async (ctx: Context, next: Next) => {
    if (EXEMPT_PATHS.has(ctx.path)) return next();
    const meter = new RateMeter(store, limits, jobs);
    meter.add({ subject: `ip:${addressBucket(ctx.ip)}`, rule: limits.perIp, who: 'from this address' });
    try {
      await meter.admit(1);
      if (ctx.method === 'POST' && WEB_FILE_POSTS.test(ctx.path)) await meter.chargeFileJob(declaredBytes(ctx));
    } catch (error) {
      if (error instanceof RateLimited) return refuse(ctx, error, config.maxUploadBytes);
      throw error;
    }
    ctx.state.rateMeter = meter;
    try {
      await next();
    } catch (error) {
      // A site route that learned it costs more (a large map's GeoJSON or download, a file larger
      // than it said: rateCharges.ts) and found the bucket short. The API's own refusals are
      // answered by apiErrors, inside.
      if (error instanceof RateLimited && !ctx.path.startsWith('/api/')) return refuse(ctx, error, config.maxUploadBytes);
      throw error;
    } finally {
      meter.finish(); // its file job, if any, has ended (or its client has gone)
    }
  };

  const perKey = (operation: Operation): Middleware => async (ctx, next) => {
    const meter = meterOf(ctx);
    if (meter) {
      meter.add({ subject: `key:${callerOf(ctx).keyPrefix}`, rule: limits.perKey, who: 'with this API key' });
      // A refusal (RateLimited) is answered by apiErrors: HTTP 200 with Retry-After, the body drained first.
      if (operation.kind === 'file') await meter.chargeFileJob(declaredBytes(ctx));
      else await meter.chargeUpTo(1);
    }
    await next();
  };

  return { perAddress, perKey, close: () => store.close() };
}
