// A map's address and basemap in the browser: old short names redirect after a rename (the page,
// its files, oEmbed) without revealing a private map's new address; a commercial basemap drawn from
// its provider's tiles through the service (a real local tile server; the key never reaches the
// browser), cached per owner and key; page and embed views and the tiles served with the service's
// key counted per day, and the heavy-traffic limit to classic for a map shown with the service's
// key, which its owner is told about.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteProviderKey, saveProviderKey } from '../../db/providerKeys.js';
import { startTestService, type TestService } from './harness.js';
import { Browser, loggedInAccount } from './webClient.js';

const OWNER_KEY = 'pk.owner-token-0123456789abcdefghij';
const SERVICE_KEY = 'pk.service-token-0123456789abcdefgh';
const HEAVY = 3;

let service: TestService;
let tileServer: http.Server;
const tileKeys: string[] = [];

async function startTileServer(): Promise<string> {
  const tile = await sharp({ create: { width: 512, height: 512, channels: 3, background: '#3366cc' } }).png().toBuffer();
  tileServer = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const key = url.searchParams.get('access_token') ?? '';
    tileKeys.push(key);
    if (key !== OWNER_KEY && key !== SERVICE_KEY) return void response.writeHead(401).end('unauthorized');
    if (url.pathname.startsWith('/9/')) return void response.writeHead(404).end('no tile');
    response.writeHead(200, { 'content-type': 'image/png' }).end(tile);
  });
  await new Promise<void>((resolve) => tileServer.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(tileServer.address() as AddressInfo).port}/{z}/{x}/{y}?access_token={key}`;
}

beforeAll(async () => {
  const urlOverride = await startTileServer();
  service = await startTestService({
    renderWorker: false,
    config: { serviceProviderKeys: { map_platform: SERVICE_KEY }, heavyTrafficViews: HEAVY },
    tiles: { urlOverride, timeoutMs: 2_000 },
  });
});
afterAll(async () => {
  await service?.stop();
  await new Promise((resolve) => tileServer?.close(resolve));
});

const account = () => loggedInAccount(service);

const upload = async (key: string, title: string, visibility: string) => {
  const answer = await service.send('map/upload', key, { file_type: 'empty', visibility, title });
  expect(answer.error).toBeUndefined();
  return { id: answer.id as number, path: new URL(answer.url as string).pathname };
};

const styleOf = (html: string): string | undefined => /"style":"([^"]+)"/.exec(html)?.[1];

describe('old short names', () => {
  it('redirect the page, its files and oEmbed to the renamed map, keeping the query', async () => {
    const me = await account();
    const map = await upload(me.key, 'Walks', 'public');
    const renamed = await service.call('map/update', me.key, { map_id: map.id, short_name: 'river-walks' });
    expect(renamed.error).toBeUndefined();
    const newPath = new URL(renamed.url as string).pathname;
    expect(newPath).toBe(`/${me.username}/river-walks`);
    const anonymous = new Browser(service.url);
    const page = await anonymous.request(`${map.path}?panel=1`);
    expect([page.status, page.headers.get('location')]).toEqual([302, `${newPath}?panel=1`]);
    expect((await anonymous.request(newPath)).status).toBe(200);
    for (const file of ['static.png', 'thumbnail.png', 'map.geojson']) {
      const answer = await fetch(`${service.url}${map.path}/${file}`, { redirect: 'manual' });
      expect([file, answer.status, answer.headers.get('location')]).toEqual([file, 302, `${newPath}/${file}`]);
    }
    const oembed = await fetch(`${service.url}/oembed?url=${encodeURIComponent(service.url + map.path)}`);
    expect(((await oembed.json()) as { html: string }).html).toContain(`/embed/${map.id}`);
    // Renamed twice: both old names lead to the map.
    await service.call('map/update', me.key, { map_id: map.id, short_name: 'walks-by-the-river' });
    expect((await anonymous.request(map.path)).headers.get('location')).toBe(`/${me.username}/walks-by-the-river`);
    expect((await anonymous.request(newPath)).headers.get('location')).toBe(`/${me.username}/walks-by-the-river`);
  });

  it('belong to a new map that takes them, and never reveal a private map to those who may not see it', async () => {
    const me = await account();
    const other = await account();
    const secret = await upload(me.key, 'Secret', 'private');
    await service.call('map/update', me.key, { map_id: secret.id, short_name: 'hidden' });
    expect((await other.browser.request(secret.path)).status).toBe(404);
    expect((await fetch(`${service.url}${secret.path}/static.png`, { redirect: 'manual' })).status).toBe(404);
    expect((await me.browser.request(secret.path)).headers.get('location')).toBe(`/${me.username}/hidden`);
    const taker = await upload(me.key, 'Secret', 'public');
    expect(taker.path).toBe(secret.path);
    const page = await other.browser.request(secret.path);
    expect(page.status).toBe(200);
  });
});

describe('commercial basemaps in the browser', () => {
  it('draws the map over its provider tiles through the service with the owner key, which never reaches the browser', async () => {
    const me = await account();
    await saveProviderKey(service.db, me.userId, 'map_platform', OWNER_KEY);
    const map = await upload(me.key, 'Streets', 'public');
    expect((await service.call('map/update', me.key, { map_id: map.id, basemap: 'mapbox-streets' })).error).toBeUndefined();
    const visitor = new Browser(service.url);
    const page = await visitor.request(map.path);
    expect(styleOf(page.html)).toBe(`/maps/${map.id}/basemap/style.json`);
    expect(page.html).not.toContain(OWNER_KEY);
    const styleAnswer = await fetch(`${service.url}/maps/${map.id}/basemap/style.json`);
    const styleText = await styleAnswer.text();
    expect(styleText).not.toContain('pk.');
    const style = JSON.parse(styleText) as { sources: { provider: { type: string; tiles: string[]; tileSize: number; attribution: string } } };
    expect(style.sources.provider).toMatchObject({ type: 'raster', tiles: [`${service.url}/maps/${map.id}/basemap/{z}/{x}/{y}`], tileSize: 512 });
    expect(style.sources.provider.attribution).toContain('Mapbox');
    const before = tileKeys.length;
    const tile = await fetch(`${service.url}/maps/${map.id}/basemap/3/4/2`);
    expect([tile.status, tile.headers.get('content-type'), tile.headers.get('cache-control')]).toEqual([200, 'image/png', 'public, max-age=3600']);
    expect((await sharp(Buffer.from(await tile.arrayBuffer())).metadata()).width).toBe(512);
    expect(tileKeys.slice(before)).toEqual([OWNER_KEY]);
    // The second time from the cache: the provider is not asked again.
    expect((await fetch(`${service.url}/maps/${map.id}/basemap/3/4/2`)).status).toBe(200);
    expect(tileKeys.length).toBe(before + 1);
    const answers = await Promise.all(['3/8/2', '3/4/x', '23/0/0', '9/1/1'].map((z) => fetch(`${service.url}/maps/${map.id}/basemap/${z}`)));
    expect(await Promise.all(answers.map(async (a) => [a.status, ((await a.json()) as { error_code: string }).error_code]))).toEqual([
      [404, 'basemap_not_found'],
      [404, 'basemap_not_found'],
      [404, 'basemap_not_found'],
      [404, 'basemap_not_found'],
    ]);
    // A key the provider refuses: a clear error, never the key.
    await saveProviderKey(service.db, me.userId, 'map_platform', 'pk.refused-token-0123456789abcdefghij');
    const refused = await fetch(`${service.url}/maps/${map.id}/basemap/2/1/1`);
    const refusal = await refused.text();
    expect([refused.status, JSON.parse(refusal).error_code, refusal.includes('refused-token')]).toEqual([502, 'provider_key_refused', false]);
  });

  it('shows a private map\'s basemap tiles only to those who may see the map', async () => {
    const me = await account();
    await saveProviderKey(service.db, me.userId, 'map_platform', OWNER_KEY);
    const map = await upload(me.key, 'Private streets', 'private');
    await service.call('map/update', me.key, { map_id: map.id, basemap: 'mapbox-streets' });
    expect((await fetch(`${service.url}/maps/${map.id}/basemap/style.json`)).status).toBe(404);
    expect((await fetch(`${service.url}/maps/${map.id}/basemap/1/0/0`)).status).toBe(404);
    const mine = await me.browser.request(`/maps/${map.id}/basemap/1/0/0`);
    expect(mine.status).toBe(200);
    expect(mine.headers.get('cache-control')).toBe('private, max-age=3600');
  });

  it('counts views and limits a map shown with the service key to classic for 24 hours after heavy traffic, telling only its owner', async () => {
    const me = await account();
    await saveProviderKey(service.db, me.userId, 'map_platform', OWNER_KEY);
    const map = await upload(me.key, 'Busy', 'public');
    await service.call('map/update', me.key, { map_id: map.id, basemap: 'mapbox-streets' });
    await deleteProviderKey(service.db, me.userId, 'map_platform');
    const visitor = new Browser(service.url);
    for (let view = 1; view <= HEAVY; view++) {
      const page = view === 2 ? await visitor.request(`/embed/${map.id}`) : await visitor.request(map.path);
      expect([view, styleOf(page.html)]).toEqual([view, `/maps/${map.id}/basemap/style.json`]);
    }
    const before = tileKeys.length;
    expect((await fetch(`${service.url}/maps/${map.id}/basemap/2/2/1`)).status).toBe(200);
    expect(tileKeys.slice(before)).toEqual([SERVICE_KEY]);
    const heavy = await visitor.request(map.path);
    expect(styleOf(heavy.html)).toBe('/basemaps/classic/style.json');
    expect(heavy.html).not.toContain('Add your');
    expect((await fetch(`${service.url}/maps/${map.id}/basemap/2/2/1`)).status).toBe(404);
    const row = await service.db('maps').where({ id: map.id }).first('classic_until');
    const hours = (new Date(row.classic_until).getTime() - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    const views = await service.db('map_daily_views').where({ map_id: map.id }).first('views');
    expect(views.views).toBe(HEAVY + 1);
    const owners = await me.browser.request(map.path);
    expect(styleOf(owners.html)).toBe('/basemaps/classic/style.json');
    expect(owners.html).toMatch(/This map had 5 views today, more than a map on Mapbox Streets may have without its owner's key, so visitors see it on the\s+Classic basemap until \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    expect(owners.html).toContain('<a href="/settings#provider-keys">Add your Mapbox (public token) key</a>');
    // The owner adds a key: the map is on its basemap again at once, limit or not.
    await saveProviderKey(service.db, me.userId, 'map_platform', OWNER_KEY);
    expect(styleOf((await visitor.request(map.path)).html)).toBe(`/maps/${map.id}/basemap/style.json`);
  });

  it('writes nothing when a map on a built-in basemap is viewed (only commercial basemaps have a traffic limit)', async () => {
    const me = await account();
    const map = await upload(me.key, 'Quiet', 'public');
    const visitor = new Browser(service.url);
    for (const path of [map.path, `/embed/${map.id}`, map.path]) expect((await visitor.request(path)).status).toBe(200);
    expect(await service.db('map_daily_views').where({ map_id: map.id })).toEqual([]);
  });

  it("never serves one account's cached tiles to another account's map: a bogus key is refused, not answered from the cache", async () => {
    const owner = await account();
    await saveProviderKey(service.db, owner.userId, 'map_platform', OWNER_KEY);
    const paid = await upload(owner.key, 'Paid tiles', 'public');
    await service.call('map/update', owner.key, { map_id: paid.id, basemap: 'mapbox-streets' });
    expect((await fetch(`${service.url}/maps/${paid.id}/basemap/4/8/5`)).status).toBe(200); // now in the cache
    const other = await account();
    await saveProviderKey(service.db, other.userId, 'map_platform', 'pk.bogus-token-0123456789abcdefghijk');
    const freeloader = await upload(other.key, 'Free tiles', 'public');
    await service.call('map/update', other.key, { map_id: freeloader.id, basemap: 'mapbox-streets' });
    const before = tileKeys.length;
    const refused = await fetch(`${service.url}/maps/${freeloader.id}/basemap/4/8/5`);
    expect([refused.status, ((await refused.json()) as { error_code: string }).error_code]).toEqual([502, 'provider_key_refused']);
    expect(tileKeys.slice(before)).toEqual(['pk.bogus-token-0123456789abcdefghijk']);
    // The owner's map still gets its own copy from the cache.
    expect((await fetch(`${service.url}/maps/${paid.id}/basemap/4/8/5`)).status).toBe(200);
    expect(tileKeys.length).toBe(before + 1);
  });

  it("counts the tiles served with the service key toward the heavy-traffic limit (50 to a view), in batches; the owner's key's tiles not at all", async () => {
    const me = await account();
    await saveProviderKey(service.db, me.userId, 'map_platform', OWNER_KEY);
    const map = await upload(me.key, 'Tile scraper target', 'public');
    await service.call('map/update', me.key, { map_id: map.id, basemap: 'mapbox-streets' });
    const tile = () => fetch(`${service.url}/maps/${map.id}/basemap/2/1/2`).then(async (answer) => (await answer.arrayBuffer(), answer.status));
    // With the owner's key: not counted.
    for (let i = 0; i < 60; i++) expect(await tile()).toBe(200);
    expect(await service.db('map_daily_views').where({ map_id: map.id }).first()).toBeUndefined();
    // With the service's key and no page view at all: 49 tiles are not written yet, 50 are one view's worth.
    await deleteProviderKey(service.db, me.userId, 'map_platform');
    for (let i = 0; i < 49; i++) expect(await tile()).toBe(200);
    expect(await service.db('map_daily_views').where({ map_id: map.id }).first()).toBeUndefined();
    expect(await tile()).toBe(200);
    expect(await service.db('map_daily_views').where({ map_id: map.id }).first('views', 'tiles')).toEqual({ views: 0, tiles: 50 });
    // 4 views' worth is more than HEAVY (3): the limit starts, and the map's tiles stop.
    for (let i = 50; i < 4 * 50; i++) expect(await tile()).toBe(200);
    expect(await tile()).toBe(404);
    const row = await service.db('maps').where({ id: map.id }).first('classic_until');
    expect((new Date(row.classic_until).getTime() - Date.now()) / 3_600_000).toBeGreaterThan(23.9);
    const owners = await me.browser.request(map.path);
    expect(styleOf(owners.html)).toBe('/basemaps/classic/style.json');
    expect(owners.html).toMatch(/This map had 1 view and 200 basemap tiles today/);
  });

  it('shows a map whose basemap has no key at all on classic, and tells its owner which key it needs', async () => {
    const me = await account();
    await saveProviderKey(service.db, me.userId, 'tile_provider', 'tile-key-0123456789');
    const map = await upload(me.key, 'Outdoors', 'public');
    await service.call('map/update', me.key, { map_id: map.id, basemap: 'thunderforest-outdoors' });
    await deleteProviderKey(service.db, me.userId, 'tile_provider');
    const visitor = await new Browser(service.url).request(map.path);
    expect(styleOf(visitor.html)).toBe('/basemaps/classic/style.json');
    expect(visitor.html).not.toContain('needs your');
    const owners = await me.browser.request(map.path);
    expect(owners.html).toContain('Visitors see this map on the Classic basemap: Thunderforest Outdoors needs your Thunderforest (API key) key.');
  });
});
