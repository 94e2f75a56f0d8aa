// Webhook delivery latency (issue 28, "Measured when resolved"): from sending a feature/save to
// the receiver answering 200 to its map.features_changed delivery, through the embedded service
// (`npm start`'s shape: API, worker and Temporal dev server in one process) on PostgreSQL, to
// local receivers over HTTP and over HTTPS (a CA made with openssl, trusted by WEBHOOK_CA_FILE).
// One save at a time, each waiting for its delivery (the latency of one change, not a load
// test); then 20 saves sent at once. No reference tool: the numbers are the issue's.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { makeTestCertificates } from '../test/support/testCertificates.js';
import { startWebhookReceiver, type WebhookReceiver } from '../test/support/webhookReceiver.js';
import { startBenchService } from './service.js';
import { percentile } from './stats.js';

const SEQUENTIAL = Number(process.env.WEBHOOK_BENCH_SAVES ?? 200);
const BURST = 20;
const WARM_UP = 5;

export async function benchWebhooks() {
  const certificates = makeTestCertificates('Bench CA');
  const caDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mps-bench-ca-'));
  fs.writeFileSync(path.join(caDir, 'ca.pem'), certificates.caPem);
  /** When each delivery reached the receiver, by "<map id>:<revision>". */
  const arrived = new Map<string, number>();
  const waiters = new Map<string, () => void>();
  const answer = (request: { body: string }) => {
    const { data } = JSON.parse(request.body) as { data: { map_id: number; revision: number } };
    const key = `${data.map_id}:${data.revision}`;
    arrived.set(key, performance.now());
    waiters.get(key)?.();
    return 200;
  };
  const receivers: Record<string, WebhookReceiver> = {
    http: await startWebhookReceiver({ answer }),
    https: await startWebhookReceiver({ answer, tls: { cert: certificates.certPem, key: certificates.keyPem } }),
  };
  const service = await startBenchService('pg', { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_CA_FILE: path.join(caDir, 'ca.pem') });
  const call = async (op: string, body: unknown) => {
    const response = await fetch(`${service.base}/api/1/${op}`, {
      method: 'POST',
      headers: { authorization: `Token ${service.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const result = (await response.json()) as Record<string, unknown>;
    if (result.error) throw new Error(`${op}: ${String(result.error)}`);
    return result;
  };
  const delivered = (key: string) =>
    new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no delivery of ${key} within 60 s`)), 60_000);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(key);
        resolve(arrived.get(key)!);
      };
      if (arrived.has(key)) done();
      else waiters.set(key, done);
    });
  /** One save of a point; resolves with the milliseconds from sending it to the receiver's 200. */
  const saveAndWait = async (mapId: number, i: number) => {
    const started = performance.now();
    const saved = await call('feature/save', { map_id: mapId, features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [24 + (i % 100) * 0.01, 60] }, properties: { title: `Point ${i}` } }] });
    const answeredMs = performance.now() - started;
    const at = await delivered(`${mapId}:${saved.revision as number}`);
    return { totalMs: at - started, answeredMs };
  };
  const stats = (samples: number[]) => ({ p50_ms: Math.round(percentile(samples, 0.5)), p99_ms: Math.round(percentile(samples, 0.99)), max_ms: Math.round(Math.max(...samples)) });
  try {
    const rows: Record<string, unknown>[] = [];
    for (const [scheme, receiver] of Object.entries(receivers)) {
      const mapId = (await service.send('map/upload', { file_type: 'empty', visibility: 'private', title: `Webhooks ${scheme}` })).id as number;
      await call('webhook/create', { map_id: mapId, url: `${receiver.base}/bench`, events: ['map.features_changed'] });
      for (let i = 0; i < WARM_UP; i += 1) await saveAndWait(mapId, i);
      const one: number[] = [];
      const answered: number[] = [];
      for (let i = 0; i < SEQUENTIAL; i += 1) {
        const { totalMs, answeredMs } = await saveAndWait(mapId, i);
        one.push(totalMs);
        answered.push(answeredMs);
      }
      rows.push({ receiver: scheme, case: `${SEQUENTIAL} saves one at a time`, ...stats(one), save_answer_p50_ms: Math.round(percentile(answered, 0.5)) });
      // Saves on one map are taken one after another (the map's lock); their deliveries run side by side.
      const burst = await Promise.all(Array.from({ length: BURST }, (_, i) => saveAndWait(mapId, i)));
      rows.push({ receiver: scheme, case: `${BURST} saves sent at once`, ...stats(burst.map((b) => b.totalMs)) });
    }
    return { rows };
  } finally {
    await service.stop();
    for (const receiver of Object.values(receivers)) await receiver.close();
    fs.rmSync(caDir, { recursive: true, force: true });
  }
}
