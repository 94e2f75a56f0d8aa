// The street map archive's tiles over HTTP (GET/HEAD /basemaps/osm/<identity>/<z>/<x>/<y>.mvt),
// one contract for an archive in a local file and in S3 (moto on loopback): Mapbox vector tiles
// with the archive's gzip passed through byte for byte to a client that accepts it and inflated
// for one that does not, strong ETags per encoding, a day's caching with stale-while-revalidate,
// 304s, HEAD, 204 for an empty place inside the zooms, 404 past them and for another archive's
// identity; a 503 when the archive cannot be read. Without BASEMAP_TILES there is no such route,
// and the Natural Earth files are served as before either way.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import zlib from 'node:zlib';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config.js';
import { divertLogs } from '../../lib/observability/logger.js';
import { openConfiguredStreetArchive } from '../../lib/streetArchive/index.js';
import { startS3Server, type S3TestServer } from '../support/s3Server.js';
import { FIXTURE_TILES, fixtureTiles, streetFixture } from '../support/streetArchives.js';
import { startTestService, type TestService } from './harness.js';

let s3: S3TestServer;
let expectedTiles: ReturnType<typeof fixtureTiles>;
beforeAll(async () => {
  expectedTiles = fixtureTiles();
  s3 = await startS3Server();
  await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: 'osm/helsinki.pmtiles', Body: fs.readFileSync(streetFixture()) }));
}, 180_000);
afterAll(() => s3?.stop());

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A request with exactly these headers (fetch would add Accept-Encoding and inflate the answer itself). */
function request(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    http
      .request(url, { method, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject)
      .end();
  });
}

const settings: Record<string, () => Record<string, string>> = {
  'a local file': () => ({ BASEMAP_TILES: streetFixture() }),
  'an S3 object': () => {
    const { S3_ENDPOINT, S3_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY } = s3.env('');
    return { BASEMAP_TILES: `s3://${s3.bucket}/osm/helsinki.pmtiles`, S3_ENDPOINT: S3_ENDPOINT!, S3_REGION: S3_REGION!, AWS_ACCESS_KEY_ID: AWS_ACCESS_KEY_ID!, AWS_SECRET_ACCESS_KEY: AWS_SECRET_ACCESS_KEY! };
  },
};

describe.each(Object.keys(settings))('street tiles from %s', (kind) => {
  let service: TestService;
  let identity: string;
  const tileUrl = (z: number, x: number, y: number, id = identity) => `${service.url}/basemaps/osm/${id}/${z}/${x}/${y}.mvt`;

  beforeAll(async () => {
    const { basemapTiles } = loadConfig(settings[kind]!());
    service = await startTestService({ worker: false, config: { basemapTiles } });
    // The identity as the archive's own module reports it (the style will name it the same way).
    const archive = (await openConfiguredStreetArchive(service.config))!;
    identity = archive.info.identity;
    await archive.close();
  });
  afterAll(() => service?.stop());

  it('passes the stored gzip through to a client that accepts it, with a day of caching and a strong ETag', async () => {
    for (const { z, x, y, length, sha256 } of expectedTiles) {
      const answer = await request(tileUrl(z, x, y), { 'accept-encoding': 'gzip, deflate, br' });
      expect(answer.status, `${z}/${x}/${y}`).toBe(200);
      expect(answer.headers).toMatchObject({
        'content-type': 'application/vnd.mapbox-vector-tile',
        'content-encoding': 'gzip',
        'cache-control': 'public, max-age=86400, stale-while-revalidate=604800',
        vary: 'Accept-Encoding',
        'access-control-allow-origin': '*',
        etag: `"osm-${identity}-${z}-${x}-${y}-gzip"`,
      });
      // Byte for byte what the archive holds (as the PyPI package's reader finds it): not inflated and deflated again.
      expect([answer.body.length, Number(answer.headers['content-length'])]).toEqual([length, length]);
      expect(createHash('sha256').update(answer.body).digest('hex')).toBe(sha256);
    }
  });

  it('inflates the tile for a client that does not accept gzip, under an ETag of its own', async () => {
    const [z, x, y] = FIXTURE_TILES.z14[3];
    const gzipped = await request(tileUrl(z, x, y), { 'accept-encoding': 'gzip' });
    for (const headers of [{}, { 'accept-encoding': 'identity' }, { 'accept-encoding': 'gzip;q=0, br' }] as Record<string, string>[]) {
      const answer = await request(tileUrl(z, x, y), headers);
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBeUndefined();
      expect(answer.headers.etag).toBe(`"osm-${identity}-${z}-${x}-${y}"`);
      expect(answer.headers.vary).toBe('Accept-Encoding');
      expect(Buffer.compare(answer.body, zlib.gunzipSync(gzipped.body))).toBe(0);
      const tile = new VectorTile(new PbfReader(answer.body));
      expect(Object.keys(tile.layers)).toEqual(expect.arrayContaining(['transportation', 'building', 'water']));
    }
  });

  it('answers a revalidation with 304 and HEAD with the headers alone', async () => {
    const [z, x, y] = FIXTURE_TILES.z14[0];
    const first = await request(tileUrl(z, x, y), { 'accept-encoding': 'gzip' });
    const again = await request(tileUrl(z, x, y), { 'accept-encoding': 'gzip', 'if-none-match': first.headers.etag! });
    expect([again.status, again.headers.etag, again.body.length]).toEqual([304, first.headers.etag, 0]);
    // The inflated tile's ETag does not revalidate the gzip one, nor the other way round.
    const other = await request(tileUrl(z, x, y), { 'if-none-match': first.headers.etag! });
    expect(other.status).toBe(200);
    const head = await request(tileUrl(z, x, y), { 'accept-encoding': 'gzip' }, 'HEAD');
    expect([head.status, head.headers['content-length'], head.headers['content-encoding'], head.headers.etag, head.body.length]).toEqual([200, first.headers['content-length'], 'gzip', first.headers.etag, 0]);
  });

  it('answers 204 for an empty place inside the zooms, 404 past them, outside the grid and for another archive', async () => {
    const [z, x, y] = FIXTURE_TILES.empty;
    const empty = await request(tileUrl(z, x, y), { 'accept-encoding': 'gzip' });
    expect([empty.status, empty.body.length, empty.headers['cache-control'], empty.headers.etag]).toEqual([204, 0, 'public, max-age=86400, stale-while-revalidate=604800', `"osm-${identity}-${z}-${x}-${y}-gzip"`]);
    for (const url of [tileUrl(15, 18654, 9484), tileUrl(2, 4, 0), tileUrl(0, 0, 0, '0123456789abcdef'), `${service.url}/basemaps/osm/${identity}/0/0/0.pbf`, `${service.url}/basemaps/osm/${identity}/a/0/0.mvt`]) {
      const answer = await request(url);
      expect(answer.status, url).toBe(404);
      expect(JSON.parse(answer.body.toString())).toMatchObject({ error_code: 'basemap_not_found' });
    }
  });

  it('still serves the Natural Earth tiles and styles', async () => {
    expect((await request(`${service.url}/basemaps/tiles/0/0/0.pbf`)).status).toBe(200);
    expect((await request(`${service.url}/basemaps/classic/style.json`)).status).toBe(200);
  });

  it('names its tiles by the identity in every built-in style, with their zooms and bounds', async () => {
    for (const id of ['classic', 'light', 'dark']) {
      const style = JSON.parse((await request(`${service.url}/basemaps/${id}/style.json`)).body.toString()) as { sources: Record<string, { tiles: string[]; maxzoom: number; bounds: number[] }> };
      expect(style.sources.openstreetmap).toMatchObject({ tiles: [`${service.url}/basemaps/osm/${identity}/{z}/{x}/{y}.mvt`], maxzoom: 14 });
      expect(style.sources.openstreetmap!.bounds.map((value) => Math.round(value * 100) / 100)).toEqual([24.92, 60.16, 24.96, 60.19]);
      expect(Object.keys(style.sources)).toEqual(['natural-earth', 'openstreetmap']);
    }
  });
});

