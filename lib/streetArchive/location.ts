// Where the street map archive is (BASEMAP_TILES, read by lib/config.ts): a local path, an S3
// object `s3://bucket/key` reached with the S3 settings the blob store uses (S3_ENDPOINT,
// S3_REGION, AWS_*), or an `https://` URL (`http://` too, for a server on the same network).
import path from 'node:path';
import { readS3Connection, type BlobEnv, type S3Connection } from '../blobs/blobSettings.js';

export type StreetArchiveLocation =
  | { kind: 'file'; path: string }
  | { kind: 's3'; bucket: string; key: string; connection: S3Connection }
  | { kind: 'url'; url: string };

/** S3's bucket naming rules (general purpose buckets), as BLOB_STORE checks them. */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** The archive BASEMAP_TILES names, or its problems as sentences naming the variables. */
export function parseStreetArchiveLocation(value: string, env: BlobEnv): { location: StreetArchiveLocation } | { problems: string[] } {
  const text = value.trim();
  const s3 = /^s3:\/\/([^/]*)\/?(.*)$/.exec(text);
  if (s3) {
    const [, bucket = '', key = ''] = s3;
    if (!BUCKET.test(bucket) || bucket.includes('..')) return { problems: [`BASEMAP_TILES: "${bucket.slice(0, 80)}" is not a bucket name (3–63 lower-case letters, digits, dots and hyphens)`] };
    if (key === '' || key.endsWith('/')) return { problems: ['BASEMAP_TILES: an S3 archive is named s3://bucket/key, with the key of the .pmtiles object'] };
    const { connection, problems } = readS3Connection(env, 'BASEMAP_TILES');
    return problems.length > 0 ? { problems } : { location: { kind: 's3', bucket, key, connection } };
  }
  if (/^https?:\/\//i.test(text)) {
    try {
      return { location: { kind: 'url', url: new URL(text).href } };
    } catch {
      return { problems: ['BASEMAP_TILES: is not a valid URL'] };
    }
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return { problems: ['BASEMAP_TILES: must be a file path, s3://bucket/key or an https:// URL'] };
  return { location: { kind: 'file', path: path.resolve(text) } };
}

/** The location as messages name it (never credentials: a URL's user, password and query, which may sign it, are left out). */
export function describeLocation(location: StreetArchiveLocation): string {
  if (location.kind === 'file') return location.path;
  if (location.kind === 's3') return `s3://${location.bucket}/${location.key}`;
  const url = new URL(location.url);
  return `${url.protocol}//${url.host}${url.pathname}`;
}
