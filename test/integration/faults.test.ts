import { Client, Connection } from '@temporalio/client';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../scripts/freePort.js';
import { startTestService, featureCollection, type TestService } from './harness.js';

let service: TestService | undefined;
afterEach(async () => {
  await service?.stop();
  service = undefined;
});

const mapCount = async (s: TestService, key: string) => (await s.call('map/list', key)).owner.length as number;

describe('faults', () => {
  it('answers service_unavailable quickly when the Temporal server cannot be reached', async () => {
    service = await startTestService({ temporalAddress: `127.0.0.1:${await freePort()}` });
    const { key } = await service.newUser();
    const started = Date.now();
    const body = await service.send('map/upload', key, { file_type: 'empty', visibility: 'public' });
    expect(body.error_code).toBe('service_unavailable');
    expect(body.error).toMatch(/job server/);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(await mapCount(service, key)).toBe(0);
    // Plain database operations still work, and /healthz says what is down.
    const health = await fetch(`${service.url}/healthz`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ database: 'ok', temporal: 'down' });
  });

  it('answers service_unavailable when no worker picks the job up, and the job never runs later', async () => {
    service = await startTestService({ worker: false, noWorkerAfterMs: 1_500 });
    const { key, userId } = await service.newUser();
    const body = await service.send('map/upload', key, { file_type: 'empty', visibility: 'public' }, undefined, {
      'idempotency-key': 'no-worker',
    });
    expect(body.error_code).toBe('service_unavailable');
    expect(body.error).toMatch(/worker/);
    expect(await mapCount(service, key)).toBe(0);
    // The job was ended, so a worker that comes back later cannot create the map after the error.
    const client = new Client({ connection: await Connection.connect({ address: inject('temporalAddress') }) });
    const description = await client.workflow.getHandle(`upload:${userId}:no-worker`).describe();
    expect(description.status.name).toBe('TERMINATED');
    await client.connection.close();
  });

  it('fails with processing_timeout when processing outlasts the limit, cancels the activity and changes nothing', async () => {
    let cancelled: unknown;
    // A parse that would take a minute, ended only by cancellation.
    const slowParse = (signal: AbortSignal) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, 60_000);
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          cancelled = signal.reason;
          reject(signal.reason);
        });
      });
    service = await startTestService({ config: { processingTimeoutMs: 1_000 }, faults: { beforeParse: slowParse } });
    const { key } = await service.newUser();
    const started = Date.now();
    const body = await service.send('map/upload', key, { file_type: 'geojson', visibility: 'public' }, JSON.stringify(featureCollection(5)));
    expect(body.error_code).toBe('processing_timeout');
    expect(body.error).toBe('Processing the file took longer than the limit of 1 second.');
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(await mapCount(service, key)).toBe(0);
    // The cancellation reached the activity through its heartbeats.
    await expect.poll(() => cancelled, { timeout: 10_000 }).toBeDefined();
  });
});
