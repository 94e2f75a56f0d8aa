// Graceful shutdown (issue 14) of real processes: the API entry point (api/main.ts), the worker
// entry point (workers/main.ts) and the embedded `npm start` (scripts/start.ts) run as child
// processes on the test's PostgreSQL database and Temporal server. A request or an activity is in
// flight (made slow by the harness's fault hook, or by TEST_SLOW_ACTIVITY_MS in a child) when the
// process gets SIGTERM: it must refuse new connections, finish that work with its normal answer
// and exit 0 within the grace; with a tiny grace it must exit 1 soon anyway; a second signal
// stops it at once. A worker process also serves its metrics (its own and the Temporal SDK's)
// at WORKER_METRICS_ADDRESS, and closes that listener when it stops. The processes work in a
// Temporal namespace of their own: a worker process brings the service's schedules in line at
// start, which must not touch the other tests'.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { waitFor } from '../../lib/waitFor.js';
import { freePort } from '../../lib/freePort.js';
import { featureCollection, startTestService, type TestService } from './harness.js';

const databaseUrl = inject('databaseUrl');
const temporalAddress = inject('temporalAddress');
const namespace = `shutdown-${randomUUID().slice(0, 8)}`;

/** A child process of the service, its output kept, its exit awaited. */
class ServiceProcess {
  readonly child: ChildProcess;
  output = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;

  constructor(script: string, env: Record<string, string>) {
    // node --import tsx (not the tsx wrapper): the signals go to the service itself.
    this.child = spawn(process.execPath, ['--import', 'tsx', script], {
      env: { ...process.env, LOG_LEVEL: 'info', RATE_LIMITS: 'off', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.child.stderr!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.exited = new Promise((resolve) => this.child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() })));
  }

  async waitForOutput(pattern: RegExp, timeoutMs = 90_000): Promise<void> {
    await waitFor(`output ${pattern} (got: ${this.output.slice(-2000)})`, async () => pattern.test(this.output), timeoutMs);
  }

  /** Kills it if a failed test left it running. */
  dispose(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

const children: ServiceProcess[] = [];
function start(script: string, env: Record<string, string>): ServiceProcess {
  const child = new ServiceProcess(script, env);
  children.push(child);
  return child;
}

/** The settings a child shares with the in-process service: database, Temporal, queues, blobs. */
const sharedEnv = (service: TestService): Record<string, string> => ({
  DATABASE_URL: databaseUrl ?? '',
  TEMPORAL_ADDRESS: temporalAddress,
  TEMPORAL_NAMESPACE: namespace,
  TEMPORAL_TASK_QUEUE: service.config.taskQueue,
  TEMPORAL_MEDIA_TASK_QUEUE: service.config.mediaTaskQueue,
  TEMPORAL_RENDER_TASK_QUEUE: service.config.renderTaskQueue,
  DATA_DIR: path.dirname(service.blobDir),
});

/** True when a new TCP connection to the port is refused. */
const refusesConnections = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });

/** map/upload of a small GeoJSON file, not awaited: the request in flight. */
function upload(url: string, key: string, idempotencyKey = randomUUID()) {
  return fetch(`${url}/api/1/map/upload`, {
    method: 'POST',
    headers: {
      authorization: `Token ${key}`,
      'service-api-arg': JSON.stringify({ file_type: 'geojson', visibility: 'private', title: 'In flight' }),
      'idempotency-key': idempotencyKey,
    },
    body: JSON.stringify(featureCollection(5)),
  }).then(async (response) => ({ status: response.status, body: (await response.json()) as Record<string, unknown> }));
}

/**
 * The same upload through a client that keeps idle connections open for as long as the server
 * lets it (Node's keep-alive agent closes none by itself): a server that left the connection
 * open after its answer would not exit until the grace ran out.
 */
function uploadKeepingAlive(url: string, key: string) {
  const agent = new http.Agent({ keepAlive: true });
  return new Promise<{ status: number; connection: string | undefined; body: Record<string, unknown> }>((resolve, reject) => {
    const request = http.request(`${url}/api/1/map/upload`, {
      method: 'POST',
      agent,
      headers: {
        authorization: `Token ${key}`,
        'service-api-arg': JSON.stringify({ file_type: 'geojson', visibility: 'private', title: 'In flight' }),
        'idempotency-key': randomUUID(),
      },
    }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, connection: response.headers.connection, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(JSON.stringify(featureCollection(5)));
  });
}

/** A promise and its resolve (Promise.withResolvers comes with Node 22). */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** Slow parsing in the in-process worker, as long as `delayMs` says; `started` resolves when a parse begins to wait. */
function slowParse() {
  const hook = {
    delayMs: 0,
    started: deferred(),
    beforeParse: (signal: AbortSignal) =>
      new Promise<void>((resolve, reject) => {
        hook.started.resolve();
        const timer = setTimeout(resolve, hook.delayMs);
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(new Error('cancelled'));
        });
      }),
  };
  return hook;
}

