// GET /metrics: this process's metrics in Prometheus's text format (lib/observability/metrics.ts;
// in the embedded `npm start` also the worker's blob and database timings, same process), for
// operators only. With METRICS_TOKEN set, a scraper sends `Authorization: Bearer <token>`
// (from anywhere); without it, only a client on this machine's loopback may read them, and not
// through a proxy (a request carrying X-Forwarded-For, Forwarded or X-Real-IP is refused: a
// reverse proxy on the same machine would otherwise make every visitor local). The metrics hold
// no user data (labels are operations, codes, formats, types), but they tell how the service
// is used and loaded, which is nobody else's business.
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Config } from '../lib/config.js';
import { registry } from '../lib/observability/metrics.js';
import { bearerMatches, METRICS_AUTHENTICATE, METRICS_TOKEN_WANTED } from '../lib/observability/metricsAccess.js';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;
const PROXY_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'];

/** Why this request may not read the metrics (status and message), or undefined when it may. */
function refusal(ctx: Context, token: string | undefined): { status: 401 | 403; message: string } | undefined {
  if (token !== undefined) {
    return bearerMatches(ctx.get('authorization'), token) ? undefined : { status: 401, message: METRICS_TOKEN_WANTED };
  }
  const local = LOOPBACK.test(ctx.req.socket.remoteAddress ?? '') && PROXY_HEADERS.every((name) => ctx.get(name) === '');
  return local ? undefined : { status: 403, message: 'The metrics are served to this machine only (or set METRICS_TOKEN).' };
}

export function mountMetrics(router: Router, config: Pick<Config, 'metricsToken'>): void {
  router.get('/metrics', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const refused = refusal(ctx, config.metricsToken);
    if (refused) {
      if (refused.status === 401) ctx.set('WWW-Authenticate', METRICS_AUTHENTICATE);
      ctx.status = refused.status;
      ctx.body = { error: refused.message };
      return;
    }
    ctx.type = registry.contentType;
    ctx.body = await registry.metrics();
  });
}
