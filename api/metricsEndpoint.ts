// GET /metrics: this process's metrics in Prometheus's text format (lib/observability/metrics.ts;
// in the embedded `npm start` also the worker's blob and database timings, same process), for
// operators only. With METRICS_TOKEN set, a scraper sends `Authorization: Bearer <token>`
// (from anywhere); without it, only a client on this machine's loopback may read them, and not
// through a proxy (a request carrying X-Forwarded-For, Forwarded or X-Real-IP is refused: a
// reverse proxy on the same machine would otherwise make every visitor local). The metrics hold
// no user data (labels are operations, codes, formats, types), but they tell how the service
// is used and loaded, which is nobody else's business.
import { createHash, timingSafeEqual } from 'node:crypto';
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Config } from '../lib/config.js';
import { registry } from '../lib/observability/metrics.js';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;
const PROXY_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'];

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** Why this request may not read the metrics (status and message), or undefined when it may. */
function refusal(ctx: Context, token: string | undefined): { status: 401 | 403; message: string } | undefined {
  if (token !== undefined) {
    const given = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('authorization'))?.[1];
    // Digests of equal length: the comparison takes the same time whatever was sent.
    if (given !== undefined && timingSafeEqual(digest(given), digest(token))) return undefined;
    return { status: 401, message: 'Send the metrics token as "Authorization: Bearer <METRICS_TOKEN>".' };
  }
  const local = LOOPBACK.test(ctx.req.socket.remoteAddress ?? '') && PROXY_HEADERS.every((name) => ctx.get(name) === '');
  return local ? undefined : { status: 403, message: 'The metrics are served to this machine only (or set METRICS_TOKEN).' };
}

export function mountMetrics(router: Router, config: Pick<Config, 'metricsToken'>): void {
  router.get('/metrics', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const refused = refusal(ctx, config.metricsToken);
    if (refused) {
      if (refused.status === 401) ctx.set('WWW-Authenticate', 'Bearer realm="metrics"');
      ctx.status = refused.status;
      ctx.body = { error: refused.message };
      return;
    }
    ctx.type = registry.contentType;
    ctx.body = await registry.metrics();
  });
}
