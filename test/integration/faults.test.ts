import { Client, Connection } from '@temporalio/client';
import sharp from 'sharp';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../lib/freePort.js';
import { startTestService, featureCollection, type TestService } from './harness.js';

let service: TestService | undefined;
afterEach(async () => {
  await service?.stop();
  service = undefined;
});

/** A fault hook that would take a minute and ends only when the activity is cancelled (which it records). */
function untilCancelled() {
  const state = {
    cancelled: false,
    hook: (signal: AbortSignal) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, 60_000);
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          state.cancelled = true;
          reject(signal.reason);
        });
      }),
  };
  return state;
}

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
    // Plain database operations still work, and /readyz says what is down.
    const ready = await fetch(`${service.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ failed: ['temporal'], checks: { database: { status: 'ok' }, blob_store: { status: 'ok' } } });
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
    // A parse that would take a minute, ended only by the activity's stop. The limit leaves the
    // job time to reach its parse on a loaded machine (a job that starts after its deadline
    // passed does not parse at all).
    const slow = untilCancelled();
    service = await startTestService({ config: { processingTimeoutMs: 5_000 }, faults: { beforeParse: slow.hook } });
    const { key } = await service.newUser();
    const started = Date.now();
    const body = await service.send('map/upload', key, { file_type: 'geojson', visibility: 'public' }, JSON.stringify(featureCollection(5)));
    expect(body.error_code).toBe('processing_timeout');
    expect(body.error).toBe('Processing the file took longer than the limit of 5 seconds.');
    // Answered at the limit, not after the minute the parse would take (a margin for a loaded machine).
    expect(Date.now() - started).toBeLessThan(45_000);
    expect(await mapCount(service, key)).toBe(0);
    // The limit stopped the activity's parse.
    await expect.poll(() => slow.cancelled, { timeout: 10_000 }).toBe(true);
  });
});

describe('faults and limits of image and marker uploads', () => {
  // Noise: a few tens of kB, over the 1 kB limit below.
  const photo = () => sharp({ create: { width: 300, height: 200, channels: 3, background: '#000000', noise: { type: 'gaussian', mean: 128, sigma: 40 } } }).jpeg().toBuffer();
  const imageCount = async (s: TestService, userId: number) => Number((await s.db('images').where({ owner_id: userId }).count('* as n').first())!.n);

  it('fails with processing_timeout when processing outlasts the limit, cancels the activity and stores nothing', async () => {
    const slow = untilCancelled();
    service = await startTestService({ config: { processingTimeoutMs: 1_000 }, faults: { beforeMedia: slow.hook } });
    const { key, userId } = await service.newUser();
    const body = await service.send('image/upload', key, { file_type: 'jpg' }, await photo());
    expect(body).toEqual({ error: 'Processing the file took longer than the limit of 1 second.', error_code: 'processing_timeout' });
    await expect.poll(() => slow.cancelled, { timeout: 10_000 }).toBe(true);
    expect(await imageCount(service, userId)).toBe(0);
  });

  it('holds files to the upload limit, and an enterprise deployment to none', async () => {
    const file = await photo();
    service = await startTestService({ config: { maxUploadBytes: 1024 } });
    const small = await service.newUser();
    expect((await service.send('image/upload', small.key, { file_type: 'jpg' }, file)).error_code).toBe('file_too_large');
    expect((await service.send('marker/upload', small.key, { file_type: 'png' }, file)).error_code).toBe('file_too_large');
    await service.stop();
    // Enterprise: no size limit and no time limit (processing here takes longer than the standard one would allow in this test).
    const slow = () => new Promise<void>((resolve) => setTimeout(resolve, 1_500));
    service = await startTestService({ config: { maxUploadBytes: null, processingTimeoutMs: null }, faults: { beforeMedia: slow } });
    const { key } = await service.newUser();
    const answer = await service.send('image/upload', key, { file_type: 'jpg' }, file);
    expect(answer.error).toBeUndefined();
    expect(answer).toMatchObject({ width: 300, height: 200 });
  });
});
