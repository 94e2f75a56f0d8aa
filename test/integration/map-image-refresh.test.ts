// A map's static image through the whole service: rendered after map/upload (the upload does not
// wait for it), on map/refresh_image at most once per cool-down (short here) with the calls of a
// cool-down coalesced into one render at its end, never after map/update; errors before the
// spacing; commercial basemaps through a real local tile server; continue-as-new.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, Connection } from '@temporalio/client';
import sharp, { type OutputInfo } from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { saveProviderKey } from '../../db/providerKeys.js';
import { mapImageWorkflowId } from '../../lib/jobContracts.js';
import { startTestService, type TestService } from './harness.js';

const SPACING_MS = 4_000;
const GOOD_KEY = 'good-key-0123456789';
const REFUSED_KEY = 'refused-key-0123456789';

let service: TestService;
let connection: Connection;
let client: Client;
let tileServer: http.Server;
let tileRequests = 0;
let owner: { key: string; username: string; userId: number };

/** A tile server: a plain orange PNG for the good key, 403 for any other. */
async function startTileServer(): Promise<string> {
  const tile = await sharp({ create: { width: 256, height: 256, channels: 3, background: '#ff8800' } }).png().toBuffer();
  tileServer = http.createServer((request, response) => {
    tileRequests++;
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.searchParams.get('apikey') !== GOOD_KEY) return void response.writeHead(403).end('forbidden');
    response.writeHead(200, { 'content-type': 'image/png' }).end(tile);
  });
  await new Promise<void>((resolve) => tileServer.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(tileServer.address() as AddressInfo).port}/{z}/{x}/{y}.png?apikey={key}`;
}

beforeAll(async () => {
  const urlOverride = await startTileServer();
  service = await startTestService({ config: { imageRefreshSpacingMs: SPACING_MS }, tiles: { urlOverride, timeoutMs: 2_000 } });
  owner = await service.newUser();
  connection = await Connection.connect({ address: inject('temporalAddress') });
  client = new Client({ connection, namespace: service.config.temporalNamespace });
});
afterAll(async () => {
  await connection?.close();
  await service?.stop();
  await new Promise((resolve) => tileServer?.close(resolve));
});

const renderedAt = async (mapId: number): Promise<string | null> => {
  const row = await service.db('maps').where({ id: mapId }).first('image_files');
  const files = typeof row.image_files === 'string' ? JSON.parse(row.image_files) : row.image_files;
  return files?.renderedAt ?? null;
};

async function waitForRender(mapId: number, after: string | null, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const at = await renderedAt(mapId);
    if (at !== null && at !== after) return at;
    if (Date.now() > deadline) throw new Error(`map ${mapId} was not rendered within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** How many renders the map's current map-image run has scheduled. */
async function rendersScheduled(mapId: number): Promise<number> {
  const history = await client.workflow.getHandle(mapImageWorkflowId(mapId)).fetchHistory();
  return (history.events ?? []).filter((event) => event.activityTaskScheduledEventAttributes?.activityType?.name === 'renderMapImage').length;
}

const picture = async (mapPath: string, name: 'static' | 'thumbnail', key = owner.key) => {
  const response = await fetch(`${service.url}${mapPath}/${name}.png`, { headers: { authorization: `Token ${key}` } });
  expect(response.status).toBe(200);
  const png = Buffer.from(await response.arrayBuffer());
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  return { png, info, etag: response.headers.get('etag'), data };
};

/** How many pixels are within a small distance of the colour. */
function pixelsOf(image: { data: Buffer; info: OutputInfo }, [r, g, b]: [number, number, number]): number {
  let count = 0;
  for (let i = 0; i < image.data.length; i += image.info.channels) {
    if (Math.abs(image.data[i]! - r) + Math.abs(image.data[i + 1]! - g) + Math.abs(image.data[i + 2]! - b) < 24) count++;
  }
  return count;
}

const geojson = (color: string, count = 3) => ({
  type: 'FeatureCollection',
  features: [
    ...Array.from({ length: count }, (_, i) => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [2.3 + i * 0.05, 48.85] },
      properties: { title: `Stop ${i}`, color, 'marker-symbol': 'cafe' },
    })),
    { type: 'Feature', geometry: { type: 'LineString', coordinates: [[2.25, 48.8], [2.45, 48.9]] }, properties: { color, 'stroke-width': 6 } },
  ],
});

