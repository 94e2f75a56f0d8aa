// The blob store the configuration names: a directory under DATA_DIR by default, or an
// S3-compatible bucket (BLOB_STORE=s3://…; lib/blobs/blobSettings.ts).
import { S3Client } from '@aws-sdk/client-s3';
import type { Config } from '../config.js';
import type { S3Connection } from './blobSettings.js';
import type { BlobStore } from './blobStore.js';
import { LocalBlobStore } from './localBlobStore.js';
import { S3BlobStore } from './s3BlobStore.js';

/** An S3 client for the settings (the blob store's, BASEMAP_TILES'); `endpoint` overrides theirs (the public one, for signing). */
export function s3ClientOf(settings: S3Connection, endpoint = settings.endpoint): S3Client {
  return new S3Client({
    region: settings.region,
    ...(endpoint ? { endpoint, forcePathStyle: true } : {}),
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
    maxAttempts: 3,
    // A stalled connection fails the request (and the SDK retries it) instead of hanging an upload.
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
  });
}

export function openBlobStore(config: Pick<Config, 'blobStore' | 'blobServe'>): BlobStore {
  const settings = config.blobStore;
  if (settings.kind === 'local') return new LocalBlobStore(settings.dir);
  return new S3BlobStore({
    client: s3ClientOf(settings),
    bucket: settings.bucket,
    root: settings.root,
    scratchDir: settings.scratchDir,
    signer: config.blobServe === 'redirect' ? s3ClientOf(settings, settings.publicEndpoint ?? settings.endpoint) : undefined,
  });
}
