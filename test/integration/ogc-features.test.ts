// A map as an OGC API – Features service (issue 28): every answer checked against the standard's
// schemas (test/support/ogcSchemas.ts), paging by `next` links, bbox, datetime and property
// filters, group collections with their subgroups, the access rule (public, unlisted by its keyed
// address, private with `Authorization: Token <key>`), bad input as `{code, description}` with
// 400/404; and GDAL's OAPIF driver (Debian's ogrinfo and ogr2ogr) reading a public map, a
// private map with a key, and a 200,000-feature map completely.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ogcSchemaErrors } from '../support/ogcSchemas.js';
import { startTestService, type TestService } from './harness.js';

const run = promisify(execFile);

let service: TestService;
let owner: { username: string; key: string };
let publicMap: { id: number; url: string };
let privateMap: { id: number; url: string };
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ogc-test-'));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const point = (lon: number, lat: number, properties: Record<string, unknown>) => ({ type: 'Feature', geometry: { type: 'Point', coordinates: [lon, lat] }, properties });

const document = {
  type: 'FeatureCollection',
  groups: [
    { id: 1, title: 'Food' },
    { id: 2, title: 'Cafés', parent: 1 },
    { id: 'parks', title: 'Parks' },
  ],
  features: [
    point(2.35, 48.85, { title: 'Bistro', group: 1, stars: 4, open: true, time: '2024-05-01T12:00:00Z' }),
    point(2.29, 48.86, { title: 'Café Rouge', group: 2, stars: 5, time: '2024-06-15T08:30:00Z' }),
    point(13.4, 52.52, { title: 'Tiergarten', group: 'parks', begin: '2024-07-01', end: '2024-07-31' }),
    { type: 'Feature', geometry: { type: 'LineString', coordinates: [[-0.12, 51.5], [-0.1, 51.51]] }, properties: { title: 'Walk', stars: 4 } },
    ...Array.from({ length: 21 }, (_, i) => point(-70 + i, -30 + i, { title: `Extra ${i}`, kind: i % 2 === 0 ? 'even' : 'odd' })),
  ],
};

async function getJson(url: string, key?: string): Promise<{ status: number; type: string | null; body: Json }> {
  const response = await fetch(url, { headers: { accept: 'application/json', ...(key ? { authorization: `Token ${key}` } : {}) } });
  return { status: response.status, type: response.headers.get('content-type'), body: (await response.json()) as Json };
}

/** Every feature of a collection, following `next` links from the first page; each page checked against the schema. */
async function readAll(url: string, key?: string): Promise<Json[]> {
  const features: Json[] = [];
  for (let next: string | undefined = url; next; ) {
    const page = await getJson(next, key);
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(ogcSchemaErrors('featureCollectionGeoJSON', page.body)).toBe('');
    expect(page.body.numberReturned).toBe(page.body.features.length);
    features.push(...page.body.features);
    next = (page.body.links as Json[]).find((l) => l.rel === 'next' && l.type === 'application/geo+json')?.href;
  }
  return features;
}

