// The built-in basemaps over HTTP (/basemaps/…): styles, tiles and the labels' font, public and
// cached by ETag; 404s for every other path under /basemaps/, ahead of the map routes.
import { VectorTile } from '@mapbox/vector-tile';
import { validateStyleMin, type StyleSpecification, type VectorSourceSpecification } from '@maplibre/maplibre-gl-style-spec';
import { PbfReader } from 'pbf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './harness.js';

let service: TestService;
beforeAll(async () => {
  // Basemap files need no job: no worker polls.
  service = await startTestService({ worker: false });
});
afterAll(() => service.stop());

const tilesUrlOf = (style: StyleSpecification) => (style.sources['natural-earth'] as VectorSourceSpecification).tiles![0]!;
const get = (path: string, headers: Record<string, string> = {}, method = 'GET') => fetch(`${service.url}${path}`, { method, headers });

async function expectNotFound(path: string): Promise<void> {
  const response = await get(path);
  expect(response.status, path).toBe(404);
  expect(await response.json(), path).toMatchObject({ error_code: 'basemap_not_found' });
}

/** GET, then the same with its ETag (304), then HEAD (the headers, no body). */
async function expectCached(path: string, cacheControl: string): Promise<Response> {
  const response = await get(path);
  expect(response.status, path).toBe(200);
  expect(response.headers.get('cache-control')).toBe(cacheControl);
  expect(response.headers.get('access-control-allow-origin')).toBe('*');
  const etag = response.headers.get('etag')!;
  expect(etag).toMatch(/^"[\w-]+"$/);
  const again = await get(path, { 'if-none-match': etag });
  expect([again.status, again.headers.get('etag')]).toEqual([304, etag]);
  const head = await get(path, {}, 'HEAD');
  expect([head.status, head.headers.get('content-length'), (await head.arrayBuffer()).byteLength]).toEqual([200, response.headers.get('content-length'), 0]);
  return response;
}

describe('basemap styles', () => {
  it('serves each built-in style, valid, with tiles under the public URL, revalidated by ETag', async () => {
    for (const id of ['classic', 'light', 'dark']) {
      const response = await expectCached(`/basemaps/${id}/style.json`, 'no-cache');
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const style = (await response.json()) as StyleSpecification;
      expect(validateStyleMin(style)).toEqual([]);
      expect(tilesUrlOf(style)).toMatch(new RegExp(`^${service.config.publicUrl}/basemaps/tiles/\\{z\\}/\\{x\\}/\\{y\\}\\.pbf\\?v=`));
    }
  });

  it('answers 404 basemap_not_found for commercial and unknown basemaps', async () => {
    for (const id of ['mapbox-streets', 'nope', 'constructor', '__proto__']) await expectNotFound(`/basemaps/${id}/style.json`);
  });
});

describe('basemap tiles', () => {
  it('serves a tile the style names, decodable, cached for a day', async () => {
    const style = (await (await get('/basemaps/classic/style.json')).json()) as StyleSpecification;
    const url = new URL(tilesUrlOf(style).replace('{z}/{x}/{y}', '0/0/0'));
    const response = await expectCached(url.pathname + url.search, 'public, max-age=86400');
    expect(response.headers.get('content-type')).toBe('application/x-protobuf');
    const tile = new VectorTile(new PbfReader(new Uint8Array(await response.arrayBuffer())));
    expect(Object.keys(tile.layers).sort()).toEqual(['borders', 'country_labels', 'land']);
  });

  it('serves Paris in its zoom-6 tile and open ocean as an empty tile', async () => {
    const paris = await get('/basemaps/tiles/6/32/22.pbf');
    const tile = new VectorTile(new PbfReader(new Uint8Array(await paris.arrayBuffer())));
    const capitals = Array.from({ length: tile.layers.capitals!.length }, (_, i) => tile.layers.capitals!.feature(i).properties.name);
    expect(capitals).toContain('Paris');
    const ocean = await get('/basemaps/tiles/6/26/39.pbf');
    expect([ocean.status, ocean.headers.get('content-length'), ocean.headers.get('content-type')]).toEqual([200, '0', 'application/x-protobuf']);
  });

  it('answers 404 outside zoom 0–6 and its grid, and for addresses that are not numbers', async () => {
    for (const path of ['7/0/0', '0/1/0', '0/0/1', '3/8/0', '-1/0/0', '1/0/-1', '1.0/0/0', '0x1/0/0', '1e0/0/0', '00000/0/0', 'a/b/c']) {
      await expectNotFound(`/basemaps/tiles/${path}.pbf`);
    }
    await expectNotFound('/basemaps/tiles/0/0/0.png');
  });
});

describe('basemap font', () => {
  it('serves a stylesheet naming only files that are served, woff2 files that are woff2', async () => {
    const css = await expectCached('/basemaps/fonts/noto-sans.css', 'public, max-age=86400');
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    const urls = [...(await css.text()).matchAll(/url\(([^)]+)\)/g)].map((match) => match[1]!);
    expect(urls).toHaveLength(8);
    for (const url of urls) {
      const file = await get(new URL(url, `${service.url}/basemaps/fonts/noto-sans.css`).pathname);
      expect([file.status, file.headers.get('content-type'), file.headers.get('cache-control')]).toEqual([200, 'font/woff2', 'public, max-age=86400']);
      expect(Buffer.from(await file.arrayBuffer()).subarray(0, 4).toString('latin1')).toBe('wOF2');
    }
    await expectCached(`/basemaps/fonts/${urls[0]}`, 'public, max-age=86400');
  });

  it('serves no other file: no other subset, no traversal', async () => {
    for (const path of [
      'noto-sans-vietnamese-400-normal.woff2',
      'noto-sans-latin-400-normal.woff',
      '..%2Fpackage.json',
      '..%2F..%2F..%2Fpackage.json',
      '%2E%2E%2Fpackage.json',
      '..%5Cpackage.json',
      'files%2Fnoto-sans-latin-400-normal.woff2',
    ]) {
      await expectNotFound(`/basemaps/fonts/${path}`);
    }
  });
});

describe('the /basemaps/ paths', () => {
  it('are never read as an owner and a map', async () => {
    // The map routes would answer map_not_found (or a map's image) for /:owner/:shortName/static.png.
    for (const path of ['/basemaps/tiles/static.png', '/basemaps/fonts/thumbnail.png', '/basemaps/classic/static.png', '/basemaps/x', '/basemaps/']) {
      await expectNotFound(path);
    }
  });
});
