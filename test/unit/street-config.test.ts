// BASEMAP_TILES' three forms (a path, s3://bucket/key with the blob store's S3 settings, a URL),
// the tile cache's size, and the values that stop start-up with a message naming the variable.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type Env } from '../../lib/config.js';

const refused = (env: Env): string => {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('the configuration was accepted');
};

describe('BASEMAP_TILES', () => {
  it('is unset by default (Natural Earth only); 64 MB of recent tiles are kept by default, or none', () => {
    expect(loadConfig({})).toMatchObject({ basemapTiles: undefined, basemapTileCacheBytes: 64 * 1024 * 1024 });
    expect(loadConfig({ BASEMAP_TILES: '' }).basemapTiles).toBeUndefined();
    expect(loadConfig({ BASEMAP_TILE_CACHE_MB: '8' }).basemapTileCacheBytes).toBe(8 * 1024 * 1024);
    expect(loadConfig({ BASEMAP_TILE_CACHE_MB: '0' }).basemapTileCacheBytes).toBe(0); // none: every tile read from the archive
  });

  it('takes a local path, resolved from the working directory', () => {
    expect(loadConfig({ BASEMAP_TILES: 'data/basemap.pmtiles' }).basemapTiles).toEqual({ kind: 'file', path: path.resolve('data/basemap.pmtiles') });
    expect(loadConfig({ BASEMAP_TILES: '/srv/tiles/planet.pmtiles' }).basemapTiles).toEqual({ kind: 'file', path: '/srv/tiles/planet.pmtiles' });
  });

  it('takes an S3 object with the S3 settings the blob store uses, also when blobs stay local', () => {
    const config = loadConfig({ BASEMAP_TILES: 's3://map-tiles/osm/planet.pmtiles', S3_ENDPOINT: 'http://seaweedfs:8333', AWS_ACCESS_KEY_ID: 'AKID', AWS_SECRET_ACCESS_KEY: 'secret' });
    expect(config.basemapTiles).toEqual({
      kind: 's3',
      bucket: 'map-tiles',
      key: 'osm/planet.pmtiles',
      connection: { endpoint: 'http://seaweedfs:8333', region: 'us-east-1', credentials: { accessKeyId: 'AKID', secretAccessKey: 'secret' } },
    });
    expect(config.blobStore.kind).toBe('local');
    expect(loadConfig({ BASEMAP_TILES: 's3://map-tiles/planet.pmtiles', AWS_REGION: 'eu-west-1' }).basemapTiles).toMatchObject({ connection: { endpoint: undefined, region: 'eu-west-1', credentials: undefined } });
  });

  it('takes an https:// URL (http:// too)', () => {
    expect(loadConfig({ BASEMAP_TILES: 'https://tiles.example.com/planet.pmtiles' }).basemapTiles).toEqual({ kind: 'url', url: 'https://tiles.example.com/planet.pmtiles' });
    expect(loadConfig({ BASEMAP_TILES: 'http://10.0.0.5/osm.pmtiles' }).basemapTiles).toEqual({ kind: 'url', url: 'http://10.0.0.5/osm.pmtiles' });
  });

  it('refuses what cannot work, naming the variable', () => {
    expect(refused({ BASEMAP_TILES: 's3://map-tiles' })).toMatch(/BASEMAP_TILES: an S3 archive is named s3:\/\/bucket\/key/);
    expect(refused({ BASEMAP_TILES: 's3://map-tiles/osm/', S3_REGION: 'eu-west-1' })).toMatch(/BASEMAP_TILES: an S3 archive is named s3:\/\/bucket\/key/);
    expect(refused({ BASEMAP_TILES: 's3://Map_Tiles/a.pmtiles', S3_REGION: 'eu-west-1' })).toMatch(/BASEMAP_TILES: "Map_Tiles" is not a bucket name/);
    expect(refused({ BASEMAP_TILES: 's3://map-tiles/a.pmtiles' })).toMatch(/S3_REGION: BASEMAP_TILES on AWS S3 needs the bucket's region/);
    expect(refused({ BASEMAP_TILES: 's3://map-tiles/a.pmtiles', S3_REGION: 'eu-west-1', AWS_ACCESS_KEY_ID: 'AKID' })).toMatch(/AWS_SECRET_ACCESS_KEY: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are set together/);
    expect(refused({ BASEMAP_TILES: 'ftp://tiles.example.com/a.pmtiles' })).toMatch(/BASEMAP_TILES: must be a file path, s3:\/\/bucket\/key or an https:\/\/ URL/);
    expect(refused({ BASEMAP_TILE_CACHE_MB: '-1' })).toMatch(/BASEMAP_TILE_CACHE_MB/);
    expect(refused({ BASEMAP_TILE_CACHE_MB: 'lots' })).toMatch(/BASEMAP_TILE_CACHE_MB/);
    // The S3 settings alone are still a mistake when nothing names a bucket.
    expect(refused({ S3_ENDPOINT: 'http://127.0.0.1:9000', BASEMAP_TILES: '/srv/a.pmtiles' })).toMatch(/S3_ENDPOINT: is only used with BLOB_STORE/);
  });
});