beforeAll(async () => {
  if (!databaseUrl) return;
  const connection = await Connection.connect({ address: temporalAddress });
  try {
    await connection.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs('1 day') });
    await waitFor('the test namespace', async () => connection.workflowService.describeNamespace({ namespace }).then(() => true, () => false), 30_000);
  } finally {
    await connection.close();
  }
});
afterAll(() => children.forEach((child) => child.dispose()));

describe.skipIf(!databaseUrl)('the API process (api/main.ts)', () => {
  const hook = slowParse();
  let service: TestService;
  beforeAll(async () => {
    // The worker runs in the test (its parse slowed by the hook); the API under test is a child process.
    service = await startTestService({ config: { temporalNamespace: namespace }, faults: { beforeParse: (signal) => hook.beforeParse(signal) } });
  });
  afterAll(() => service?.stop());

  async function startApi(graceMs: number) {
    const port = await freePort();
    const api = start('api/main.ts', { ...sharedEnv(service), PORT: String(port), HOST: '127.0.0.1', SHUTDOWN_GRACE_MS: String(graceMs) });
    const url = `http://127.0.0.1:${port}`;
    await waitFor('the API process', async () => (await fetch(`${url}/healthz`).catch(() => null))?.status === 200, 90_000);
    return { api, url, port };
  }

  it('on SIGTERM refuses new connections, answers the upload in flight as usual, and exits 0 within the grace', async () => {
    const { api, url, port } = await startApi(20_000);
    const { key } = await service.newUser();
    hook.delayMs = 3_000;
    hook.started = deferred();
    const inFlight = uploadKeepingAlive(url, key);
    await hook.started.promise;
    const signalled = Date.now();
    api.child.kill('SIGTERM');
    await waitFor('new connections refused', () => refusesConnections(port), 2_000);
    const answer = await inFlight;
    const answered = Date.now();
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ title: 'In flight', import: { features: 5, skipped: [] } });
    expect(answer.body.error).toBeUndefined();
    const exit = await api.exited;
    console.log(`API on SIGTERM: exited ${exit.at - answered} ms after the answer; ${/Stopped in [^\n]*/.exec(api.output)?.[0]}`);
    expect(exit.code).toBe(0);
    // Its connection closed with the answer, not kept alive for a next request: Node's
    // server.close() alone waits for the client to drop it, which this client never does (the
    // process would exit 1 when the 20 s of grace ran out). Exited in 8 ms on a quiet machine,
    // 2.2 s on a loaded one: the bound is only that it did not wait for the grace.
    expect(answer.connection).toBe('close');
    expect(exit.at - answered).toBeLessThan(15_000);
    expect(exit.at - signalled).toBeLessThan(20_000);
    expect(exit.at - signalled).toBeGreaterThanOrEqual(2_000); // it did wait for the upload
    expect(api.output).toContain('Finishing 1 request in flight');
    // The map was made once, by that request.
    expect((await service.call('map/get', key, { map_id: answer.body.id })).geojson.features).toHaveLength(5);
  });

  it('with a tiny grace exits 1 soon, cutting the request off, and at once on a second signal', async () => {
    const tiny = await startApi(300);
    const { key } = await service.newUser();
    hook.delayMs = 60_000;
    hook.started = deferred();
    const cutOff = upload(tiny.url, key).catch((error: Error) => error);
    await hook.started.promise;
    let signalled = Date.now();
    tiny.api.child.kill('SIGTERM');
    const exit = await tiny.api.exited;
    expect(exit.code).toBe(1);
    expect(exit.at - signalled).toBeLessThan(300 + 5_000 + 2_000); // the grace, the wind-down, a margin for a busy machine
    expect(await cutOff).toBeInstanceOf(Error); // the connection was closed under it
    expect(tiny.api.output).toMatch(/grace are over: cutting off/);

    // A second signal (later than the repeat window of one Ctrl-C): stops at once, the grace notwithstanding.
    const patient = await startApi(60_000);
    hook.started = deferred();
    void upload(patient.url, key).catch(() => undefined);
    await hook.started.promise;
    patient.api.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(patient.api.child.exitCode).toBeNull(); // still waiting for the upload
    signalled = Date.now();
    patient.api.child.kill('SIGTERM');
    const second = await patient.api.exited;
    expect(second.code).toBe(1);
    expect(second.at - signalled).toBeLessThan(2_000);
    expect(patient.api.output).toContain('again: stopping at once');
    hook.delayMs = 0;
  });
});

