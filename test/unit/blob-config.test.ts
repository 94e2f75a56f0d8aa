// The blob storage settings (BLOB_STORE, BLOB_SERVE, S3_*, AWS_*): the default, an S3 bucket,
// and every combination that stops start-up with a message naming the variable.
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

describe('blob storage configuration', () => {
  it('keeps blobs under DATA_DIR/blobs and streams them by default', () => {
    const config = loadConfig({ DATA_DIR: '/srv/maps' });
    expect(config.blobStore).toEqual({ kind: 'local', dir: path.resolve('/srv/maps/blobs') });
    expect(config.blobServe).toBe('stream');
  });

  it('reads an S3-compatible bucket, its prefix, endpoint, region and credentials', () => {
    const config = loadConfig({
      DATA_DIR: '/srv/maps',
      BLOB_STORE: 's3://map-blobs/prod/eu/',
      S3_ENDPOINT: 'http://seaweedfs:8333',
      AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
      AWS_SECRET_ACCESS_KEY: 'secret',
      BLOB_SERVE: 'redirect',
      S3_PUBLIC_ENDPOINT: 'https://files.example.com',
    });
    expect(config.blobStore).toEqual({
      kind: 's3',
      bucket: 'map-blobs',
      root: 'prod/eu/',
      endpoint: 'http://seaweedfs:8333',
      publicEndpoint: 'https://files.example.com',
      region: 'us-east-1',
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
      scratchDir: path.resolve('/srv/maps/blob-scratch'),
    });
    expect(config.blobServe).toBe('redirect');
  });

  it('takes the region from S3_REGION before AWS_REGION, and leaves credentials to the SDK when none are given', () => {
    expect(loadConfig({ BLOB_STORE: 's3://bucket', AWS_REGION: 'eu-west-1' }).blobStore).toMatchObject({ root: '', region: 'eu-west-1', credentials: undefined, endpoint: undefined });
    expect(loadConfig({ BLOB_STORE: 's3://bucket', AWS_REGION: 'eu-west-1', S3_REGION: 'us-west-2' }).blobStore).toMatchObject({ region: 'us-west-2' });
  });

  it('refuses what cannot work, naming the variable', () => {
    expect(refused({ BLOB_STORE: '/srv/blobs' })).toMatch(/BLOB_STORE: must be s3:\/\/bucket/);
    expect(refused({ BLOB_STORE: 's3://Bad_Bucket', S3_REGION: 'eu-west-1' })).toMatch(/BLOB_STORE: "Bad_Bucket" is not a bucket name/);
    expect(refused({ BLOB_STORE: 's3://bucket/a//b', S3_REGION: 'eu-west-1' })).toMatch(/BLOB_STORE: the prefix/);
    expect(refused({ BLOB_STORE: 's3://bucket/../x', S3_REGION: 'eu-west-1' })).toMatch(/BLOB_STORE: the prefix/);
    expect(refused({ BLOB_STORE: 's3://bucket' })).toMatch(/S3_REGION: .*needs the bucket's region/);
    expect(refused({ BLOB_STORE: 's3://bucket', AWS_REGION: 'EU West' })).toMatch(/AWS_REGION: must be a region name/);
    expect(refused({ BLOB_SERVE: 'redirect' })).toMatch(/BLOB_SERVE: redirect needs BLOB_STORE=s3:\/\/…: files in the local data directory have no URL/);
    expect(refused({ BLOB_SERVE: 'proxy' })).toMatch(/BLOB_SERVE/);
    expect(refused({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toMatch(/S3_ENDPOINT: is only used with BLOB_STORE/);
    expect(refused({ BLOB_STORE: 's3://bucket', S3_ENDPOINT: 'ftp://x' })).toMatch(/S3_ENDPOINT/);
    expect(refused({ BLOB_STORE: 's3://bucket', S3_REGION: 'eu-west-1', AWS_ACCESS_KEY_ID: 'AKID' })).toMatch(/AWS_SECRET_ACCESS_KEY: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are set together/);
    expect(refused({ BLOB_STORE: 's3://bucket', S3_REGION: 'eu-west-1', S3_PUBLIC_ENDPOINT: 'https://files.example.com' })).toMatch(/S3_PUBLIC_ENDPOINT: is only used with BLOB_SERVE=redirect/);
  });

  it('ignores AWS variables meant for other programs while blobs stay local', () => {
    expect(loadConfig({ AWS_REGION: 'whatever', AWS_ACCESS_KEY_ID: 'AKID' }).blobStore.kind).toBe('local');
  });
});
