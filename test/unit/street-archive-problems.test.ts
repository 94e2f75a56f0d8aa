// Archives the service must refuse at start (lib/streetArchive/), each with a message naming
// BASEMAP_TILES, the archive and the problem: missing, unreadable, not PMTiles, damaged or cut
// short, raster tiles, another schema; and archives it takes as they are: bounds in the header,
// uncompressed tiles, leaf directories.
import fs from 'node:fs';
import zlib from 'node:zlib';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../lib/config.js';
import { openStreetArchive, type StreetArchiveLocation } from '../../lib/streetArchive/index.js';
import { startS3Server, TEST_CREDENTIALS, type S3TestServer } from '../support/s3Server.js';
import { FIXTURE_TILES, fileOf, removeTestArchives, rewrittenArchive, startRangeServer, streetFixture } from '../support/streetArchives.js';

const MB = 1024 * 1024;
let fixtureBytes: Buffer;
beforeAll(() => {
  fixtureBytes = fs.readFileSync(streetFixture());
}, 180_000);
afterAll(() => removeTestArchives());

async function refusal(location: StreetArchiveLocation): Promise<string> {
  try {
    const archive = await openStreetArchive(location, MB);
    await archive.close();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('the archive was accepted');
}

const file = (path: string): StreetArchiveLocation => ({ kind: 'file', path });
/** The fixture's bytes with some overwritten. */
const damaged = (offset: number, bytes: number[]): string => {
  const copy = Buffer.from(fixtureBytes);
  Buffer.from(bytes).copy(copy, offset);
  return fileOf(copy);
};
/** Where the header puts a section: [offset, length] (little-endian 64-bit numbers at 8, 16 … 64). */
const section = (at: number): [number, number] => [Number(fixtureBytes.readBigUInt64LE(at)), Number(fixtureBytes.readBigUInt64LE(at + 8))];

describe('archives refused at start', () => {
  it('a file that is not there, a folder, a file that is not an archive', async () => {
    expect(await refusal(file('/no/such/basemap.pmtiles'))).toBe('BASEMAP_TILES: /no/such/basemap.pmtiles: there is no such file');
    const folder = fileOf(Buffer.alloc(0)).replace(/\/[^/]+$/, '');
    expect(await refusal(file(folder))).toBe(`BASEMAP_TILES: ${folder}: is not a file`);
    expect(await refusal(file(fileOf(Buffer.from('{"type": "FeatureCollection"}'))))).toMatch(/: is not a PMTiles archive \(it does not start with the PMTiles signature\)$/);
    expect(await refusal(file(fileOf(Buffer.alloc(0))))).toMatch(/is not a PMTiles archive/);
    const version2 = Buffer.from(fixtureBytes);
    version2[7] = 2;
    expect(await refusal(file(fileOf(version2)))).toMatch(/is a PMTiles archive of version 2; the service reads version 3/);
  });

  it('an archive cut short or damaged', async () => {
    expect(await refusal(file(fileOf(fixtureBytes.subarray(0, 100_000))))).toMatch(/: is truncated: bytes \d+–\d+ are past its end$/);
    const [rootOffset, rootLength] = section(8);
    expect(await refusal(file(fileOf(fixtureBytes.subarray(0, rootOffset + 10))))).toMatch(/is truncated: it ends inside its root directory/);
    expect(await refusal(file(damaged(rootOffset, Array(rootLength).fill(0xff))))).toMatch(/: its root directory cannot be read \(/);
    const [metadataOffset] = section(24);
    expect(await refusal(file(damaged(metadataOffset + 12, Array(40).fill(0xaa))))).toMatch(/: its metadata cannot be read \(/);
  });

  it('raster tiles, another schema, no layer list, a compression it does not read', async () => {
    expect(await refusal(file(rewrittenArchive({ header: { tile_type: 2 } })))).toMatch(/: holds PNG tiles, not Mapbox vector tiles \(MVT\) in the OpenMapTiles schema$/);
    const protomaps = { vector_layers: ['earth', 'water', 'landuse', 'roads', 'buildings', 'places', 'pois', 'boundaries'].map((id) => ({ id, fields: {} })) };
    expect(await refusal(file(rewrittenArchive({ metadata: protomaps })))).toMatch(
      /: is not in the OpenMapTiles schema: it lacks the layers waterway, landcover, park, boundary, transportation, transportation_name, building, housenumber, place, water_name, poi \(it has earth, water, landuse, roads, buildings, places, pois, boundaries\)$/,
    );
    expect(await refusal(file(rewrittenArchive({ metadata: { name: 'tiles' } })))).toMatch(/: its metadata lists no vector_layers, so its schema cannot be told/);
    expect(await refusal(file(rewrittenArchive({ header: { tile_compression: 3 } })))).toMatch(/: its tiles are compressed with brotli; the service reads gzip or uncompressed tiles$/);
  });

  describe('on S3 and at a URL', () => {
    let s3: S3TestServer;
    beforeAll(async () => {
      s3 = await startS3Server();
    }, 180_000);
    afterAll(() => s3?.stop());
    const at = (bucket: string, key: string): StreetArchiveLocation => ({ kind: 's3', bucket, key, connection: { endpoint: s3.endpoint, region: 'us-east-1', credentials: TEST_CREDENTIALS } });

    it('an object or bucket that is not there, an object that is not an archive', async () => {
      expect(await refusal(at(s3.bucket, 'nothing.pmtiles'))).toBe(`BASEMAP_TILES: s3://${s3.bucket}/nothing.pmtiles: there is no such object in the bucket`);
      expect(await refusal(at('no-such-bucket', 'a.pmtiles'))).toBe('BASEMAP_TILES: s3://no-such-bucket/a.pmtiles: the bucket does not exist');
      await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: 'cut.pmtiles', Body: fixtureBytes.subarray(0, 100_000) }));
      expect(await refusal(at(s3.bucket, 'cut.pmtiles'))).toMatch(/cut\.pmtiles: is truncated/);
      await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: 'empty.pmtiles', Body: Buffer.alloc(0) }));
      expect(await refusal(at(s3.bucket, 'empty.pmtiles'))).toMatch(/empty\.pmtiles: is not a PMTiles archive/);
    });

    it('a URL that answers 404, a server that is not there (never naming the query, which may sign it)', async () => {
      const server = await startRangeServer(fixtureBytes);
      try {
        expect(await refusal({ kind: 'url', url: server.url.replace('archive', 'other') + '?X-Amz-Signature=secret' })).toBe(
          `BASEMAP_TILES: ${server.url.replace('archive', 'other')}: the server answered HTTP 404`,
        );
      } finally {
        await server.stop();
      }
      const message = await refusal({ kind: 'url', url: server.url });
      expect(message).toMatch(/: cannot be read: .*ECONNREFUSED/);
    });
  });
});

