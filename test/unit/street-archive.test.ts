// The street map archive (lib/streetArchive/) read from a local file, from S3 (moto's server on
// loopback) and from a URL (a loopback server of byte ranges): one contract for the three — the
// same identity, zooms and bounds (from the tiles: the fixture's header has zeros), every tile
// as stored (the bytes the PyPI package's own reader finds), inflated for the renderer, empty
// places and addresses outside the zooms told apart, the recent tiles' cache within its bytes —
// and what each does when the archive changes under it.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import zlib from 'node:zlib';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStreetArchive, OPENMAPTILES_LAYERS, type StreetArchive, type StreetArchiveLocation } from '../../lib/streetArchive/index.js';
import { startS3Server, TEST_CREDENTIALS, type S3TestServer } from '../support/s3Server.js';
import { FIXTURE_TILES, fileOf, fixtureTiles, removeTestArchives, startRangeServer, streetFixture, type RangeServer } from '../support/streetArchives.js';

const MB = 1024 * 1024;
let fixture: string;
let fixtureBytes: Buffer;
let expectedTiles: ReturnType<typeof fixtureTiles>;
let s3: S3TestServer;
let web: RangeServer;

beforeAll(async () => {
  fixture = streetFixture();
  fixtureBytes = fs.readFileSync(fixture);
  expectedTiles = fixtureTiles();
  [s3, web] = await Promise.all([startS3Server(), startRangeServer(fixtureBytes)]);
  await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: 'osm/helsinki.pmtiles', Body: fixtureBytes }));
}, 180_000);
afterAll(async () => {
  await Promise.all([s3?.stop(), web?.stop()]);
  removeTestArchives();
});

const locations: Record<string, () => StreetArchiveLocation> = {
  'a local file': () => ({ kind: 'file', path: fixture }),
  'an S3 object': () => ({ kind: 's3', bucket: s3.bucket, key: 'osm/helsinki.pmtiles', connection: { endpoint: s3.endpoint, region: 'us-east-1', credentials: TEST_CREDENTIALS } }),
  'a URL': () => ({ kind: 'url', url: web.url }),
};

/** Web Mercator tile edges, for the bounds of tiles x 9326–9327, y 4741–4742 at zoom 14. */
const lon = (x: number) => (x / 2 ** 14) * 360 - 180;
const lat = (y: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / 2 ** 14))) * 180) / Math.PI;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe.each(Object.keys(locations))('the street archive from %s', (kind) => {
  let archive: StreetArchive;
  beforeAll(async () => {
    archive = await openStreetArchive(locations[kind]!(), 8 * MB);
  });
  afterAll(() => archive?.close());

  it('knows its identity, zooms, layers and, from its tiles, its bounds', async () => {
    const fromFile = await openStreetArchive(locations['a local file']!(), MB);
    expect(archive.info.identity).toMatch(/^[0-9a-f]{16}$/);
    expect(archive.info.identity).toBe(fromFile.info.identity);
    await fromFile.close();
    expect(archive.info).toMatchObject({ minZoom: 0, maxZoom: 14, boundsFrom: 'tiles', tileCompression: 'gzip' });
    const [west, south, east, north] = archive.info.bounds;
    expect(west).toBeCloseTo(lon(9326), 9);
    expect(east).toBeCloseTo(lon(9328), 9);
    expect(north).toBeCloseTo(lat(4741), 9);
    expect(south).toBeCloseTo(lat(4743), 9);
    expect(archive.info.vectorLayers.map((layer) => layer.id)).toEqual(expect.arrayContaining([...OPENMAPTILES_LAYERS]));
    expect(archive.tileUrlTemplate('https://maps.example.com')).toBe(`https://maps.example.com/basemaps/osm/${archive.info.identity}/{z}/{x}/{y}.mvt`);
  });

  it('hands every tile back as stored, and inflated for drawing', async () => {
    expect(expectedTiles).toHaveLength(19);
    for (const { z, x, y, length, sha256: digest } of expectedTiles) {
      const tile = await archive.storedTile(z, x, y);
      expect(tile.status, `${z}/${x}/${y}`).toBe('tile');
      const bytes = (tile as { bytes: Uint8Array }).bytes;
      expect([bytes.byteLength, sha256(bytes)], `${z}/${x}/${y}`).toEqual([length, digest]);
      expect(Buffer.from(bytes.subarray(0, 2)).toString('hex')).toBe('1f8b'); // gzip, as stored
      const decoded = (await archive.decodedTile(z, x, y))!;
      expect(Buffer.compare(decoded, zlib.gunzipSync(bytes))).toBe(0);
    }
    const street = new VectorTile(new PbfReader((await archive.decodedTile(14, 9327, 4742))!));
    expect(Object.keys(street.layers)).toEqual(expect.arrayContaining(['transportation', 'building', 'transportation_name', 'poi']));
    const road = street.layers.transportation!.feature(0);
    expect(road.properties.class).toBeTypeOf('string');
  });

  it('tells an empty place inside its zooms from an address outside them', async () => {
    const [z, x, y] = FIXTURE_TILES.empty;
    expect(await archive.storedTile(z, x, y)).toEqual({ status: 'empty' });
    expect(await archive.decodedTile(z, x, y)).toBeUndefined();
    expect(await archive.storedTile(15, 18654, 9484)).toEqual({ status: 'outside' });
    expect(await archive.storedTile(3, 8, 0)).toEqual({ status: 'outside' });
    expect(await archive.storedTile(-1, 0, 0)).toEqual({ status: 'outside' });
    expect(await archive.storedTile(1.5, 0, 0)).toEqual({ status: 'outside' });
  });
});

