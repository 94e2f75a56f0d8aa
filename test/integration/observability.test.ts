// Logs, metrics and probes of the running service (issue 14, item 6): the access log line of an
// API call, the request id in the workflow's memo and on its activity's log lines, GET /metrics
// after an upload (requests, import bytes and features, blob and database timings, workflow
// outcomes), the Temporal SDK's worker metrics, /healthz and /readyz (also with Temporal dead
// or hanging), and who may read /metrics. The logs are the service's real logger's lines,
// diverted from stdout into memory (lib/observability/logger.ts divertLogs).
import { workerMetricsAddress } from './workerMetricsRuntime.js';
import net from 'node:net';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { divertLogs, setLogLevel } from '../../lib/observability/logger.js';
import { READY_CHECK_TIMEOUT_MS } from '../../api/probes.js';
import { freePort } from '../../lib/freePort.js';
import { waitFor } from '../../lib/waitFor.js';
import { featureCollection, startTestService, type TestService } from './harness.js';

type Line = Record<string, unknown>;

const lines: Line[] = [];
let restoreLogs: () => void;
let service: TestService;
let user: { username: string; userId: number; key: string };

beforeAll(async () => {
  setLogLevel('debug');
  restoreLogs = divertLogs((line) => lines.push(JSON.parse(line) as Line));
  service = await startTestService();
  user = await service.newUser();
});

afterAll(async () => {
  await service?.stop();
  restoreLogs?.();
  setLogLevel('error');
});

/** The log lines matching `where`, once at least `count` of them have been written (lines are written after the answer is sent). */
async function linesWhere(where: (line: Line) => boolean, count = 1): Promise<Line[]> {
  await waitFor(`${count} log line(s)`, async () => lines.filter(where).length >= count, 5_000);
  return lines.filter(where);
}

const post = (path: string, headers: Record<string, string>, body?: string) =>
  fetch(`${service.url}/api/1/${path}`, { method: 'POST', headers: { authorization: `Token ${user.key}`, ...headers }, body });

