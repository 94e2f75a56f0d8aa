// The operator's own raster basemaps (BASEMAPS_EXTRA) against a real local tile server: in
// basemap/list, chosen with map/update, under the static image, in the browser through the
// service; and the same server refused as a private address when the operator has not allowed it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Basemap } from '../../lib/basemaps.js';
import { startTestService, type TestService } from './harness.js';
import { loggedInAccount } from './webClient.js';

const TEAL = [0x11, 0x88, 0xaa] as const;
let tileServer: http.Server;
let tileRequests: string[] = [];
let allowed: TestService;
let refusing: TestService;

const extraBasemap = (port: number): Basemap => ({
  id: 'osm-internal',
  name: 'Our OSM',
  attribution: '© OpenStreetMap contributors',
  providerKind: null,
  drawing: { type: 'xyz', url: `http://127.0.0.1:${port}/{z}/{x}/{y}.png`, tileSize: 256, maxZoom: 19 },
});

beforeAll(async () => {
  const tile = await sharp({ create: { width: 256, height: 256, channels: 3, background: { r: TEAL[0], g: TEAL[1], b: TEAL[2] } } }).png().toBuffer();
  tileServer = http.createServer((request, response) => {
    tileRequests.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'image/png' }).end(tile);
  });
  await new Promise<void>((resolve) => tileServer.listen(0, '127.0.0.1', resolve));
  const extraBasemaps = [extraBasemap((tileServer.address() as AddressInfo).port)];
  allowed = await startTestService({ config: { extraBasemaps, imageRefreshSpacingMs: 1_000 } });
  refusing = await startTestService({ config: { extraBasemaps, basemapsAllowPrivate: false, imageRefreshSpacingMs: 1_000 } });
});
afterAll(async () => {
  await allowed?.stop();
  await refusing?.stop();
  await new Promise((resolve) => tileServer?.close(resolve));
});

const tealShare = async (png: Buffer): Promise<number> => {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  let teal = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    if (Math.abs(data[i]! - TEAL[0]) + Math.abs(data[i + 1]! - TEAL[1]) + Math.abs(data[i + 2]! - TEAL[2]) < 24) teal++;
  }
  return teal / (info.width * info.height);
};

/** A public map of one point in Lisbon on the operator's basemap. */
async function mapOnExtraBasemap(service: TestService) {
  const user = await service.newUser();
  const point = { type: 'Feature', geometry: { type: 'Point', coordinates: [-9.14, 38.71] }, properties: { title: 'Café' } };
  const upload = await service.send('map/upload', user.key, { file_type: 'geojson', visibility: 'public' }, JSON.stringify({ type: 'FeatureCollection', features: [point] }));
  expect(upload.error).toBeUndefined();
  expect((await service.call('map/update', user.key, { map_id: upload.id, basemap: 'osm-internal' })).error).toBeUndefined();
  expect(await service.call('map/get', user.key, { map_id: upload.id })).toMatchObject({ basemap: 'osm-internal' });
  return { user, id: upload.id as number, path: new URL(upload.url as string).pathname };
}

/** The map page's style and one of its tiles, as the browser asks for them. */
async function browserTile(service: TestService, path: string) {
  const page = await (await fetch(`${service.url}${path}`)).text();
  expect(page).toContain(`/basemap/style.json`);
  const styleUrl = /"style":"([^"]+)"/.exec(page)?.[1];
  const style = await (await fetch(new URL(styleUrl!, service.url))).json();
  const tiles = Object.values(style.sources as Record<string, { tiles: string[] }>)[0]!.tiles[0]!;
  return fetch(tiles.replace('{z}/{x}/{y}', '12/1954/1565'));
}

describe('BASEMAPS_EXTRA', () => {
  it('lists the operator’s basemap after the service’s own, with no provider kind', async () => {
    const { basemaps } = await allowed.call('basemap/list', (await allowed.newUser()).key, {});
    expect(basemaps.at(-1)).toEqual({ id: 'osm-internal', name: 'Our OSM', attribution: '© OpenStreetMap contributors', provider_kind: null });
    expect(basemaps.map((basemap: { id: string }) => basemap.id).slice(0, 3)).toEqual(['classic', 'light', 'dark']);
  });

  it('draws the static image and the browser’s map from its tiles, with no key', async () => {
    const { user, id, path } = await mapOnExtraBasemap(allowed);
    tileRequests = [];
    expect((await allowed.call('map/refresh_image', user.key, { map_id: id })).message).toBe('Static image refreshed.');
    expect(tileRequests.length).toBeGreaterThan(0);
    const image = await fetch(`${allowed.url}${path}/static.png`);
    expect(image.status).toBe(200);
    expect(await tealShare(Buffer.from(await image.arrayBuffer()))).toBeGreaterThan(0.5);

    const tile = await browserTile(allowed, path);
    expect([tile.status, tile.headers.get('content-type')]).toEqual([200, 'image/png']);
    expect(await tealShare(Buffer.from(await tile.arrayBuffer()))).toBe(1);
  });

  it('is in the map settings’ chooser, its preview drawn from its tiles', async () => {
    const me = await loggedInAccount(allowed);
    const upload = await allowed.send('map/upload', me.key, { file_type: 'empty', visibility: 'public' });
    const path = new URL(upload.url as string).pathname;
    const settings = (await me.browser.request(`${path}?settings=1`)).html;
    expect(settings).toMatch(/value="osm-internal"/);
    expect(settings).toContain(`<img src="/maps/${upload.id}/basemap-previews/osm-internal.png"`);
    expect(settings).toContain('Our OSM');
    const preview = await me.browser.request(`/maps/${upload.id}/basemap-previews/osm-internal.png`);
    // Drawn from the tiles (kept a day), not the veiled stand-in of a basemap without its key (no-cache).
    expect([preview.status, preview.headers.get('content-type'), preview.headers.get('cache-control')]).toEqual([200, 'image/png', 'private, max-age=86400']);
  });

  it('refuses a tile server at a private address unless the operator allows it, and says so', async () => {
    const { user, id, path } = await mapOnExtraBasemap(refusing);
    tileRequests = [];
    const refused = await refusing.call('map/refresh_image', user.key, { map_id: id });
    expect(refused.error_code).toBe('basemap_address_refused');
    expect(refused.error).toBe(
      `The basemap "Our OSM" is served from 127.0.0.1:${(tileServer.address() as AddressInfo).port}, ` +
        'a private network address; the service fetches tiles only from public addresses (its operator can allow private ones with BASEMAPS_ALLOW_PRIVATE=true).',
    );
    const tile = await browserTile(refusing, path);
    expect(tile.status).toBe(502);
    expect(await tile.json()).toMatchObject({ error_code: 'basemap_address_refused' });
    expect(tileRequests).toEqual([]);
  });
});
