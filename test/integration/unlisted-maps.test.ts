// Unlisted maps are reached only by whoever was given their link (issue 24): every address of an
// unlisted map — its page, embed, map.geojson, downloads, images, basemap tiles, oEmbed — answers
// 404 without the link key and 200 with it (its owner and the people the owner named need none);
// map/get of a stranger needs the key too; a rename or
// a change of visibility never hands the key to someone who did not have it; members of a map
// are told only to its owner and editors.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveProviderKey } from '../../db/providerKeys.js';
import { newLinkKey } from '../../lib/linkKeys.js';
import { startTestService, type TestService } from './harness.js';
import { Browser, loggedInAccount } from './webClient.js';

const PROVIDER_KEY = 'pk.owner-token-0123456789abcdefghij';

let service: TestService;
let tileServer: http.Server;

beforeAll(async () => {
  const tile = await sharp({ create: { width: 512, height: 512, channels: 3, background: '#3366cc' } }).png().toBuffer();
  tileServer = http.createServer((_request, response) => void response.writeHead(200, { 'content-type': 'image/png' }).end(tile));
  await new Promise<void>((resolve) => tileServer.listen(0, '127.0.0.1', resolve));
  const urlOverride = `http://127.0.0.1:${(tileServer.address() as AddressInfo).port}/{z}/{x}/{y}?access_token={key}`;
  service = await startTestService({ tiles: { urlOverride, timeoutMs: 2_000 } });
});
afterAll(async () => {
  await service?.stop();
  await new Promise((resolve) => tileServer?.close(resolve));
});

const POINTS = {
  type: 'FeatureCollection',
  features: [
    { type: 'Feature', geometry: { type: 'Point', coordinates: [2.35, 48.85] }, properties: { title: 'Hidden spring' } },
    { type: 'Feature', geometry: { type: 'LineString', coordinates: [[2.3, 48.8], [2.4, 48.9]] }, properties: { title: 'Secret path' } },
  ],
};

