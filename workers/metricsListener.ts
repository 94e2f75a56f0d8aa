// WORKER_METRICS_ADDRESS: one Prometheus scrape target per process that runs workers (`npm run
// worker`, `npm start`). GET /metrics there answers this process's whole registry — Node's
// process metrics and the service's `mps_…` ones (the activities' blob store and database
// timings; lib/observability/metrics.ts) — followed by the Temporal SDK's worker metrics
// (`temporal_…`). The SDK's own exporter can only serve on an address of its own, so it binds to
// a free port on loopback (`sdkAddress`, given to workers/runtime.ts) and this listener reads it
// at each scrape. Should the SDK's part not answer within 2 s, the scrape still gets this
// process's metrics (and a warning is logged once). With METRICS_TOKEN set, a scraper sends
// `Authorization: Bearer <token>` here too; without it, whoever reaches the address may read
// (the operator chose it: 127.0.0.1:9464 on a machine, 0.0.0.0:9464 in a container's network).
import http from 'node:http';
import { ConfigError } from '../lib/config.js';
import { freePort } from '../lib/freePort.js';
import { log } from '../lib/observability/logger.js';
import { registry } from '../lib/observability/metrics.js';
import { bearerMatches, METRICS_AUTHENTICATE, METRICS_TOKEN_WANTED } from '../lib/observability/metricsAccess.js';

const SDK_TIMEOUT_MS = 2_000;

export interface WorkerMetricsListener {
  /** Where scrapers come (WORKER_METRICS_ADDRESS, the port as bound). */
  address: string;
  /** Loopback host:port for the SDK's Prometheus exporter (installWorkerRuntime's metricsAddress). */
  sdkAddress: string;
  close(): Promise<void>;
}

/** Host and port of `host:port`, `[v6]:port` too. */
function hostAndPort(address: string): { host: string; port: number } {
  const at = address.lastIndexOf(':');
  return { host: address.slice(0, at).replace(/^\[(.*)\]$/, '$1'), port: Number(address.slice(at + 1)) };
}

export async function serveWorkerMetrics(options: { address: string; token?: string }): Promise<WorkerMetricsListener> {
  const sdkAddress = `127.0.0.1:${await freePort()}`;
  let sdkWarned = false;
  const sdkMetrics = async (): Promise<string> => {
    try {
      const response = await fetch(`http://${sdkAddress}/metrics`, { signal: AbortSignal.timeout(SDK_TIMEOUT_MS) });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      sdkWarned = false;
      return await response.text();
    } catch (error) {
      if (!sdkWarned) log.warn({ sdk_address: sdkAddress, reason: String(error) }, 'The Temporal SDK’s worker metrics did not answer; serving this process’s own');
      sdkWarned = true;
      return '';
    }
  };

  const server = http.createServer((request, response) => {
    const answer = (status: number, body: string, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers });
      response.end(request.method === 'HEAD' ? undefined : body);
    };
    const path = (request.url ?? '/').split('?')[0];
    if (path !== '/metrics') return answer(404, 'Not found: the worker serves its metrics at /metrics.\n');
    if (request.method !== 'GET' && request.method !== 'HEAD') return answer(405, 'Only GET /metrics.\n', { allow: 'GET, HEAD' });
    if (options.token !== undefined && !bearerMatches(request.headers.authorization, options.token)) {
      return answer(401, `${METRICS_TOKEN_WANTED}\n`, { 'www-authenticate': METRICS_AUTHENTICATE });
    }
    Promise.all([registry.metrics(), sdkMetrics()]).then(
      ([own, sdk]) => answer(200, own + sdk, { 'content-type': registry.contentType }),
      (error: unknown) => {
        log.error({ reason: String(error) }, 'The worker’s metrics could not be collected');
        answer(500, 'The metrics could not be collected.\n');
      },
    );
  });

  const { host, port } = hostAndPort(options.address);
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(new ConfigError(`WORKER_METRICS_ADDRESS=${options.address}: cannot listen there (${error.code ?? error.message}).`)),
    );
    server.listen(port, host, () => resolve());
  });
  const bound = server.address();
  const boundPort = typeof bound === 'object' && bound ? bound.port : port;
  return {
    address: `${host.includes(':') ? `[${host}]` : host}:${boundPort}`,
    sdkAddress,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