/** A sample's value in Prometheus text, or undefined when the series is absent. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([label, value]) => `${label}="${value}"`);
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = (match[2] ?? '').split(/,(?=[a-z_]+=")/);
    if (wanted.every((pair) => present.includes(pair))) return Number(match[3]);
  }
  return undefined;
}

/** Every label value of the service's own metrics (`mps_…`), but the histograms' bucket bounds (`le`). */
const labelValues = (text: string): string[] =>
  text
    .split('\n')
    .filter((line) => line.startsWith('mps_'))
    .flatMap((line) => [...line.matchAll(/([a-z_]+)="([^"]*)"/g)].filter(([, label]) => label !== 'le').map(([, , value]) => value!));

describe('the access log', () => {
  it('writes one JSON line per API call with the request id, operation, status, user and duration, and answers the id', async () => {
    const response = await post('map/list', { 'x-request-id': 'obs-list-1', 'content-type': 'application/json' }, '{}');
    expect(response.headers.get('x-request-id')).toBe('obs-list-1');
    await response.json();
    const [line, ...more] = await linesWhere((l) => l.request_id === 'obs-list-1' && l.msg === 'request');
    expect(more).toEqual([]);
    expect(line).toMatchObject({ level: 'info', method: 'POST', operation: 'map/list', status: 200, user_id: user.userId });
    expect(line).not.toHaveProperty('error_code');
    expect(line!.duration_ms).toBeTypeOf('number');
    expect(line!.time).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('carries the error_code and the map id of a refused call', async () => {
    const response = await post('map/get', { 'x-request-id': 'obs-get-missing' }, JSON.stringify({ map_id: 987654321 }));
    expect((await response.json()).error_code).toBe('map_not_found');
    const [line] = await linesWhere((l) => l.request_id === 'obs-get-missing' && l.msg === 'request');
    expect(line).toMatchObject({ operation: 'map/get', status: 200, error_code: 'map_not_found', map_id: 987654321, user_id: user.userId });
  });

  it('makes a new id when the client sends none or an unusable one, and logs route patterns, not paths', async () => {
    const response = await fetch(`${service.url}/maps/123/versions`, { headers: { 'x-request-id': 'not a usable id; drop table' } });
    const id = response.headers.get('x-request-id')!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const [line] = await linesWhere((l) => l.request_id === id && l.msg === 'request');
    expect(line).toMatchObject({ method: 'GET', operation: '/maps/:id/versions', map_id: 123 });
    const none = await fetch(`${service.url}/nothing/here/at/all`);
    const noneId = none.headers.get('x-request-id')!;
    expect((await linesWhere((l) => l.request_id === noneId && l.msg === 'request'))[0]).toMatchObject({ operation: 'unmatched', status: 404 });
  });
});

describe('an upload, followed through', () => {
  const file = JSON.stringify(featureCollection(7));
  let mapId: number;
  let workflowId: string;

  beforeAll(async () => {
    const response = await post('map/upload', { 'x-request-id': 'obs-upload-1', 'service-api-arg': JSON.stringify({ file_type: 'geojson', visibility: 'private', title: 'Observed' }) }, file);
    const answer = await response.json();
    expect(answer.import).toMatchObject({ features: 7 });
    mapId = answer.id;
    const [line] = await linesWhere((l) => l.request_id === 'obs-upload-1' && l.msg === 'request');
    expect(line).toMatchObject({ operation: 'map/upload', status: 200, map_id: mapId, user_id: user.userId });
    workflowId = line!.workflow_id as string;
    expect(workflowId).toMatch(/^upload:/);
  });

  it('puts the request id in the workflow memo, where the Temporal UI shows it', async () => {
    const connection = await Connection.connect({ address: inject('temporalAddress') });
    try {
      const description = await new Client({ connection }).workflow.getHandle(workflowId).describe();
      expect(description.memo).toMatchObject({ request_id: 'obs-upload-1' });
    } finally {
      await connection.close();
    }
  });

  it('carries the request id into the workflow’s and its activities’ log lines, with the workflow id, activity type and attempt', async () => {
    const [parsed] = await linesWhere((l) => l.msg === 'Activity finished' && l.workflow_id === workflowId && l.activity_type === 'uploadDuringParse');
    expect(parsed).toMatchObject({ level: 'info', request_id: 'obs-upload-1', attempt: 1, outcome: 'completed', user_id: user.userId, sdk_component: 'activity' });
    expect(parsed).not.toHaveProperty('task_token');
    // The SDK's own lines of the workflow (debug level) carry it too.
    const [completed] = await linesWhere((l) => l.msg === 'Workflow completed' && l.workflow_id === workflowId);
    expect(completed).toMatchObject({ request_id: 'obs-upload-1', workflow_type: 'uploadMap' });
  });

  it('never logs the API key or the file’s content', () => {
    const all = lines.map((line) => JSON.stringify(line)).join('\n');
    expect(all).not.toContain(user.key);
    expect(all).not.toContain('Point 3');
  });

  it('counts the request, the import’s bytes and features, the workflow, and times the blob store and the database at GET /metrics', async () => {
    const response = await fetch(`${service.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await response.text();
    expect(sample(text, 'mps_http_requests_total', { method: 'POST', operation: 'map/upload', status: '200', error_code: '' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'mps_http_requests_total', { operation: 'map/get', error_code: 'map_not_found' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'mps_http_request_duration_seconds_count', { operation: 'map/upload', error_code: '' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'mps_imports_total', { format: 'geojson' })).toBe(1);
    expect(sample(text, 'mps_import_bytes_total', { format: 'geojson' })).toBe(Buffer.byteLength(file));
    expect(sample(text, 'mps_import_features_total', { format: 'geojson' })).toBe(7);
    expect(sample(text, 'mps_workflows_total', { workflow_type: 'uploadMap', outcome: 'started' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'mps_workflows_total', { workflow_type: 'uploadMap', outcome: 'completed' })).toBeGreaterThanOrEqual(1);
    // The API wrote the upload to the blob store; the worker read it (both in this process).
    expect(sample(text, 'mps_blob_operation_duration_seconds_count', { operation: 'putStream', outcome: 'ok' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'mps_blob_operation_duration_seconds_count', { operation: 'delete', outcome: 'ok' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'mps_db_query_duration_seconds_count', { statement: 'select', outcome: 'ok' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'mps_db_query_duration_seconds_count', { statement: 'insert', outcome: 'ok' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'process_cpu_user_seconds_total', {})).toBeGreaterThan(0);
    // Labels are operations, codes and formats: no user, key, map id or title.
    for (const secret of [user.username, user.key, 'Observed', workflowId]) expect(text).not.toContain(secret);
    expect(labelValues(text)).not.toContain(String(mapId));
  });

  it('serves the process’s metrics and the Temporal SDK’s worker metrics at WORKER_METRICS_ADDRESS', async () => {
    const response = await fetch(`http://${workerMetricsAddress}/metrics`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toMatch(/^temporal_worker_task_slots_available\{/m);
    expect(text).toMatch(/^temporal_activity_execution_latency_(bucket|count)\{.*activity_type="uploadDuringParse"/m);
    expect(sample(text, 'mps_db_query_duration_seconds_count', { statement: 'insert', outcome: 'ok' })).toBeGreaterThanOrEqual(1);
    // Without METRICS_TOKEN, whoever reaches the address reads (the operator chose it), through a proxy too.
    expect((await fetch(`http://${workerMetricsAddress}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.9' } })).status).toBe(200);
  });
});

describe('the probes', () => {
  it('answers /healthz (alive) and /readyz (the database, Temporal and the blob store answer) with 200', async () => {
    const health = await fetch(`${service.url}/healthz`);
    expect([health.status, await health.json()]).toEqual([200, { status: 'ok' }]);
    const ready = await fetch(`${service.url}/readyz`);
    expect(ready.status).toBe(200);
    const body = await ready.json();
    expect(body).toMatchObject({ status: 'ready', checks: { database: { status: 'ok' }, temporal: { status: 'ok' }, blob_store: { status: 'ok' } } });
    expect(body.checks.database.ms).toBeTypeOf('number');
  });

  it('answers /readyz with 503 naming temporal, within its timeout, when Temporal is dead or does not answer', async () => {
    // A port that accepts connections and never answers: the check must not wait for it.
    const silent = net.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentPort = (silent.address() as net.AddressInfo).port;
    for (const address of [`127.0.0.1:${await freePort()}`, `127.0.0.1:${silentPort}`]) {
      const down = await startTestService({ temporalAddress: address, worker: false });
      try {
        const started = Date.now();
        const ready = await fetch(`${down.url}/readyz`);
        const elapsed = Date.now() - started;
        expect(ready.status).toBe(503);
        const body = await ready.json();
        expect(body).toMatchObject({ status: 'unavailable', failed: ['temporal'], checks: { database: { status: 'ok' }, blob_store: { status: 'ok' } } });
        expect(['down', 'timeout']).toContain(body.checks.temporal.status);
        expect(elapsed).toBeLessThan(READY_CHECK_TIMEOUT_MS + 1_500);
      } finally {
        await down.stop();
      }
    }
    silent.close();
    // The change of readiness was logged as a warning naming the check.
    expect((await linesWhere((l) => l.msg === 'not ready'))[0]).toMatchObject({ level: 'warn', failed: ['temporal'] });
  });
});

describe('who may read /metrics', () => {
  it('refuses a request through a proxy when no METRICS_TOKEN is set (loopback only)', async () => {
    const proxied = await fetch(`${service.url}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(proxied.status).toBe(403);
    expect(await proxied.text()).not.toContain('mps_');
    expect((await fetch(`${service.url}/metrics`, { headers: { forwarded: 'for=203.0.113.9' } })).status).toBe(403);
  });

  it('asks for the bearer token when METRICS_TOKEN is set, also on loopback', async () => {
    const token = 'metrics-token-0123456789abcdef';
    const guarded = await startTestService({ worker: false, config: { metricsToken: token } });
    try {
      const none = await fetch(`${guarded.url}/metrics`);
      expect(none.status).toBe(401);
      expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect((await fetch(`${guarded.url}/metrics`, { headers: { authorization: `Bearer ${token}x` } })).status).toBe(401);
      const allowed = await fetch(`${guarded.url}/metrics`, { headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': '203.0.113.9' } });
      expect(allowed.status).toBe(200);
      expect(await allowed.text()).toContain('mps_http_requests_total');
    } finally {
      await guarded.stop();
    }
    // The token itself is never logged.
    expect(lines.map((line) => JSON.stringify(line)).join('\n')).not.toContain(token);
  });

  it('has not logged an internal error', () => {
    expect(service.internalErrors).toEqual([]);
  });
});
