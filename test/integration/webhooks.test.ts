// Webhooks (issue 28 item 3) through the whole service: endpoints registered with webhook/create
// receive signed deliveries from their Temporal workflows at a local receiver (the service runs
// with WEBHOOK_ALLOW_PRIVATE=true, as an operator allowing endpoints in their own network, and
// short retry times); a receiver answering 500 twice gets the delivery on the third attempt with
// the same event id; an endpoint failing for the whole retry time is switched off and its owner
// mailed; a service with the defaults refuses plain http and private addresses at creation.
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './harness.js';
import { loggedInAccount } from './webClient.js';

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let service: TestService;
let strict: TestService;
let receiver: http.Server;
let base: string;
const received: Received[] = [];
let flakyCalls = 0;
let owner: { key: string; userId: number; username: string };

beforeAll(async () => {
  receiver = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = request.url ?? '/';
      received.push({ path: url, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (url.startsWith('/flaky')) {
        flakyCalls++;
        response.writeHead(flakyCalls <= 2 ? 500 : 200).end('flaky');
      } else if (url.startsWith('/down')) {
        response.writeHead(500).end('down');
      } else {
        // A large answer: the service reads 64 kB of it and drops the rest.
        response.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(1024 * 1024));
      }
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  service = await startTestService({ config: { webhookAllowPrivate: true, webhookRetryFirstMs: 200, webhookRetryForMs: 4_000 } });
  strict = await startTestService({ worker: false });
  owner = await service.newUser();
});
afterAll(async () => {
  await service?.stop();
  await strict?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

const ok = async (op: string, body: unknown, key = owner.key) => {
  const answer = await service.call(op, key, body);
  expect(answer.error, JSON.stringify(answer)).toBeUndefined();
  return answer;
};

async function upload(title: string): Promise<number> {
  const features = [{ type: 'Feature', geometry: { type: 'Point', coordinates: [24.94, 60.17] }, properties: { title: 'Helsinki' } }];
  const answer = await service.send('map/upload', owner.key, { file_type: 'geojson', visibility: 'private', title }, JSON.stringify({ type: 'FeatureCollection', features }));
  expect(answer.error).toBeUndefined();
  return answer.id as number;
}

/** Waits (bounded) until `find` finds something. */
async function waitFor<T>(what: string, find: () => T | undefined | Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`no ${what} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const deliveriesTo = (prefix: string) => received.filter((r) => r.path === prefix);

/** Checks the Webhook-Signature header as a receiver does: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">. */
function verify(request: Received, secret: string): boolean {
  const header = String(request.headers['webhook-signature'] ?? '');
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  if (!match) return false;
  const expected = createHmac('sha256', secret).update(`${match[1]}.${request.body}`).digest('hex');
  return expected === match[2] && Math.abs(Date.now() / 1000 - Number(match[1])) < 300;
}

describe('webhook/create, list and delete', () => {
  it('answers the secret once, lists endpoints without it, deletes them', async () => {
    const map = await upload('Listed');
    const created = await ok('webhook/create', { map_id: map, url: `${base}/listed`, events: ['map.updated'] });
    expect(created.secret).toMatch(/^whsec_/);
    expect(created).toMatchObject({ map_id: map, url: `${base}/listed`, events: ['map.updated'], enabled: true });
    const list = await ok('webhook/list', {});
    const listed = (list.webhooks as Record<string, unknown>[]).find((hook) => hook.id === created.id);
    expect(listed).toMatchObject({ url: `${base}/listed`, deliveries: [] });
    expect(listed).not.toHaveProperty('secret');
    expect(await ok('webhook/delete', { id: created.id })).toEqual({ deleted: true });
    expect(await service.call('webhook/delete', owner.key, { id: created.id })).toMatchObject({ error_code: 'webhook_not_found' });
  });

  it('refuses another owner\'s map, unknown events and bad URLs with clear errors', async () => {
    const map = await upload('Mine');
    const other = await service.newUser();
    expect(await service.call('webhook/create', other.key, { map_id: map, url: `${base}/x`, events: ['map.updated'] })).toMatchObject({ error_code: expect.stringMatching(/^(map_not_found|permission_denied)$/) });
    expect(await service.call('webhook/create', owner.key, { url: `${base}/x`, events: ['map.exploded'] })).toMatchObject({ error_code: 'invalid_arguments' });
    expect(await service.call('webhook/create', owner.key, { url: `${base}/x`, events: [] })).toMatchObject({ error_code: 'invalid_arguments' });
    expect(await service.call('webhook/create', owner.key, { url: 'ftp://example.com/x', events: ['map.updated'] })).toMatchObject({ error_code: 'invalid_webhook_url' });
    expect(await service.call('webhook/create', owner.key, { url: 'not a url', events: ['map.updated'] })).toMatchObject({ error_code: 'invalid_webhook_url' });
    expect(await service.call('webhook/create', owner.key, { url: 'https://user:pw@example.com/x', events: ['map.updated'] })).toMatchObject({ error_code: 'invalid_webhook_url' });
  });

  it('without WEBHOOK_ALLOW_PRIVATE: plain http and private, loopback and link-local addresses are refused', async () => {
    const user = await strict.newUser();
    const create = (url: string) => strict.call('webhook/create', user.key, { url, events: ['map.updated'] });
    const http = await create('http://example.com/hooks');
    expect(http).toMatchObject({ error_code: 'invalid_webhook_url' });
    expect(http.error).toMatch(/HTTPS only/);
    for (const url of ['https://127.0.0.1/hooks', 'https://localhost/hooks', 'https://10.1.2.3/hooks', 'https://169.254.169.254/latest', 'https://[::1]/hooks', 'https://192.168.0.10:8443/hooks']) {
      const answer = await create(url);
      expect(answer, url).toMatchObject({ error_code: 'webhook_address_refused' });
      expect(answer.error).toMatch(/private, loopback or link-local/);
    }
    expect(((await strict.call('webhook/list', user.key, {})).webhooks as unknown[]).length).toBe(0);
  });
});

describe('deliveries', () => {
  it('feature/save → map.features_changed, signed, with the revision and the ids; each event its own id', async () => {
    const map = await upload('Saved');
    const hook = await ok('webhook/create', { map_id: map, url: `${base}/saved`, events: ['map.features_changed'] });
    const first = await ok('feature/save', { map_id: map, features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [25, 60] }, properties: { title: 'New' } }] });
    const second = await ok('feature/save', { map_id: map, delete: first.added_ids });
    const got = await waitFor('two deliveries', () => (deliveriesTo('/saved').length >= 2 ? deliveriesTo('/saved') : undefined));
    for (const request of got) {
      expect(verify(request, hook.secret as string)).toBe(true);
      expect(verify(request, 'whsec_wrong')).toBe(false);
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['webhook-event']).toBe('map.features_changed');
      expect(JSON.parse(request.body).id).toBe(request.headers['webhook-id']);
    }
    const bodies = got.map((request) => JSON.parse(request.body)).sort((a, b) => a.data.revision - b.data.revision);
    expect(bodies[0]).toMatchObject({ type: 'map.features_changed', data: { map_id: map, revision: first.revision, added_ids: first.added_ids, changed_ids: [], deleted_ids: [] } });
    expect(bodies[1]).toMatchObject({ data: { map_id: map, revision: second.revision, added_ids: [], deleted_ids: first.added_ids } });
    expect(new Set(bodies.map((body) => body.id)).size).toBe(2);
    // The owner sees them delivered with the receiver's status.
    const deliveries = await waitFor('delivered status', async () => {
      const list = await ok('webhook/list', {});
      const found = (list.webhooks as { id: number; deliveries: { status: string; response_code: number; attempts: number }[] }[]).find((h) => h.id === hook.id)!;
      return found.deliveries.length === 2 && found.deliveries.every((d) => d.status === 'delivered') ? found.deliveries : undefined;
    });
    expect(deliveries.map((d) => [d.response_code, d.attempts])).toEqual([
      [200, 1],
      [200, 1],
    ]);
  });

  it('map/update → map.updated naming the settings; an endpoint of all maps hears every map of its owner and no other', async () => {
    const map = await upload('Updated');
    const hook = await ok('webhook/create', { url: `${base}/all`, events: ['map.updated'] });
    const other = await service.newUser();
    const theirs = await service.send('map/upload', other.key, { file_type: 'geojson', visibility: 'private', title: 'Theirs' }, JSON.stringify({ type: 'FeatureCollection', features: [] }));
    await service.call('map/update', other.key, { map_id: theirs.id, title: 'Not for the hook' });
    await ok('map/update', { map_id: map, title: 'Renamed' });
    const request = await waitFor('map.updated', () => deliveriesTo('/all').find((r) => JSON.parse(r.body).data.map_id === map));
    expect(verify(request, hook.secret as string)).toBe(true);
    expect(JSON.parse(request.body)).toMatchObject({ type: 'map.updated', data: { map_id: map, settings: ['title'] } });
    expect(deliveriesTo('/all').some((r) => JSON.parse(r.body).data.map_id === theirs.id)).toBe(false);
    await ok('webhook/delete', { id: hook.id });
  });

  it('a rendered static image → map.image_refreshed', async () => {
    const hook = await ok('webhook/create', { url: `${base}/images`, events: ['map.image_refreshed'] });
    const map = await upload('Drawn'); // its first image is rendered after the upload
    const request = await waitFor('map.image_refreshed', () => deliveriesTo('/images').find((r) => JSON.parse(r.body).data.map_id === map), 60_000);
    expect(verify(request, hook.secret as string)).toBe(true);
    expect(JSON.parse(request.body)).toMatchObject({ type: 'map.image_refreshed', data: { map_id: map, rendered_at: expect.any(String) } });
    await ok('webhook/delete', { id: hook.id });
  });

  it('a receiver answering 500 twice gets the delivery on the third attempt, with the same event id each time', async () => {
    const map = await upload('Flaky');
    const hook = await ok('webhook/create', { map_id: map, url: `${base}/flaky`, events: ['map.updated'] });
    await ok('map/update', { map_id: map, description: 'Third time lucky' });
    const list = await waitFor('the delivery delivered', async () => {
      const answer = await ok('webhook/list', {});
      const found = (answer.webhooks as { id: number; deliveries: { status: string; attempts: number; response_code: number; event_id: string }[] }[]).find((h) => h.id === hook.id)!;
      return found.deliveries[0]?.status === 'delivered' ? found : undefined;
    });
    expect(list.deliveries[0]).toMatchObject({ attempts: 3, response_code: 200 });
    const attempts = deliveriesTo('/flaky');
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((r) => r.headers['webhook-id']))).toEqual(new Set([list.deliveries[0]!.event_id]));
    for (const request of attempts) expect(verify(request, hook.secret as string)).toBe(true);
  });

  it('an endpoint failing for the whole retry time is switched off and its owner mailed', async () => {
    const map = await upload('Down');
    const hook = await ok('webhook/create', { map_id: map, url: `${base}/down`, events: ['map.updated'] });
    await ok('map/update', { map_id: map, title: 'Nobody listens' });
    const found = await waitFor('the switch-off', async () => {
      const answer = await ok('webhook/list', {});
      const entry = (answer.webhooks as { id: number; enabled: boolean; failing_since: string | null; deliveries: { status: string; attempts: number; response_code: number; error: string }[] }[]).find((h) => h.id === hook.id)!;
      return entry.enabled ? undefined : entry;
    });
    expect(found.failing_since).not.toBeNull();
    expect(found.deliveries[0]).toMatchObject({ status: 'failed', response_code: 500, error: 'The endpoint answered HTTP 500.' });
    expect(found.deliveries[0]!.attempts).toBeGreaterThan(1);
    const outbox = path.join(service.config.dataDir, 'outbox');
    const mail = await waitFor('the e-mail', () => {
      const files = fs.existsSync(outbox) ? fs.readdirSync(outbox) : [];
      // The body is quoted-printable: soft line breaks joined, =XX decoded.
      const texts = files.map((file) => fs.readFileSync(path.join(outbox, file), 'utf8').replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))));
      return texts.find((text) => text.includes(`${base}/down`));
    });
    expect(mail).toMatch(/switched off/);
    expect(mail).toContain(`To: ${owner.username}@example.com`);
    // Switched off: later events are not sent to it.
    const before = deliveriesTo('/down').length;
    await ok('map/update', { map_id: map, title: 'Still nobody' });
    await ok('webhook/create', { map_id: map, url: `${base}/ok-after`, events: ['map.updated'] });
    await ok('map/update', { map_id: map, title: 'Somebody' });
    await waitFor('the other endpoint\'s delivery', () => deliveriesTo('/ok-after')[0]);
    expect(deliveriesTo('/down').length).toBe(before);
  });

  it('a map deleted from its page → map.deleted to its endpoint and to its owner\'s all-maps endpoint', async () => {
    const me = await loggedInAccount(service);
    const features = JSON.stringify({ type: 'FeatureCollection', features: [] });
    const map = (await service.send('map/upload', me.key, { file_type: 'geojson', visibility: 'private', title: 'Doomed' }, features)).id as number;
    const own = await service.call('webhook/create', me.key, { map_id: map, url: `${base}/deleted-own`, events: ['map.deleted'] });
    const all = await service.call('webhook/create', me.key, { url: `${base}/deleted-all`, events: ['map.deleted'] });
    const deleted = await me.browser.submit(`/maps/${map}/delete`, `/maps/${map}/delete`, {});
    expect(deleted.status).toBe(303);
    for (const [prefix, hook] of [['/deleted-own', own], ['/deleted-all', all]] as const) {
      const request = await waitFor(`map.deleted at ${prefix}`, () => deliveriesTo(prefix)[0]);
      expect(verify(request, hook.secret as string)).toBe(true);
      expect(JSON.parse(request.body)).toMatchObject({ type: 'map.deleted', data: { map_id: map } });
    }
  });

  it('the Settings page lists endpoints with their last deliveries, adds one (secret shown once) and deletes one', async () => {
    const me = await loggedInAccount(service, { formToken: true });
    const features = JSON.stringify({ type: 'FeatureCollection', features: [] });
    const map = (await service.send('map/upload', me.key, { file_type: 'geojson', visibility: 'private', title: 'Settings' }, features)).id as number;
    const added = await me.browser.submit('/settings', '/settings/webhooks', { webhook_url: `${base}/settings-page`, webhook_map: String(map), events: 'map.updated' });
    expect(added.status).toBe(200);
    const secret = /<code>(whsec_[A-Za-z0-9_-]+)<\/code>/.exec(added.html)?.[1];
    expect(secret).toBeDefined();
    await service.call('map/update', me.key, { map_id: map, title: 'Seen in Settings' });
    const request = await waitFor('the delivery', () => deliveriesTo('/settings-page')[0]);
    expect(verify(request, secret!)).toBe(true);
    const page = await waitFor('the delivery listed', async () => {
      const html = (await me.browser.request('/settings')).html;
      return html.includes('HTTP 200') ? html : undefined;
    });
    expect(page).toContain(`${base}/settings-page`);
    expect(page).toContain('map.updated');
    expect(page).not.toContain(secret!);
    const refused = await me.browser.submit('/settings', '/settings/webhooks', { webhook_url: 'ftp://example.com/x', webhook_map: '', events: 'map.updated' });
    expect(refused.html).toContain('HTTPS only');
    const id = ((await service.call('webhook/list', me.key, {})).webhooks as { id: number }[])[0]!.id;
    const deleted = await me.browser.submit('/settings', '/settings/webhooks/delete', { id: String(id) });
    expect(deleted.html).toContain('The endpoint is deleted.');
    expect(((await service.call('webhook/list', me.key, {})).webhooks as unknown[]).length).toBe(0);
  });
});
