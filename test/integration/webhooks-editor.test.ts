// map.features_changed from the web editor's other writes (issue 28 item 3): restoring a version
// in the History and importing a file through the editor's Import send the event the editor's
// save sends, with the revision they made and the ids added, changed and deleted, to a local
// receiver (WEBHOOK_ALLOW_PRIVATE=true, as in webhooks.test.ts); so does map/append, once also
// when the same request is sent again with its Idempotency-Key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.js';
import { verifyWebhook } from '../support/webhookVerification.js';
import { startTestService, type TestService } from './harness.js';
import { loggedInAccount, type Browser } from './webClient.js';

type Answer = Record<string, unknown>;

let service: TestService;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver({});
  service = await startTestService({ config: { webhookAllowPrivate: true, webhookRetryFirstMs: 200, webhookRetryForMs: 30_000 } });
});
afterAll(async () => {
  await service?.stop();
  await receiver?.close();
});

const point = (lon: number, lat: number, title: string) => ({ type: 'Feature', geometry: { type: 'Point', coordinates: [lon, lat] }, properties: { title } });

/** Posts JSON from the map's page, as the editor does (the form token in X-CSRF-Token). */
async function editorPost(browser: Browser, path: string, init: { json?: unknown; multipart?: FormData } = {}): Promise<Answer> {
  const response = await browser.request(path, { method: 'POST', ...init, headers: { 'x-csrf-token': browser.cookie('mps_csrf') ?? '' } });
  const answer = JSON.parse(response.html) as Answer;
  expect([response.status, answer.error]).toEqual([200, undefined]);
  return answer;
}

/** The bodies of the deliveries to `path`, once there are `count` of them (bounded wait), oldest revision first. */
async function eventsAt(path: string, count: number): Promise<{ id: string; type: string; data: Answer }[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const got = receiver.received.filter((r) => r.path === path);
    if (got.length >= count) return got.map((r) => JSON.parse(r.body)).sort((a, b) => a.data.revision - b.data.revision);
    if (Date.now() > deadline) throw new Error(`${got.length} of ${count} deliveries at ${path}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function mapWithHook(key: string, path: string): Promise<{ mapId: number; secret: string }> {
  const features = [{ ...point(1, 1, 'One'), id: 1 }, { ...point(2, 2, 'Two'), id: 2 }];
  const upload = await service.send('map/upload', key, { file_type: 'geojson', visibility: 'private', title: 'Edited' }, JSON.stringify({ type: 'FeatureCollection', features }));
  expect(upload.error).toBeUndefined();
  const hook = await service.call('webhook/create', key, { map_id: upload.id, url: `${receiver.base}${path}`, events: ['map.features_changed'] });
  expect(hook.error).toBeUndefined();
  return { mapId: upload.id as number, secret: hook.secret as string };
}

describe('map.features_changed from the editor\'s History and Import', () => {
  it('restoring a version sends the revision and the ids it added, changed and deleted', async () => {
    const me = await loggedInAccount(service, { formToken: true });
    const { mapId, secret } = await mapWithHook(me.key, '/restore');
    // One changed, one deleted, one added since the first version.
    const saved = await service.call('feature/save', me.key, { map_id: mapId, features: [{ ...point(1.5, 1.5, 'One, moved'), id: 1 }, point(3, 3, 'Three')], delete: [2] });
    expect(saved.error).toBeUndefined();
    const versions = (JSON.parse((await me.browser.request(`/maps/${mapId}/versions`)).html) as { versions: { id: number; kind: string }[] }).versions;
    const first = versions.find((v) => v.kind === 'create')!;
    const restored = await editorPost(me.browser, `/maps/${mapId}/versions/${first.id}/restore`);
    expect(restored).toMatchObject({ restored: true, added: 1, changed: 1, deleted: 1 });

    const [fromSave, fromRestore] = await eventsAt('/restore', 2);
    expect(fromSave!.data).toMatchObject({ revision: saved.revision });
    expect(fromRestore).toMatchObject({
      type: 'map.features_changed',
      data: { map_id: mapId, revision: restored.revision, added_ids: [2], changed_ids: [1], deleted_ids: saved.added_ids },
    });
    const delivery = receiver.received.find((r) => JSON.parse(r.body).data.revision === restored.revision && r.path === '/restore')!;
    expect(verifyWebhook(secret, delivery.headers['webhook-signature'] as string, delivery.body)).toBe(true);
  });

  it('importing a file sends the revision and the ids of the items it added', async () => {
    const me = await loggedInAccount(service, { formToken: true });
    const { mapId, secret } = await mapWithHook(me.key, '/import');
    const form = new FormData();
    form.append('file', new Blob([JSON.stringify({ type: 'FeatureCollection', features: [point(5, 5, 'Five'), point(6, 6, 'Six')] })]), 'more.geojson');
    const imported = await editorPost(me.browser, `/maps/${mapId}/import`, { multipart: form });
    expect(imported).toMatchObject({ import: { features: 2 } });

    const doc = (await service.call('map/get', me.key, { map_id: mapId })).geojson as { features: { id: number; properties: { title: string } }[] };
    const newIds = doc.features.filter((f) => ['Five', 'Six'].includes(f.properties.title)).map((f) => f.id);
    expect(newIds).toHaveLength(2);
    const revision = Number((await service.db('maps').where({ id: mapId }).first('revision')).revision);
    const [event] = await eventsAt('/import', 1);
    expect(event).toMatchObject({ type: 'map.features_changed', data: { map_id: mapId, revision, added_ids: newIds.sort((a, b) => a - b), changed_ids: [], deleted_ids: [] } });
    const delivery = receiver.received.find((r) => r.path === '/import')!;
    expect(verifyWebhook(secret, delivery.headers['webhook-signature'] as string, delivery.body)).toBe(true);
  });

  it('map/append sends it too, once when the same request is sent again with its Idempotency-Key', async () => {
    const me = await loggedInAccount(service, { formToken: true });
    const { mapId } = await mapWithHook(me.key, '/append');
    const file = JSON.stringify({ type: 'FeatureCollection', features: [point(7, 7, 'Seven')] });
    const headers = { 'idempotency-key': `append-${mapId}` };
    const first = await service.send('map/append', me.key, { map_id: mapId, file_type: 'geojson' }, file, headers);
    expect(first.error).toBeUndefined();
    const again = await service.send('map/append', me.key, { map_id: mapId, file_type: 'geojson' }, file, headers);
    expect(again).toEqual(first);
    // A later change's event: the second answer's event was recorded (or not) before it.
    const saved = await service.call('feature/save', me.key, { map_id: mapId, delete: [1] });
    expect(saved.error).toBeUndefined();
    const [appended, deleted] = await eventsAt('/append', 2);
    expect(deleted!.data).toMatchObject({ revision: saved.revision, deleted_ids: [1] });
    const doc = (await service.call('map/get', me.key, { map_id: mapId })).geojson as { features: { id: number; properties: { title: string } }[] };
    const seven = doc.features.find((f) => f.properties.title === 'Seven')!;
    expect(appended).toMatchObject({ type: 'map.features_changed', data: { map_id: mapId, revision: saved.revision - 1, added_ids: [seven.id], changed_ids: [], deleted_ids: [] } });
    expect(receiver.received.filter((r) => r.path === '/append')).toHaveLength(2);
    const recorded = await service.db('webhook_deliveries').where({ event_id: appended!.id }).count('* as n').first();
    expect(Number(recorded!.n)).toBe(1);
  });
});
