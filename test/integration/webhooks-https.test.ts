// Webhooks over HTTPS (issue 28 item 3): local HTTPS receivers with certificates of a CA made in
// the test (openssl), the service trusting that CA through WEBHOOK_CA_FILE as an operator trusts
// their own network's CA. The receiver checks each delivery with the recipe of docs/api.md
// (test/support/webhookVerification.ts) and answers 401 when it fails: deliveries pass it; a
// captured delivery replayed later, or with its timestamp or body changed, does not. An endpoint
// whose certificate no trusted CA signed gets nothing. A receiver down (connections refused) for
// several retries gets the delivery once when it is back, the record showing the failed attempts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config.js';
import { makeTestCertificates } from '../support/testCertificates.js';
import { verifyWebhook } from '../support/webhookVerification.js';
import { startWebhookReceiver, type ReceivedDelivery, type WebhookReceiver } from '../support/webhookReceiver.js';
import { startTestService, type TestService } from './harness.js';

type Delivery = { status: string; attempts: number; response_code: number | null; error: string | null; event_id: string };
type Hook = { id: number; enabled: boolean; deliveries: Delivery[] };

const certificates = makeTestCertificates('Operator CA');
const stranger = makeTestCertificates('Nobody trusts this CA');
/** The secret of each endpoint, by the path of its URL. */
const secrets = new Map<string, string>();
/** The receiver's clock, moved on by the replay test. */
let receiverClockOffsetSeconds = 0;
/** The receiver's check: the docs' recipe with its secret and its clock; 401 when it fails. */
const answerVerified = (request: Omit<ReceivedDelivery, 'status'>) =>
  verifyWebhook(secrets.get(request.path) ?? '', request.headers['webhook-signature'] as string | undefined, request.body, Date.now() / 1000 + receiverClockOffsetSeconds) ? 200 : 401;

let service: TestService;
let trusted: WebhookReceiver;
let untrusted: WebhookReceiver;
let owner: { key: string };
let caDir: string;
/** The replays' connections, trusting the test CA. */
const replayAgent = new Agent({ connect: { ca: certificates.caPem } });

beforeAll(async () => {
  caDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mps-ca-'));
  const caFile = path.join(caDir, 'operator-ca.pem');
  fs.writeFileSync(caFile, certificates.caPem);
  trusted = await startWebhookReceiver({ tls: { cert: certificates.certPem, key: certificates.keyPem }, answer: answerVerified });
  untrusted = await startWebhookReceiver({ tls: { cert: stranger.certPem, key: stranger.keyPem }, answer: answerVerified });
  // As an operator configures it: WEBHOOK_CA_FILE names the PEM file, read and checked at start.
  const { webhookCa } = loadConfig({ WEBHOOK_CA_FILE: caFile, DATA_DIR: caDir });
  service = await startTestService({ config: { webhookAllowPrivate: true, webhookRetryFirstMs: 250, webhookRetryForMs: 120_000, webhookCa } });
  owner = await service.newUser();
});
afterAll(async () => {
  await service?.stop();
  await trusted?.close();
  await untrusted?.close();
  if (caDir) fs.rmSync(caDir, { recursive: true, force: true });
  await replayAgent.close();
});

const ok = async (op: string, body: unknown) => {
  const answer = await service.call(op, owner.key, body);
  expect(answer.error, JSON.stringify(answer)).toBeUndefined();
  return answer;
};

async function newMap(title: string): Promise<number> {
  const features = [{ type: 'Feature', geometry: { type: 'Point', coordinates: [24.94, 60.17] }, properties: { title: 'Helsinki' } }];
  const answer = await service.send('map/upload', owner.key, { file_type: 'geojson', visibility: 'private', title }, JSON.stringify({ type: 'FeatureCollection', features }));
  expect(answer.error).toBeUndefined();
  return answer.id as number;
}

async function register(receiver: WebhookReceiver, urlPath: string, mapId: number, events: string[]): Promise<number> {
  const hook = await ok('webhook/create', { map_id: mapId, url: `${receiver.base}${urlPath}`, events });
  secrets.set(urlPath, hook.secret as string);
  return hook.id as number;
}

/** Waits (bounded) until the endpoint's newest delivery meets `done`. */
async function deliveryOf(hookId: number, done: (delivery: Delivery) => boolean, timeoutMs = 60_000): Promise<Delivery> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const hooks = (await ok('webhook/list', {})).webhooks as Hook[];
    const delivery = hooks.find((hook) => hook.id === hookId)?.deliveries[0];
    if (delivery && done(delivery)) return delivery;
    if (Date.now() > deadline) throw new Error(`the delivery of endpoint ${hookId} is still ${JSON.stringify(delivery)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Sends a delivery to the receiver again, as an attacker who captured it would (trusting the test CA). */
const replay = async (captured: ReceivedDelivery, change: { signature?: string; body?: string } = {}): Promise<number> => {
  const response = await undiciFetch(`${trusted.base}${captured.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'webhook-id': captured.id, 'webhook-signature': change.signature ?? String(captured.headers['webhook-signature']) },
    body: change.body ?? captured.body,
    dispatcher: replayAgent,
  });
  await response.arrayBuffer();
  return response.status;
};

