// Webhook deliveries across a worker's death (issue 28, "Measured when resolved"): the API and
// worker as separate processes (test/support/deployment.ts) with WEBHOOK_ALLOW_PRIVATE=true and a
// 1 s first retry, a local receiver. Deliveries failing and waiting for their retry, one attempt
// in flight (the receiver holding its answer), and events made while no worker runs: the worker
// is killed (kill -9), a new one starts, and the receiver gets exactly one successful delivery of
// each event id, each delivery's record `delivered` with its attempts, each workflow completed.
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { waitFor } from '../../lib/waitFor.js';
import { webhookDeliveryWorkflowId } from '../../lib/jobContracts.js';
import { callApi, sendFile } from '../support/apiRequests.js';
import { postgresBinDir } from '../support/privatePostgres.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.js';
import { workersPerTest } from '../support/workersPerTest.js';

type DeliveryRow = { id: string; event_id: string; status: string; attempts: number; response_code: number | null };

describe.skipIf(!postgresBinDir())('webhook deliveries across a worker restart', () => {
  const run = workersPerTest({ env: { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_FIRST: '1s', WEBHOOK_RETRY_FOR: '30m' } });
  let receiver: WebhookReceiver;
  /** What the receiver answers: 503 while failing, 200 once it is fine. */
  let failing = true;
  /** Set: the next delivery is held until the promise given to `release` settles (an attempt in flight). */
  let hold: { held: () => void; answer: Promise<number> } | undefined;
  let release: (status: number) => void = () => undefined;

  beforeAll(async () => {
    receiver = await startWebhookReceiver({
      answer: () => {
        if (hold) {
          const { held, answer } = hold;
          hold = undefined;
          held();
          return answer;
        }
        return failing ? 503 : 200;
      },
    });
  });
  afterAll(async () => {
    release(503);
    await receiver?.close();
  });

  const deliveries = async (): Promise<DeliveryRow[]> => run.deployment.db('webhook_deliveries').orderBy('id').select('id', 'event_id', 'status', 'attempts', 'response_code');

  it('deliveries retrying, one in flight and some not yet started when the worker is killed: a new worker delivers each event once', async () => {
    onTestFailed(() => console.error(run.deployment.output()));
    const { key } = await run.deployment.newUser();
    const doomed = await run.startWorker('worker (killed)');
    const map = await sendFile(run.api.url, 'map/upload', key, { file_type: 'empty', visibility: 'private', title: 'Watched' });
    expect(map.error).toBeUndefined();
    const hook = await callApi(run.api.url, 'webhook/create', key, { map_id: map.id, url: `${receiver.base}/hook`, events: ['map.features_changed'] });
    expect(hook.error).toBeUndefined();
    const save = async (title: string) => {
      const answer = await callApi(run.api.url, 'feature/save', key, { map_id: map.id, features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [25, 60] }, properties: { title } }] });
      expect(answer.error).toBeUndefined();
    };

    // Three events, each failed once (503) and waiting for its retry.
    for (const title of ['one', 'two', 'three']) await save(title);
    await waitFor('a failed attempt of each of the three events', async () => new Set(receiver.received.map((r) => r.id)).size === 3, 60_000);
    // The next attempt is held by the receiver: the worker dies with it in flight.
    const inFlight = new Promise<void>((held) => {
      hold = { held, answer: new Promise<number>((resolve) => (release = resolve)) };
    });
    await inFlight;
    expect(await doomed.child.kill()).toEqual({ code: null, signal: 'SIGKILL' });
    release(503); // its socket is gone with the worker: nobody reads this answer
    // Two more events while no worker runs: recorded, their workflows waiting on the task queue.
    for (const title of ['four', 'five']) await save(title);
    // Recorded in the background after each save's answer.
    await waitFor('the five deliveries recorded', async () => (await deliveries()).length === 5, 30_000);
    const waiting = await deliveries();
    expect(waiting.slice(3).map((d) => [d.status, d.attempts])).toEqual([
      ['pending', 0],
      ['pending', 0],
    ]);
    expect(waiting.slice(0, 3).every((d) => d.status === 'retrying' && d.attempts >= 1)).toBe(true);

    failing = false;
    await run.startWorker('worker (takes over)');
    // The attempt in flight is retried once its start-to-close timeout (30 s) tells the server the worker is gone.
    await waitFor('every delivery delivered', async () => (await deliveries()).every((d) => d.status === 'delivered'), 180_000);

    const rows = await deliveries();
    const successes = receiver.successesById();
    expect([...successes.keys()].sort()).toEqual(rows.map((d) => d.event_id).sort());
    expect([...successes.values()]).toEqual([1, 1, 1, 1, 1]);
    for (const row of rows) expect(row.response_code).toBe(200);
    expect(rows.slice(0, 3).every((d) => d.attempts >= 2)).toBe(true); // failed before the kill, then 200
    expect(rows.slice(3).map((d) => d.attempts)).toEqual([1, 1]);
    // One workflow per delivery, each ending delivered (the row is written by its activity, just before the workflow ends).
    for (const row of rows) expect(await run.deployment.client.workflow.getHandle(webhookDeliveryWorkflowId(Number(row.id))).result()).toEqual({ delivered: true });
  });
});
