// The probes of orchestrators and load balancers. GET /healthz: the process is alive and
// answers HTTP (200, always; it checks nothing else, so a database outage does not get
// healthy API processes restarted). GET /readyz: the process can serve: the database answers
// `select 1`, the Temporal server answers DescribeNamespace, the blob store answers exists()
// on a key no blob has; each check bounded by READY_CHECK_TIMEOUT_MS, run together, so the
// probe answers within that time whatever hangs. 200 with each check's status and time, or
// 503 naming the failed checks. A change of readiness is logged (a warning when a check fails),
// not every probe.
import type Router from '@koa/router';
import { pingDb } from '../db/connection.js';
import { log } from '../lib/observability/logger.js';
import type { ApiDeps } from './context.js';

/** How long one readiness check may take before it counts as failed. */
export const READY_CHECK_TIMEOUT_MS = 2_000;

/** A key of the blob store's key shape that no blob ever has: exists() on it is a cheap round trip. */
export const READINESS_BLOB_KEY = 'readiness/00000000-0000-0000-0000-000000000000';

type CheckName = 'database' | 'temporal' | 'blob_store';

interface CheckResult {
  status: 'ok' | 'down' | 'timeout';
  ms: number;
}

async function bounded(check: () => Promise<boolean>, timeoutMs: number): Promise<CheckResult> {
  const start = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const answer = check().then(
    (ok) => (ok ? ('ok' as const) : ('down' as const)),
    () => 'down' as const,
  );
  const status = await Promise.race([answer, timeout]);
  clearTimeout(timer);
  return { status, ms: Math.round(performance.now() - start) };
}

export function mountProbes(router: Router, deps: Pick<ApiDeps, 'db' | 'jobs' | 'blobs'>, timeoutMs = READY_CHECK_TIMEOUT_MS): void {
  const checks: Record<CheckName, () => Promise<boolean>> = {
    database: () => pingDb(deps.db),
    temporal: () => deps.jobs.ping(timeoutMs),
    blob_store: () => deps.blobs.exists(READINESS_BLOB_KEY).then(() => true),
  };
  let lastFailed = '';

  router.get('/healthz', (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { status: 'ok' };
  });

  router.get('/readyz', async (ctx) => {
    const names = Object.keys(checks) as CheckName[];
    const results = await Promise.all(names.map((name) => bounded(checks[name], timeoutMs)));
    const report = Object.fromEntries(names.map((name, i) => [name, results[i]!])) as Record<CheckName, CheckResult>;
    const failed = names.filter((name) => report[name].status !== 'ok');
    if (failed.join() !== lastFailed) {
      if (failed.length > 0) log.warn({ failed, checks: report }, 'not ready');
      else log.info({ checks: report }, 'ready');
      lastFailed = failed.join();
    }
    ctx.set('Cache-Control', 'no-store');
    ctx.status = failed.length === 0 ? 200 : 503;
    ctx.body = failed.length === 0 ? { status: 'ready', checks: report } : { status: 'unavailable', failed, checks: report };
  });
}