describe('street tiles of an archive that cannot be read any more', () => {
  it('are a 503 basemap_unavailable, not cached, logged', async () => {
    const key = 'osm/replaced.pmtiles';
    await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: fs.readFileSync(streetFixture()) }));
    const { basemapTiles } = loadConfig({ ...settings['an S3 object']!(), BASEMAP_TILES: `s3://${s3.bucket}/${key}` });
    // No tile kept in memory: each request reads the object.
    const service = await startTestService({ worker: false, config: { basemapTiles, basemapTileCacheBytes: 0 } });
    const lines: { msg: string; err?: { message: string } }[] = [];
    const restoreLogs = divertLogs((line) => lines.push(JSON.parse(line)));
    try {
      const archive = (await openConfiguredStreetArchive(service.config))!;
      await archive.close();
      const url = `${service.url}/basemaps/osm/${archive.info.identity}/14/9327/4742.mvt`;
      expect((await request(url)).status).toBe(200);
      await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: Buffer.from('another file') }));
      const answer = await request(url);
      expect([answer.status, answer.headers['cache-control'], answer.headers['retry-after']]).toEqual([503, 'no-store', '30']);
      expect(JSON.parse(answer.body.toString())).toMatchObject({ error_code: 'basemap_unavailable' });
      expect(lines).toContainEqual(
        expect.objectContaining({ msg: 'The street map archive could not be read for tile 14/9327/4742', err: expect.objectContaining({ message: expect.stringMatching(/changed since the service started/) }) }),
      );
    } finally {
      restoreLogs();
      await service.stop();
    }
  });
});

describe('without BASEMAP_TILES', () => {
  it('there are no street tiles, and the Natural Earth files are served', async () => {
    const service = await startTestService({ worker: false });
    try {
      expect(service.config.basemapTiles).toBeUndefined();
      const answer = await request(`${service.url}/basemaps/osm/0123456789abcdef/0/0/0.mvt`);
      expect([answer.status, JSON.parse(answer.body.toString()).error_code]).toEqual([404, 'basemap_not_found']);
      expect((await request(`${service.url}/basemaps/tiles/0/0/0.pbf`)).status).toBe(200);
      const style = JSON.parse((await request(`${service.url}/basemaps/classic/style.json`)).body.toString()) as { sources: object };
      expect(Object.keys(style.sources)).toEqual(['natural-earth']);
    } finally {
      await service.stop();
    }
  });
});