describe('archives taken as they are', () => {
  it('bounds from the header when it has them', async () => {
    const archive = await openStreetArchive(file(rewrittenArchive({ header: { min_lon_e7: 249_000_000, min_lat_e7: 601_600_000, max_lon_e7: 250_000_000, max_lat_e7: 601_900_000 } })), MB);
    expect(archive.info).toMatchObject({ bounds: [24.9, 60.16, 25, 60.19], boundsFrom: 'header' });
    await archive.close();
  });

  it('uncompressed tiles, served as they are', async () => {
    const archive = await openStreetArchive(file(rewrittenArchive({ tiles: 'none' })), MB);
    expect(archive.info.tileCompression).toBe('none');
    const [z, x, y] = FIXTURE_TILES.z14[1];
    const tile = await archive.storedTile(z, x, y);
    const gzipped = await openStreetArchive(file(streetFixture()), MB);
    const original = (await gzipped.storedTile(z, x, y)) as { bytes: Uint8Array };
    expect(Buffer.compare((tile as { bytes: Uint8Array }).bytes, zlib.gunzipSync(original.bytes))).toBe(0);
    expect(await archive.decodedTile(z, x, y)).toEqual((tile as { bytes: Uint8Array }).bytes);
    await Promise.all([archive.close(), gzipped.close()]);
  });

  it('leaf directories: tiles and, from them, bounds', async () => {
    const leaves = await openStreetArchive(file(rewrittenArchive({ leaf_size: 3 })), MB);
    const root = await openStreetArchive(file(streetFixture()), MB);
    expect(leaves.info.bounds).toEqual(root.info.bounds);
    for (const [z, x, y] of [...FIXTURE_TILES.z14, FIXTURE_TILES.world, FIXTURE_TILES.empty]) {
      expect(await leaves.storedTile(z, x, y), `${z}/${x}/${y}`).toEqual(await root.storedTile(z, x, y));
    }
    await Promise.all([leaves.close(), root.close()]);
  });
});