describe('webhooks over HTTPS', () => {
  it('an endpoint whose certificate the operator\'s CA signed (WEBHOOK_CA_FILE) gets signed deliveries that pass the documented check', async () => {
    const map = await newMap('Over HTTPS');
    const hookId = await register(trusted, '/https', map, ['map.features_changed']);
    const saved = await ok('feature/save', { map_id: map, features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [25, 60] }, properties: { title: 'New' } }] });
    const delivery = await deliveryOf(hookId, (d) => d.status === 'delivered' || d.attempts >= 3);
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 1, response_code: 200, error: null });
    const got = trusted.received.filter((r) => r.path === '/https');
    expect(got.map((r) => r.status)).toEqual([200]); // 200: the receiver's check passed (401 otherwise)
    expect(JSON.parse(got[0]!.body)).toMatchObject({ type: 'map.features_changed', data: { map_id: map, revision: saved.revision, added_ids: saved.added_ids } });
  });

  it('an endpoint whose certificate no trusted CA signed gets nothing; the delivery records the certificate error', async () => {
    const map = await newMap('Untrusted');
    const hookId = await register(untrusted, '/untrusted', map, ['map.updated']);
    await ok('map/update', { map_id: map, title: 'Not for strangers' });
    const delivery = await deliveryOf(hookId, (d) => d.attempts >= 1);
    expect(delivery.status).toBe('retrying');
    expect(delivery.response_code).toBeNull();
    expect(delivery.error).toMatch(/could not be reached: .*certificate/i);
    expect(untrusted.received).toEqual([]);
    await ok('webhook/delete', { id: hookId });
  });

  it('the documented check refuses a captured delivery replayed 6 minutes later, or with its timestamp or body changed', async () => {
    const map = await newMap('Replayed');
    const hookId = await register(trusted, '/replayed', map, ['map.updated']);
    await ok('map/update', { map_id: map, title: 'Captured on the way' });
    await deliveryOf(hookId, (d) => d.status === 'delivered');
    const delivery = trusted.received.find((r) => r.path === '/replayed' && r.status === 200)!;
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(delivery.headers['webhook-signature']))!;
    try {
      // Within the window the same bytes still pass (the receiver de-duplicates by Webhook-Id).
      receiverClockOffsetSeconds = 4 * 60;
      expect(await replay(delivery)).toBe(200);
      // Replayed later: outside the 5-minute window.
      receiverClockOffsetSeconds = 6 * 60;
      expect(await replay(delivery)).toBe(401);
      // The timestamp moved to the receiver's now, the signature kept: the HMAC covers t.
      const now = Math.floor(Date.now() / 1000 + receiverClockOffsetSeconds);
      expect(await replay(delivery, { signature: `t=${now},v1=${v1}` })).toBe(401);
      // The body changed under a fresh-looking signature.
      receiverClockOffsetSeconds = 0;
      const changedBody = delivery.body.replace('"map.updated"', '"map.deleted"');
      expect(changedBody).not.toBe(delivery.body);
      expect(await replay(delivery, { body: changedBody })).toBe(401);
      expect(await replay(delivery, { signature: `t=${t},v1=${'0'.repeat(64)}` })).toBe(401);
    } finally {
      receiverClockOffsetSeconds = 0;
    }
  });

  it('a receiver down (connections refused) for several retries gets the delivery once when back; the record shows the failed attempts, then 200', async () => {
    const map = await newMap('Down a while');
    const hookId = await register(trusted, '/down-a-while', map, ['map.updated']);
    await trusted.down();
    try {
      await ok('map/update', { map_id: map, title: 'Sent while down' });
      const failing = await deliveryOf(hookId, (d) => d.attempts >= 4);
      expect(failing).toMatchObject({ status: 'retrying', response_code: null });
      expect(failing.error).toMatch(/could not be reached: .*ECONNREFUSED/);
    } finally {
      await trusted.up();
    }
    const delivered = await deliveryOf(hookId, (d) => d.status === 'delivered');
    expect(delivered.attempts).toBeGreaterThanOrEqual(5);
    expect(delivered).toMatchObject({ response_code: 200, error: null });
    const got = trusted.received.filter((r) => r.path === '/down-a-while');
    expect(got.map((r) => [r.id, r.status])).toEqual([[delivered.event_id, 200]]);
  });
});