describe.skipIf(!databaseUrl)('the worker process (workers/main.ts)', () => {
  let service: TestService;
  beforeAll(async () => {
    // The API runs in the test with no worker of its own; the workers under test are child processes.
    service = await startTestService({ worker: false, config: { temporalNamespace: namespace } });
  });
  afterAll(() => service?.stop());

  const startWorker = (env: Record<string, string>) => start('workers/main.ts', { ...sharedEnv(service), WORKER_QUEUES: 'maps,media', ...env });

  /** A worker whose activities each wait `slowMs`, with an upload's activity waiting on it. */
  async function workerWithUploadInFlight(options: { slowMs: number; graceMs: number }) {
    const worker = startWorker({ TEST_SLOW_ACTIVITY_MS: String(options.slowMs), SHUTDOWN_GRACE_MS: String(options.graceMs) });
    await worker.waitForOutput(/Worker polling/);
    const { key } = await service.newUser();
    const inFlight = upload(service.url, key);
    await worker.waitForOutput(/TEST_SLOW_ACTIVITY_MS: an activity waits/);
    return { worker, inFlight };
  }

  it('on SIGTERM stops polling, lets the activity in flight finish, and exits 0; the workflow succeeds', async () => {
    const { worker, inFlight } = await workerWithUploadInFlight({ slowMs: 4_000, graceMs: 20_000 });
    const signalled = Date.now();
    worker.child.kill('SIGTERM');
    // The rest of the workflow (after the activity) needs a worker that polls: a new one.
    const successor = startWorker({ SHUTDOWN_GRACE_MS: '20000' });
    const exit = await worker.exited;
    expect(exit.code).toBe(0);
    expect(exit.at - signalled).toBeLessThan(20_000);
    expect(exit.at - signalled).toBeGreaterThanOrEqual(2_000); // it waited for the activity
    const answer = await inFlight;
    expect(answer.body).toMatchObject({ title: 'In flight', import: { features: 5 } });
    // The activity ran once, on the stopping worker: the successor never saw it.
    expect(worker.output.match(/an activity waits/g)).toHaveLength(1);
    successor.child.kill('SIGTERM');
    expect((await successor.exited).code).toBe(0);
  });

  it('with a tiny grace cancels the activity, exits 1 soon, and the workflow still succeeds on another worker', async () => {
    const { worker, inFlight } = await workerWithUploadInFlight({ slowMs: 60_000, graceMs: 500 });
    const signalled = Date.now();
    worker.child.kill('SIGTERM');
    const exit = await worker.exited;
    expect(exit.code).toBe(1);
    expect(exit.at - signalled).toBeLessThan(500 + 5_000 + 2_000);
    // Temporal retries the cancelled attempt on a worker that polls.
    const successor = startWorker({ SHUTDOWN_GRACE_MS: '20000' });
    const answer = await inFlight;
    expect(answer.body).toMatchObject({ title: 'In flight', import: { features: 5 } });
    successor.child.kill('SIGTERM');
    expect((await successor.exited).code).toBe(0);
  });

  it('serves its own metrics and the SDK’s at WORKER_METRICS_ADDRESS, asks for METRICS_TOKEN there, and closes it on SIGTERM', async () => {
    const port = await freePort();
    const token = 'worker-metrics-token-0123456789';
    const worker = startWorker({ WORKER_METRICS_ADDRESS: `127.0.0.1:${port}`, METRICS_TOKEN: token, SHUTDOWN_GRACE_MS: '20000' });
    await worker.waitForOutput(/Worker polling/);
    expect(worker.output).toContain(`"worker_metrics":"127.0.0.1:${port}"`);
    const { key } = await service.newUser();
    expect((await upload(service.url, key)).body).toMatchObject({ import: { features: 5 } });
    const url = `http://127.0.0.1:${port}/metrics`;

    const none = await fetch(url);
    expect([none.status, none.headers.get('www-authenticate')]).toEqual([401, 'Bearer realm="metrics"']);
    expect(await none.text()).not.toContain('mps_');
    expect((await fetch(url, { headers: { authorization: 'Bearer not-the-token-0123456789' } })).status).toBe(401);
    expect((await fetch(`http://127.0.0.1:${port}/`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(404);

    const scraped = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await scraped.text();
    // The worker's own: the import's database writes and its reads of the staged file, and Node's process metrics.
    expect(samples(text, 'mps_db_query_duration_seconds_count', 'statement="insert"')).toBeGreaterThan(0);
    expect(samples(text, 'mps_blob_operation_duration_seconds_count', 'outcome="ok"')).toBeGreaterThan(0);
    expect(samples(text, 'process_cpu_user_seconds_total', '')).toBeGreaterThan(0);
    // It answers no HTTP requests: the API's request metrics are the API's, not here.
    expect(samples(text, 'mps_http_requests_total', '')).toBe(0);
    // The Temporal SDK's, read from its exporter on loopback: the upload's parse and write ran here.
    expect(text).toMatch(/^temporal_worker_task_slots_available\{/m);
    expect(samples(text, 'temporal_activity_execution_latency_count', 'activity_type="uploadDuringParse"')).toBeGreaterThan(0);
    // One scrape target: no metric is declared twice.
    const declared = [...text.matchAll(/^# TYPE (\S+)/gm)].map((match) => match[1]);
    expect(declared.length).toBeGreaterThan(20);
    expect(new Set(declared).size).toBe(declared.length);

    worker.child.kill('SIGTERM');
    expect((await worker.exited).code).toBe(0);
    expect(await refusesConnections(port)).toBe(true);
  });
});

/** The sum of a metric's samples whose labels contain `labels` (e.g. `statement="insert"`; "" for all). */
function samples(text: string, name: string, labels: string): number {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .filter((line) => line.slice(0, line.lastIndexOf(' ')).includes(labels))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

describe.skipIf(!databaseUrl)('npm start (scripts/start.ts): the API and a worker in one process', () => {
  let service: TestService;
  beforeAll(async () => {
    // Only for its database helpers, queue names and data directory: no worker, its API unused.
    service = await startTestService({ worker: false, config: { temporalNamespace: namespace } });
  });
  afterAll(() => service?.stop());

  it('failing to start (its port taken) says why, exits 1, and leaves no Temporal dev server behind', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as net.AddressInfo).port;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mps-start-fails-'));
    const devServers = () => execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).split('\n').filter((line) => line.includes(`--db-filename ${dataDir}/`));
    try {
      // No TEMPORAL_ADDRESS: npm start starts its own Temporal dev server first, then fails to listen.
      const embedded = start('scripts/start.ts', { DATABASE_URL: databaseUrl ?? '', TEMPORAL_ADDRESS: '', DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' });
      const exit = await embedded.exited;
      expect(exit.code).toBe(1);
      expect(embedded.output).toMatch(/Temporal dev server at 127\.0\.0\.1:\d+/); // it had started one
      expect(embedded.output).toContain(`"level":"fatal"`);
      expect(embedded.output).toContain(`Cannot listen on 127.0.0.1:${port} (another process listens there): set PORT (or HOST) to another.`);
      await waitFor('the Temporal dev server to be gone', async () => devServers().length === 0, 10_000);
    } finally {
      taken.close();
      for (const line of devServers()) execFileSync('pkill', ['-f', line.slice(0, 200)]);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('on SIGTERM answers the upload in flight (its workflow still runs on the embedded worker), refuses new connections, and exits 0', async () => {
    const port = await freePort();
    const embedded = start('scripts/start.ts', { ...sharedEnv(service), PORT: String(port), HOST: '127.0.0.1', TEST_SLOW_ACTIVITY_MS: '3000', SHUTDOWN_GRACE_MS: '20000' });
    const url = `http://127.0.0.1:${port}`;
    await waitFor('the embedded service', async () => (await fetch(`${url}/healthz`).catch(() => null))?.status === 200, 90_000);
    const { key } = await service.newUser();
    const inFlight = upload(url, key);
    await embedded.waitForOutput(/TEST_SLOW_ACTIVITY_MS: an activity waits/);
    const signalled = Date.now();
    embedded.child.kill('SIGTERM');
    await waitFor('new connections refused', () => refusesConnections(port), 2_000);
    const answer = await inFlight;
    expect(answer.body).toMatchObject({ title: 'In flight', import: { features: 5, skipped: [] } });
    const exit = await embedded.exited;
    expect(exit.code).toBe(0);
    expect(exit.at - signalled).toBeLessThan(20_000);
    expect(embedded.output).toContain('Finishing 1 request in flight');
  });
});