describe('the recent tiles kept in memory', () => {
  it('stay within their bytes, and a tile larger than the cap is still served', async () => {
    const archive = await openStreetArchive(locations['a local file']!(), 40_000);
    try {
      for (const { z, x, y } of expectedTiles) await archive.storedTile(z, x, y);
      expect(archive.cached.bytes).toBeLessThanOrEqual(40_000);
      expect(archive.cached.tiles).toBeGreaterThanOrEqual(2);
      const largest = expectedTiles.reduce((a, b) => (b.length > a.length ? b : a));
      expect(largest.length).toBeGreaterThan(40_000);
      expect(await archive.storedTile(largest.z, largest.x, largest.y)).toMatchObject({ status: 'tile' });
    } finally {
      await archive.close();
    }
  });
});

describe('an archive that changes while the service runs', () => {
  const [z, x, y] = FIXTURE_TILES.z14[0];

  it('local file: a new file put in its place is not read (the open handle keeps the old one) until a restart', async () => {
    const file = fileOf(fixtureBytes);
    const archive = await openStreetArchive({ kind: 'file', path: file }, 0);
    try {
      fs.writeFileSync(`${file}.new`, Buffer.from('not an archive'));
      fs.renameSync(`${file}.new`, file);
      expect(await archive.storedTile(z, x, y)).toMatchObject({ status: 'tile' });
    } finally {
      await archive.close();
    }
  });

  it('S3: a new object under its key is refused (If-Match), never mixed with the old one', async () => {
    const key = 'osm/changing.pmtiles';
    await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: fixtureBytes }));
    const archive = await openStreetArchive({ ...(locations['an S3 object']!() as Extract<StreetArchiveLocation, { kind: 's3' }>), key }, 0);
    try {
      await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: Buffer.concat([fixtureBytes, Buffer.from('more')]) }));
      await expect(archive.storedTile(z, x, y)).rejects.toThrow(/changed since the service started/);
    } finally {
      await archive.close();
    }
  });

  it('URL: a new file at the address is refused (its ETag), never mixed with the old one', async () => {
    const server = await startRangeServer(fixtureBytes);
    const archive = await openStreetArchive({ kind: 'url', url: server.url }, 0);
    try {
      server.replace(Buffer.concat([fixtureBytes, Buffer.from('more')]));
      await expect(archive.storedTile(z, x, y)).rejects.toThrow(/another version of the file/);
    } finally {
      await archive.close();
      await server.stop();
    }
  });
});
