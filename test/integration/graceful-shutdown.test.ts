// Graceful shutdown (issue 14) of real processes: the API entry point (api/main.ts), the worker
// entry point (workers/main.ts) and the embedded `npm start` (scripts/start.ts) run as child
// processes on the test's PostgreSQL database and Temporal server. A request or an activity is in
// flight (made slow by the harness's fault hook, or by TEST_SLOW_ACTIVITY_MS in a child) when the
// process gets SIGTERM: it must refuse new connections, finish that work with its normal answer
// and exit 0 within the grace; with a tiny grace it must exit 1 soon anyway; a second signal
// stops it at once. The processes work in a Temporal namespace of their own: a worker process
// brings the service's schedules in line at start, which must not touch the other tests'.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { waitFor } from '../../lib/waitFor.js';
import { freePort } from '../../scripts/freePort.js';
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
    const inFlight = upload(url, key);
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
    expect(exit.code).toBe(0);
    // Its connection closed with the answer, not kept alive for a next request (Node's
    // server.close() alone waits for the client to drop it: 3–4 s more with fetch).
    expect(exit.at - answered).toBeLessThan(1_500);
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

  it('on SIGTERM stops polling, lets the activity in flight finish, and exits 0; the workflow succeeds', async () => {
    const worker = startWorker({ TEST_SLOW_ACTIVITY_MS: '4000', SHUTDOWN_GRACE_MS: '20000' });
    await worker.waitForOutput(/Worker polling/);
    const { key } = await service.newUser();
    const inFlight = upload(service.url, key);
    await worker.waitForOutput(/TEST_SLOW_ACTIVITY_MS: an activity waits/);
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
    const worker = startWorker({ TEST_SLOW_ACTIVITY_MS: '60000', SHUTDOWN_GRACE_MS: '500' });
    await worker.waitForOutput(/Worker polling/);
    const { key } = await service.newUser();
    const inFlight = upload(service.url, key);
    await worker.waitForOutput(/TEST_SLOW_ACTIVITY_MS: an activity waits/);
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
});

describe.skipIf(!databaseUrl)('npm start (scripts/start.ts): the API and a worker in one process', () => {
  let service: TestService;
  beforeAll(async () => {
    // Only for its database helpers, queue names and data directory: no worker, its API unused.
    service = await startTestService({ worker: false, config: { temporalNamespace: namespace } });
  });
  afterAll(() => service?.stop());

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