/** A new unlisted map of the key's account: its id, its link (`url`), the link's path, and its path without the key. */
async function unlistedMap(key: string, title = 'Hidden spring') {
  const answer = await service.send('map/upload', key, { file_type: 'geojson', visibility: 'unlisted', title }, JSON.stringify(POINTS));
  expect(answer.error).toBeUndefined();
  const path = new URL(answer.url as string).pathname;
  const match = /^(\/[^/]+\/[a-z0-9-]+)~([A-HJ-NP-Z]{22})$/.exec(path);
  expect(match, path).not.toBeNull();
  return { id: answer.id as number, url: answer.url as string, path, plainPath: match![1]!, key: match![2]! };
}

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${service.url}${path}`, { redirect: 'manual', headers });
const oembed = (mapUrl: string) => get(`/oembed?url=${encodeURIComponent(mapUrl)}`);

/** Every address of a map under its path, and its embed. */
const addressesOf = (path: string, ref: string) => [
  path,
  `${path}/map.geojson`,
  ...['geojson', 'csv', 'xlsx', 'kml', 'gpx'].map((extension) => `${path}/download.${extension}`),
  `${path}/static.png`,
  `${path}/thumbnail.png`,
  `/embed/${ref}`,
  `/embed/${ref}?panel=1`,
];

describe('an unlisted map', () => {
  it('answers 404 at every address without its link key, to anyone but its owner and editors, and 200 with it', async () => {
    const owner = await service.newUser();
    const stranger = await loggedInAccount(service);
    const map = await unlistedMap(owner.key);
    const withoutKey = [...addressesOf(map.plainPath, String(map.id)), ...addressesOf(`${map.plainPath}~${newLinkKey()}`, `${map.id}~${newLinkKey()}`)];
    const statuses = await Promise.all(
      withoutKey.map(async (path) => [path, (await get(path)).status, (await get(path, { authorization: `Token ${stranger.key}` })).status, (await stranger.browser.request(path)).status]),
    );
    expect(statuses).toEqual(withoutKey.map((path) => [path, 404, 404, 404]));
    // As counting would: the embeds of the ids around it find nothing either.
    for (let id = map.id - 3; id <= map.id + 3; id++) expect((await get(`/embed/${id}?panel=1`)).status).toBe(404);
    expect((await oembed(`${service.url}${map.plainPath}`)).status).toBe(404);
    expect((await oembed(`${service.url}${map.plainPath}~${newLinkKey()}`)).status).toBe(404);
    // The map page's 404 says nothing of the map.
    const missing = await stranger.browser.request(map.plainPath);
    expect(missing.html).not.toContain('Hidden spring');

    const withKey = addressesOf(map.path, `${map.id}~${map.key}`);
    expect(await Promise.all(withKey.map(async (path) => [path, (await get(path)).status]))).toEqual(withKey.map((path) => [path, 200]));
    const data = (await (await get(`${map.path}/map.geojson`)).json()) as { features: { properties: { title: string } }[] };
    expect(data.features.map((feature) => feature.properties.title)).toEqual(['Hidden spring', 'Secret path']);
    const answer = (await (await oembed(map.url)).json()) as { html: string; thumbnail_url: string };
    expect(answer.html).toContain(`src="${service.url}/embed/${map.id}~${map.key}"`);
    expect(answer.thumbnail_url).toBe(`${map.url}/thumbnail.png`);
  });

  it('shares its link and embed codes with the key: on its page, in the embed, in My maps', async () => {
    const owner = await loggedInAccount(service);
    const map = await unlistedMap(owner.key, 'Walks');
    const page = await new Browser(service.url).request(map.path);
    expect(page.status).toBe(200);
    expect(page.html).toContain(`value="${map.url}"`);
    expect(page.html).toContain(`/embed/${map.id}~${map.key}&quot;`);
    expect(page.html).toContain(`/embed/${map.id}~${map.key}?panel=1`);
    expect(page.html).toContain('Only people who have this link');
    expect(page.html).toContain(`"geojson":"${map.path}/map.geojson"`);
    expect(page.html).toContain(`href="${service.url}/oembed?url=${encodeURIComponent(map.url)}"`);
    const embed = await get(`/embed/${map.id}~${map.key}`);
    expect(await embed.text()).toContain(`<img src="${map.path}/static.png"`);
    const myMaps = await owner.browser.request('/maps');
    expect(myMaps.html).toContain(`href="${map.path}"`);
    expect(myMaps.html).toContain(`src="${map.path}/thumbnail.png"`);
    // The owner reaches the map at its plain address too: sent on to its link.
    const plain = await owner.browser.request(`${map.plainPath}?settings=1`);
    expect([plain.status, plain.headers.get('location')]).toEqual([302, `${map.path}?settings=1`]);
  });

  it("draws a commercial basemap's tiles through the service only at the map's keyed addresses", async () => {
    const owner = await service.newUser();
    await saveProviderKey(service.db, owner.userId, 'map_platform', PROVIDER_KEY);
    const map = await unlistedMap(owner.key);
    expect((await service.call('map/update', owner.key, { map_id: map.id, basemap: 'mapbox-streets' })).error).toBeUndefined();
    const page = await (await get(map.path)).text();
    expect(/"style":"([^"]+)"/.exec(page)?.[1]).toBe(`/maps/${map.id}~${map.key}/basemap/style.json`);
    const style = (await (await get(`/maps/${map.id}~${map.key}/basemap/style.json`)).json()) as { sources: { provider: { tiles: string[] } } };
    expect(style.sources.provider.tiles).toEqual([`${service.url}/maps/${map.id}~${map.key}/basemap/{z}/{x}/{y}`]);
    expect((await get(`/maps/${map.id}~${map.key}/basemap/3/4/2`)).status).toBe(200);
    for (const ref of [String(map.id), `${map.id}~${newLinkKey()}`]) {
      expect((await get(`/maps/${ref}/basemap/style.json`)).status).toBe(404);
      expect((await get(`/maps/${ref}/basemap/3/4/2`)).status).toBe(404);
    }
  });
});

describe('map/get and the other operations of an unlisted map', () => {
  it("need the link key from anyone but its owner and the people it names; members' names go to the owner and editors only", async () => {
    const owner = await service.newUser();
    const editor = await service.newUser();
    const stranger = await service.newUser();
    const map = await unlistedMap(owner.key);
    await service.db('map_members').insert({ map_id: map.id, user_id: editor.userId, role: 'editor' });
    await service.db('maps').where({ id: map.id }).update({ collaborate: true });

    const hidden = await service.call('map/get', stranger.key, { map_id: map.id });
    const missing = await service.call('map/get', stranger.key, { map_id: 987654321 });
    expect(hidden).toEqual({ ...missing, error: missing.error.replace('987654321', String(map.id)) });
    expect((await service.call('map/get', stranger.key, { map_id: map.id, link_key: newLinkKey() })).error_code).toBe('map_not_found');
    expect((await service.call('map/get', stranger.key, { map_id: map.id, link_key: 'abc' })).error_code).toBe('invalid_arguments');
    // Nothing else tells the map is there: an update, an append, a refresh.
    expect((await service.call('map/update', stranger.key, { map_id: map.id, title: 'x' })).error_code).toBe('map_not_found');
    expect((await service.call('map/refresh_image', stranger.key, { map_id: map.id })).error_code).toBe('map_not_found');
    expect((await service.send('map/append', stranger.key, { map_id: map.id, file_type: 'geojson' }, JSON.stringify(POINTS))).error_code).toBe('map_not_found');

    const seen = await service.call('map/get', stranger.key, { map_id: map.id, link_key: map.key });
    expect(seen).toMatchObject({ id: map.id, url: map.url, title: 'Hidden spring', visibility: 'unlisted', editor_users: [], viewer_users: [] });
    expect(seen.geojson.features).toHaveLength(2);
    // With the key a stranger reads it, never changes it.
    expect((await service.call('map/update', stranger.key, { map_id: map.id, title: 'x' })).error_code).toBe('map_not_found');

    for (const member of [owner, editor]) {
      expect(await service.call('map/get', member.key, { map_id: map.id })).toMatchObject({ url: map.url, editor_users: [editor.username] });
    }
    expect((await service.call('map/list', owner.key)).owner.find((m: { id: number }) => m.id === map.id).url).toBe(map.url);
    expect((await service.call('map/list', editor.key)).editor.find((m: { id: number }) => m.id === map.id).url).toBe(map.url);
    expect((await service.call('map/update', owner.key, { map_id: map.id, title: 'Spring' })).url).toBe(map.url);
    // Collaboration off: the editor the owner named still sees the map (as a viewer), without the key.
    await service.db('maps').where({ id: map.id }).update({ collaborate: false });
    expect(await service.call('map/get', editor.key, { map_id: map.id })).toMatchObject({ url: map.url, editor_users: [] });
    expect((await service.call('map/update', editor.key, { map_id: map.id, title: 'x' })).error_code).toBe('permission_denied');
  });

  it('shows who views and edits a public or select map only to its owner and editors', async () => {
    const owner = await service.newUser();
    const editor = await service.newUser();
    const viewer = await service.newUser();
    const stranger = await service.newUser();
    const { id } = await service.send('map/upload', owner.key, { file_type: 'empty', visibility: 'public' });
    await service.db('map_members').insert([
      { map_id: id, user_id: editor.userId, role: 'editor' },
      { map_id: id, user_id: viewer.userId, role: 'viewer' },
    ]);
    await service.db('maps').where({ id }).update({ collaborate: true });
    const members = { editor_users: [editor.username], viewer_users: [viewer.username] };
    expect(await service.call('map/get', owner.key, { map_id: id })).toMatchObject(members);
    expect(await service.call('map/get', editor.key, { map_id: id })).toMatchObject(members);
    expect(await service.call('map/get', stranger.key, { map_id: id })).toMatchObject({ editor_users: [], viewer_users: [] });
    await service.db('maps').where({ id }).update({ visibility: 'select' });
    expect(await service.call('map/get', viewer.key, { map_id: id })).toMatchObject({ visibility: 'select', editor_users: [], viewer_users: [] });
    expect(await service.call('map/get', editor.key, { map_id: id })).toMatchObject(members);
  });
});

describe('addresses after a rename or a change of visibility', () => {
  it('keep the key through a rename, hand it to nobody who lacked it, and give a new one each time the map becomes unlisted', async () => {
    const owner = await loggedInAccount(service);
    const map = await unlistedMap(owner.key);
    const renamed = await service.call('map/update', owner.key, { map_id: map.id, short_name: 'spring' });
    const newPath = `/${owner.username}/spring~${map.key}`;
    expect(renamed.url).toBe(`${service.url}${newPath}`);
    // The old address with the key leads on; without it, it is nothing, but for the owner.
    const old = await get(`${map.path}/map.geojson?x=1`);
    expect([old.status, old.headers.get('location')]).toEqual([302, `${newPath}/map.geojson?x=1`]);
    for (const path of [map.plainPath, `${map.plainPath}/static.png`, `/${owner.username}/spring`]) {
      const answer = await get(path);
      expect([path, answer.status, answer.headers.get('location')]).toEqual([path, 404, null]);
    }
    expect((await owner.browser.request(map.plainPath)).headers.get('location')).toBe(newPath);
    expect((await oembed(`${service.url}${map.path}`)).status).toBe(200);
    // The same visibility again (a settings form sent as it was) keeps the key.
    expect((await service.call('map/update', owner.key, { map_id: map.id, visibility: 'unlisted' })).url).toBe(renamed.url);

    // Public: the plain address; the link given out earlier leads there.
    const made = await service.call('map/update', owner.key, { map_id: map.id, visibility: 'public' });
    expect(made.url).toBe(`${service.url}/${owner.username}/spring`);
    const earlier = await get(newPath);
    expect([earlier.status, earlier.headers.get('location')]).toEqual([302, `/${owner.username}/spring`]);
    expect((await get(`/embed/${map.id}~${map.key}`)).status).toBe(200);

    // Unlisted again: a new key; the earlier link opens nothing.
    const again = await service.call('map/update', owner.key, { map_id: map.id, visibility: 'unlisted' });
    const key = /~([A-Z]{22})$/.exec(again.url)?.[1];
    expect(key).toBeDefined();
    expect(key).not.toBe(map.key);
    expect((await get(newPath)).status).toBe(404);
    expect((await get(`/embed/${map.id}~${map.key}`)).status).toBe(404);
    expect((await get(new URL(again.url).pathname)).status).toBe(200);

    // Private: no key opens it; its owner is sent to its plain address.
    await service.call('map/update', owner.key, { map_id: map.id, visibility: 'private' });
    const link = new URL(again.url).pathname;
    expect((await get(link)).status).toBe(404);
    expect((await get(`/embed/${map.id}~${key}`)).status).toBe(404);
    expect((await owner.browser.request(link)).headers.get('location')).toBe(`/${owner.username}/spring`);
  });
});