beforeAll(async () => {
  // No upload limit: the 200,000-feature map is about 20 MB of GeoJSON.
  service = await startTestService({ renderWorker: false, config: { maxUploadBytes: null } });
  owner = await service.newUser();
  for (const [visibility, target] of [
    ['public', (m: { id: number; url: string }) => (publicMap = m)],
    ['private', (m: { id: number; url: string }) => (privateMap = m)],
  ] as const) {
    const answer = await service.send('map/upload', owner.key, { file_type: 'geojson', visibility, title: `OGC ${visibility}` }, JSON.stringify(document));
    expect(answer.error).toBeUndefined();
    target({ id: answer.id, url: answer.url });
  }
}, 60_000);
afterAll(async () => {
  await service?.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('OGC API – Features of a map', () => {
  it('answers the landing page, conformance, API and collections as the standard says', async () => {
    const base = `${publicMap.url}/ogc`;
    const landing = await getJson(base);
    expect(landing.status).toBe(200);
    expect(ogcSchemaErrors('landingPage', landing.body)).toBe('');
    const rels = (landing.body.links as Json[]).map((l) => l.rel);
    expect(rels).toEqual(expect.arrayContaining(['self', 'service-desc', 'conformance', 'data']));

    const conformance = await getJson(`${base}/conformance`);
    expect(ogcSchemaErrors('confClasses', conformance.body)).toBe('');
    expect(conformance.body.conformsTo).toEqual(
      expect.arrayContaining(['http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core', 'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson']),
    );

    const api = await fetch(`${base}/api`, { headers: { accept: 'application/vnd.oai.openapi+json;version=3.0' } });
    expect(api.headers.get('content-type')).toContain('application/vnd.oai.openapi+json');
    const apiDocument = (await api.json()) as Json;
    expect(apiDocument.openapi).toBe('3.0.3');
    expect(apiDocument.components.parameters.limit.schema).toEqual({ type: 'integer', minimum: 1, maximum: 10_000, default: 100 });
    expect(Object.keys(apiDocument.paths)).toContain('/collections/{collectionId}/items/{featureId}');

    const collections = await getJson(`${base}/collections`);
    expect(ogcSchemaErrors('collections', collections.body)).toBe('');
    const byId = new Map((collections.body.collections as Json[]).map((c) => [c.id, c]));
    expect([...byId.keys()]).toEqual(['map', 'group-1', 'group-2', 'group-parks']);
    expect(byId.get('map')!.extent.spatial.bbox).toEqual([[-70, -30, 13.4, 52.52]]);
    expect(byId.get('map')!.extent.temporal.interval).toEqual([['2024-05-01T12:00:00.000Z', '2024-07-31T23:59:59.999Z']]);
    // Food holds its subgroup Cafés.
    expect(byId.get('group-1')!.extent.spatial.bbox).toEqual([[2.29, 48.85, 2.35, 48.86]]);
    for (const id of byId.keys()) {
      const one = await getJson(`${base}/collections/${id}`);
      expect(ogcSchemaErrors('collection', one.body)).toBe('');
      expect(one.body.id).toBe(id);
    }
  });

  it('pages through the items by next links, and filters by group, bbox, datetime and properties', async () => {
    const items = `${publicMap.url}/ogc/collections/map/items`;
    const all = await readAll(`${items}?limit=4`);
    expect(all.map((f) => f.properties.title)).toEqual(document.features.map((f) => f.properties.title));
    const first = await getJson(`${items}?limit=4`);
    expect(first.type).toBe('application/geo+json');
    expect(first.body.numberMatched).toBe(25);
    // offset without a cursor: the same features as the cursor reaches.
    const offset = await getJson(`${items}?limit=3&offset=5`);
    expect(offset.body.features.map((f: Json) => f.properties.title)).toEqual(['Extra 1', 'Extra 2', 'Extra 3']);

    const titles = async (url: string) => (await readAll(url)).map((f) => f.properties.title as string);
    expect(await titles(`${publicMap.url}/ogc/collections/group-1/items`)).toEqual(['Bistro', 'Café Rouge']);
    expect(await titles(`${publicMap.url}/ogc/collections/group-parks/items`)).toEqual(['Tiergarten']);
    expect(await titles(`${items}?bbox=2,48,3,49`)).toEqual(['Bistro', 'Café Rouge']);
    expect(await titles(`${items}?bbox=-0.11,51,0,52`)).toEqual(['Walk']);
    expect(await titles(`${items}?datetime=2024-06-01T00:00:00Z/..`)).toEqual(['Café Rouge', 'Tiergarten']);
    expect(await titles(`${items}?datetime=2024-07-15`)).toEqual(['Tiergarten']);
    expect(await titles(`${items}?datetime=../2024-05-31T00:00:00Z`)).toEqual(['Bistro']);
    expect(await titles(`${items}?stars=4`)).toEqual(['Bistro', 'Walk']);
    expect(await titles(`${items}?stars=4&open=true`)).toEqual(['Bistro']);
    // A filter that keeps few of many rows still pages: 10 of 21, 3 a page.
    expect(await titles(`${items}?kind=odd&limit=3`)).toEqual(Array.from({ length: 10 }, (_, i) => `Extra ${2 * i + 1}`));
    expect(await titles(`${items}?kind=odd&limit=3&offset=8`)).toEqual(['Extra 17', 'Extra 19']);

    const one = await getJson(`${items}/${all[1]!.id}`);
    expect(ogcSchemaErrors('featureGeoJSON', one.body)).toBe('');
    expect(one.body.properties.title).toBe('Café Rouge');
    expect((one.body.links as Json[]).map((l) => l.rel)).toEqual(expect.arrayContaining(['self', 'collection']));
    expect((await getJson(`${publicMap.url}/ogc/collections/group-1/items/${all[1]!.id}`)).status).toBe(200);
    expect((await getJson(`${publicMap.url}/ogc/collections/group-parks/items/${all[1]!.id}`)).status).toBe(404);
  });

  it('ends a page at 8 MB of features, and goes on from there by its next link', async () => {
    // Five features of 3 MB: two a page (6 MB; a third would pass 8 MB), then two, then one.
    const long = 'x'.repeat(3 * 1024 * 1024);
    const heavy = { type: 'FeatureCollection', features: Array.from({ length: 5 }, (_, i) => point(i, i, { title: `Heavy ${i}`, kind: 'heavy', note: long })) };
    const map = await service.send('map/upload', owner.key, { file_type: 'geojson', visibility: 'public', title: 'Heavy' }, JSON.stringify(heavy));
    expect(map.error).toBeUndefined();
    const sizes: number[] = [];
    for (let next: string | undefined = `${map.url}/ogc/collections/map/items?limit=10`; next; ) {
      const page = await getJson(next);
      sizes.push(page.body.numberReturned);
      next = (page.body.links as Json[]).find((l) => l.rel === 'next' && l.type === 'application/geo+json')?.href;
    }
    expect(sizes).toEqual([2, 2, 1]);
    // With a filter (read in batches) the same way.
    const filtered: number[] = [];
    for (let next: string | undefined = `${map.url}/ogc/collections/map/items?limit=10&kind=heavy`; next; ) {
      const page = await getJson(next);
      filtered.push(page.body.numberReturned);
      next = (page.body.links as Json[]).find((l) => l.rel === 'next' && l.type === 'application/geo+json')?.href;
    }
    expect(filtered).toEqual([2, 2, 1]);
  });

  it('answers bad input with the standard exception and 400 or 404, never 500', async () => {
    const items = `${publicMap.url}/ogc/collections/map/items`;
    for (const [url, status] of [
      [`${items}?bbox=1,2,3`, 400],
      [`${items}?bbox=0,50,1,40`, 400],
      [`${items}?bbox=a,b,c,d`, 400],
      [`${items}?bbox=0,0,1,95`, 400],
      [`${items}?limit=0`, 400],
      [`${items}?limit=10001`, 400],
      [`${items}?limit=ten`, 400],
      [`${items}?offset=-1`, 400],
      [`${items}?datetime=yesterday`, 400],
      [`${items}?datetime=2024-02-30`, 400],
      [`${items}?datetime=2024-05-01/2024-04-01`, 400],
      [`${items}?datetime=../..`, 400],
      [`${items}?limit=1&limit=2`, 400],
      [`${items}?f=xml`, 400],
      [`${publicMap.url}/ogc/collections/nope`, 404],
      [`${publicMap.url}/ogc/collections/group-9/items`, 404],
      [`${items}/999999`, 404],
      [`${items}/abc`, 404],
      [`${service.url}/${owner.username}/no-such-map/ogc`, 404],
      [`${service.url}/maps/123/ogc/collections`, 404],
    ] as const) {
      const answer = await getJson(url);
      expect([url, answer.status]).toEqual([url, status]);
      expect(ogcSchemaErrors('exception', answer.body)).toBe('');
      expect(typeof answer.body.description).toBe('string');
    }
    expect(service.internalErrors).toEqual([]);
  });

  it('shows a private map only with its owner key, an unlisted map by its keyed address', async () => {
    const base = `${privateMap.url}/ogc`;
    expect((await getJson(`${base}/collections`)).status).toBe(404);
    expect((await getJson(`${base}/collections`, 'mps_notakey')).status).toBe(404);
    const other = await service.newUser();
    expect((await getJson(`${base}/collections`, other.key)).status).toBe(404);
    const withKey = await readAll(`${base}/collections/map/items`, owner.key);
    expect(withKey).toHaveLength(25);
    // The same map by its id.
    expect((await getJson(`${service.url}/maps/${privateMap.id}/ogc/collections/map/items?limit=1`, owner.key)).body.features).toHaveLength(1);

    const unlisted = await service.send('map/upload', owner.key, { file_type: 'geojson', visibility: 'unlisted', title: 'Hidden' }, JSON.stringify(document));
    expect((await readAll(`${unlisted.url}/ogc/collections/map/items`)).length).toBe(25);
    const plain = (unlisted.url as string).replace(/~[A-Z]+$/, '');
    expect((await getJson(`${plain}/ogc`)).status).toBe(404);
  });

  it('sends the address from before a rename on to the new one, path and query kept', async () => {
    const map = await service.send('map/upload', owner.key, { file_type: 'geojson', visibility: 'public', title: 'Renamed' }, JSON.stringify(document));
    const renamed = await service.call('map/update', owner.key, { map_id: map.id, short_name: `moved-${map.id}` });
    expect(renamed.error).toBeUndefined();
    const response = await fetch(`${map.url}/ogc/collections/map/items?limit=2`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(`/${owner.username}/moved-${map.id}/ogc/collections/map/items?limit=2`);
  });

  it('answers HTML to a browser', async () => {
    const response = await fetch(`${publicMap.url}/ogc/collections/map/items?limit=2`, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await response.text();
    expect(html).toContain('Bistro');
    // The next page's link, to follow in the browser.
    expect(html).toMatch(/<a href="[^"]*\/ogc\/collections\/map\/items\?limit=2&amp;offset=2&amp;cursor=\d+&amp;f=html">The next page as HTML<\/a>/);
  });
});

describe('GDAL reading a map over OAPIF', () => {
  const ogr2ogr = async (url: string, options: string[] = []) => {
    const out = path.join(work, `${Math.random().toString(36).slice(2)}.geojson`);
    await run('ogr2ogr', ['-f', 'GeoJSON', ...options, out, `OAPIF:${url}`, 'map'], { timeout: 600_000, maxBuffer: 64 * 1024 * 1024 });
    return JSON.parse(fs.readFileSync(out, 'utf8')) as { features: Json[] };
  };

  it('ogrinfo lists the collections and ogr2ogr copies a public map whole', async () => {
    const { stdout } = await run('ogrinfo', ['-ro', '-so', `OAPIF:${publicMap.url}/ogc`]);
    for (const layer of ['map', 'group-1', 'group-2', 'group-parks']) expect(stdout).toContain(`: ${layer}`);
    const info = await run('ogrinfo', ['-ro', '-so', `OAPIF:${publicMap.url}/ogc`, 'map']);
    expect(info.stdout).toContain('Feature Count: 25');
    const copied = await ogr2ogr(`${publicMap.url}/ogc`);
    expect(copied.features.map((f) => f.properties.title)).toEqual(document.features.map((f) => f.properties.title));
  }, 60_000);

  it('reads a private map with the key in a header, and nothing without it', async () => {
    await expect(run('ogrinfo', ['-ro', '-so', `OAPIF:${privateMap.url}/ogc`])).rejects.toThrow();
    const info = await run('ogrinfo', ['--config', 'GDAL_HTTP_HEADERS', `Authorization: Token ${owner.key}`, '-ro', '-so', `OAPIF:${privateMap.url}/ogc`, 'map']);
    expect(info.stdout).toContain('Feature Count: 25');
    const copied = await ogr2ogr(`${privateMap.url}/ogc`, ['--config', 'GDAL_HTTP_HEADERS', `Authorization: Token ${owner.key}`]);
    expect(copied.features).toHaveLength(25);
  }, 60_000);

  it('reads a 200,000-feature map completely', async () => {
    const count = 200_000;
    const big = {
      type: 'FeatureCollection',
      features: Array.from({ length: count }, (_, i) => point(((i * 0.0017) % 360) - 180, ((i * 0.0009) % 170) - 85, { title: `P${i}` })),
    };
    const map = await service.send('map/upload', owner.key, { file_type: 'geojson', visibility: 'public', title: 'Big' }, JSON.stringify(big));
    expect(map.error).toBeUndefined();
    const copied = await ogr2ogr(`${map.url}/ogc`, ['-oo', 'PAGE_SIZE=10000']);
    expect(copied.features).toHaveLength(count);
    expect(copied.features[0]!.properties.title).toBe('P0');
    expect(copied.features[count - 1]!.properties.title).toBe(`P${count - 1}`);
    expect(new Set(copied.features.map((f) => f.properties.title)).size).toBe(count);
  }, 600_000);
});