const upload = async (content: unknown, extra: Record<string, unknown> = {}) => {
  const answer = await service.send('map/upload', owner.key, { file_type: 'geojson', visibility: 'public', ...extra }, JSON.stringify(content));
  expect(answer.error).toBeUndefined();
  return { id: answer.id as number, path: new URL(answer.url as string).pathname };
};

describe('map/refresh_image', () => {
  it('renders a new map after map/upload, which answers before the image exists', async () => {
    const { id, path } = await upload(geojson('#e01010'));
    await waitForRender(id, null);
    const image = await picture(path, 'static');
    expect([image.info.width, image.info.height]).toEqual([1200, 630]);
    expect(pixelsOf(image, [0xe0, 0x10, 0x10])).toBeGreaterThan(500);
    const thumbnail = await picture(path, 'thumbnail');
    expect([thumbnail.info.width, thumbnail.info.height]).toEqual([400, 300]);
    expect(pixelsOf(thumbnail, [0xe0, 0x10, 0x10])).toBeGreaterThan(100);
  });

  it('draws custom markers from their stored images', async () => {
    const icon = await sharp({ create: { width: 128, height: 128, channels: 4, background: '#ff00ffff' } }).png().toBuffer();
    const marker = await service.send('marker/upload', owner.key, { file_type: 'png' }, icon);
    expect(marker.error).toBeUndefined();
    const { id, path } = await upload({
      type: 'FeatureCollection',
      features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [10, 50] }, properties: { marker_id: marker.marker_id } }],
    });
    await waitForRender(id, null);
    expect(pixelsOf(await picture(path, 'static'), [0xff, 0x00, 0xff])).toBeGreaterThanOrEqual(30 * 30);
  });

  it('renders at once, then answers during the cool-down and coalesces those calls into one render at its end', async () => {
    const { id, path } = await upload(geojson('#1060e0'));
    const first = await waitForRender(id, null);
    // The upload's render does not count: the first refresh renders now.
    const refreshed = await service.call('map/refresh_image', owner.key, { map_id: id });
    expect(refreshed).toMatchObject({ id, owner: owner.username, visibility: 'public', message: 'Static image refreshed.' });
    expect(refreshed.url).toBe(`${service.url}${path}`);
    const second = await renderedAt(id);
    expect(second).not.toBe(first);
    // map/update never renders; the refreshes during the cool-down answer at once.
    const update = await service.call('map/update', owner.key, { map_id: id, geojson: geojson('#10c040', 4) });
    expect(update.error).toBeUndefined();
    const started = Date.now();
    for (let i = 0; i < 3; i++) {
      const answer = await service.call('map/refresh_image', owner.key, { map_id: id });
      expect(answer.message).toMatch(/^The static image was refreshed less than 1 minute ago; it will be refreshed again at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \(in 1 minute\), with every change made until then\.$/);
    }
    expect(Date.now() - started).toBeLessThan(SPACING_MS);
    expect(await renderedAt(id)).toBe(second);
    expect(pixelsOf(await picture(path, 'static'), [0x10, 0xc0, 0x40])).toBe(0);
    // One render at the cool-down's end, with the update's content.
    await waitForRender(id, second, SPACING_MS + 15_000);
    expect(pixelsOf(await picture(path, 'static'), [0x10, 0xc0, 0x40])).toBeGreaterThan(500);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await rendersScheduled(id)).toBe(3); // upload, first refresh, the coalesced one
  });

  it('checks access and provider keys before the spacing, and starts no render for them', async () => {
    const { id } = await upload(geojson('#303030'), { visibility: 'private' });
    await waitForRender(id, null);
    const viewer = await service.newUser();
    expect(await service.call('map/refresh_image', viewer.key, { map_id: id })).toMatchObject({ error_code: 'map_not_found' });
    await service.db('map_members').insert({ map_id: id, user_id: viewer.userId, role: 'viewer' });
    await service.db('maps').where({ id }).update({ visibility: 'select' });
    expect(await service.call('map/refresh_image', viewer.key, { map_id: id })).toMatchObject({ error_code: 'permission_denied' });
    expect(await service.call('map/refresh_image', owner.key, { map_id: 999_999_999 })).toMatchObject({ error_code: 'map_not_found' });
    expect(await service.call('map/refresh_image', owner.key, {})).toMatchObject({ error_code: 'invalid_arguments' });

    const premium = await upload(geojson('#303030'));
    await waitForRender(premium.id, null);
    const before = await rendersScheduled(premium.id);
    expect((await service.call('map/update', owner.key, { map_id: premium.id, basemap: 'mapbox-streets' })).error).toBeUndefined();
    const missing = await service.call('map/refresh_image', owner.key, { map_id: premium.id });
    expect(missing.error_code).toBe('provider_key_missing');
    expect(missing.error).toContain('"Mapbox Streets"');
    expect(missing.error).toContain('Settings → Map provider keys');
    expect(missing.error).toContain(`set-provider-key --username ${owner.username} --kind map_platform`);
    expect(await rendersScheduled(premium.id)).toBe(before);
  });

  it('draws a commercial basemap from its tiles with the owner key, and says when the provider refuses the key', async () => {
    const { id, path } = await upload(geojson('#303030'));
    const first = await waitForRender(id, null);
    expect((await service.call('map/update', owner.key, { map_id: id, basemap: 'thunderforest-outdoors' })).error).toBeUndefined();
    await saveProviderKey(service.db, owner.userId, 'tile_provider', REFUSED_KEY);
    const refused = await service.call('map/refresh_image', owner.key, { map_id: id });
    expect(refused.error_code).toBe('provider_key_refused');
    expect(refused.error).toContain('HTTP 403');
    expect(refused.error).not.toContain(REFUSED_KEY);
    expect(await renderedAt(id)).toBe(first);
    // A failed render does not use up the spacing: with a good key the next call renders at once.
    await saveProviderKey(service.db, owner.userId, 'tile_provider', GOOD_KEY);
    const requestsBefore = tileRequests;
    expect((await service.call('map/refresh_image', owner.key, { map_id: id })).message).toBe('Static image refreshed.');
    expect(tileRequests).toBeGreaterThan(requestsBefore);
    const image = await picture(path, 'static');
    expect(pixelsOf(image, [0xff, 0x88, 0x00])).toBeGreaterThan(1200 * 630 * 0.5);
  });

  it('answers service_unavailable when no worker takes the refresh up', async () => {
    const idle = await startTestService({ worker: false, noWorkerAfterMs: 1_500 });
    try {
      const user = await idle.newUser();
      const map = await idle.send('map/upload', user.key, { file_type: 'empty', visibility: 'public' });
      // The upload needs a worker too: the map is made directly.
      expect(map.error_code).toBe('service_unavailable');
      // An id no other test's map has: map-image workflows are named by map id on the one Temporal
      // server the tests share (with PGlite each service's ids start at 1).
      const id = 900_000_000 + Math.floor(Math.random() * 1_000_000);
      await idle.db('maps').insert({ id, owner_id: user.userId, short_name: 'idle', title: 'Idle', description: '', basemap: 'classic', visibility: 'public', head: '{}' });
      const started = Date.now();
      const answer = await idle.call('map/refresh_image', user.key, { map_id: id });
      expect(answer).toMatchObject({ error_code: 'service_unavailable', error: 'No worker is processing jobs right now; please try again later.' });
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await idle.stop();
    }
  });

  it('continues as new when its history grows, and keeps answering', async () => {
    const { id } = await upload(geojson('#303030'));
    await waitForRender(id, null);
    const workflowId = mapImageWorkflowId(id);
    // Replace the upload's run by one that continues as new after every render.
    await client.workflow.getHandle(workflowId).terminate('test: a run with a short history limit');
    const handle = await client.workflow.start('mapImage', {
      workflowId,
      taskQueue: service.config.taskQueue,
      args: [{ mapId: id, renderTaskQueue: service.config.renderTaskQueue, spacingMs: 200, historyLimit: 5 }],
    });
    const firstRun = handle.firstExecutionRunId;
    for (let i = 0; i < 3; i++) {
      expect((await service.call('map/refresh_image', owner.key, { map_id: id })).message).toBe('Static image refreshed.');
      await new Promise((resolve) => setTimeout(resolve, 400));
    }
    const described = await client.workflow.getHandle(workflowId).describe();
    expect(described.runId).not.toBe(firstRun);
    expect((await client.workflow.getHandle(workflowId, firstRun).describe()).status.name).toBe('CONTINUED_AS_NEW');
  });
});
