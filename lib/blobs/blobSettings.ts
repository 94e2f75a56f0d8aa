// Where blobs live, from the environment (read by lib/config.ts): DATA_DIR/blobs by default, or
// S3-compatible object storage named by BLOB_STORE=s3://bucket/prefix, with S3_ENDPOINT (a
// server other than AWS's, addressed path-style), S3_REGION or AWS_REGION, and the standard
// AWS credential variables (unset: the AWS SDK's own chain — instance roles, profiles, web
// identity). BLOB_SERVE says how stored files reach clients. The same server, region and
// credentials serve BASEMAP_TILES=s3://bucket/key (readS3Connection). Returns problems as
// sentences naming the variable, for ConfigError.
import path from 'node:path';

export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** Which S3-compatible server a client talks to, in which region, with which credentials. */
export interface S3Connection {
  /** Unset: AWS itself. */
  endpoint: string | undefined;
  region: string;
  /** Unset: the AWS SDK's default credential chain. */
  credentials: S3Credentials | undefined;
}

export type BlobStoreSettings =
  | { kind: 'local'; dir: string }
  | (S3Connection & {
      kind: 's3';
      bucket: string;
      /** Prepended to every key: '' or ending in '/'. */
      root: string;
      /** The endpoint browsers reach, for signed URLs (default: endpoint). */
      publicEndpoint: string | undefined;
      /** Scratch files and copies of blobs for parser threads. */
      scratchDir: string;
    });

/** stream: the service sends the bytes; redirect: a 302 to a short-lived signed URL of the object. */
export type BlobServe = 'stream' | 'redirect';

export interface BlobEnv {
  BLOB_STORE?: string;
  BLOB_SERVE?: BlobServe;
  S3_ENDPOINT?: string;
  S3_PUBLIC_ENDPOINT?: string;
  S3_REGION?: string;
  AWS_REGION?: string;
  AWS_ACCESS_KEY_ID?: string;
  AWS_SECRET_ACCESS_KEY?: string;
  AWS_SESSION_TOKEN?: string;
}

/** S3's bucket naming rules (general purpose buckets), without the rarely-hit reserved prefixes. */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
/** Key prefix: safe characters only, segments separated by single slashes. */
const ROOT = /^[A-Za-z0-9!_.*'()-]+(\/[A-Za-z0-9!_.*'()-]+)*$/;
/** Region used when S3_ENDPOINT names a server of its own and no region is given (most ignore it). */
const DEFAULT_ENDPOINT_REGION = 'us-east-1';

/** The bucket and key root of `s3://bucket[/prefix]`, or why it is not one. */
export function parseS3Url(value: string): { bucket: string; root: string } | { problem: string } {
  const match = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(value.trim());
  if (!match) return { problem: 'must be s3://bucket or s3://bucket/prefix (unset: blobs are kept under DATA_DIR/blobs)' };
  const bucket = match[1]!;
  const prefix = (match[2] ?? '').replace(/\/+$/, '');
  if (!BUCKET.test(bucket) || bucket.includes('..')) {
    return { problem: `"${bucket.slice(0, 80)}" is not a bucket name (3–63 lower-case letters, digits, dots and hyphens)` };
  }
  if (prefix !== '' && (!ROOT.test(prefix) || prefix.split('/').some((part) => part === '.' || part === '..'))) {
    return { problem: 'the prefix after the bucket may hold letters, digits and !_.*\'()- in segments separated by single slashes' };
  }
  return { bucket, root: prefix === '' ? '' : `${prefix}/` };
}

/**
 * The S3 server, region and credentials for `user`, the variable that names a bucket
 * (BLOB_STORE, BASEMAP_TILES), with the problems of those settings.
 */
export function readS3Connection(env: BlobEnv, user: string): { connection: S3Connection; problems: string[] } {
  const problems: string[] = [];
  const region = env.S3_REGION ?? env.AWS_REGION ?? (env.S3_ENDPOINT ? DEFAULT_ENDPOINT_REGION : undefined);
  if (region !== undefined && !/^[a-z0-9-]+$/.test(region)) problems.push(`${env.S3_REGION ? 'S3_REGION' : 'AWS_REGION'}: must be a region name such as eu-west-1`);
  if (region === undefined) problems.push(`S3_REGION: ${user} on AWS S3 needs the bucket's region (S3_REGION or AWS_REGION, for example eu-west-1)`);
  const { AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey, AWS_SESSION_TOKEN: sessionToken } = env;
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    problems.push(`${accessKeyId === undefined ? 'AWS_ACCESS_KEY_ID' : 'AWS_SECRET_ACCESS_KEY'}: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are set together or not at all`);
  }
  if (sessionToken !== undefined && accessKeyId === undefined) problems.push('AWS_SESSION_TOKEN: needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY');
  return {
    connection: {
      endpoint: env.S3_ENDPOINT,
      region: region ?? DEFAULT_ENDPOINT_REGION,
      credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) } : undefined,
    },
    problems,
  };
}

/** `otherS3User`: another variable names a bucket (BASEMAP_TILES=s3://…), so the S3 settings are in use without BLOB_STORE. */
export function readBlobSettings(env: BlobEnv, dataDir: string, otherS3User?: string): { store: BlobStoreSettings; serve: BlobServe; problems: string[] } {
  const problems: string[] = [];
  const serve = env.BLOB_SERVE ?? 'stream';
  const local: BlobStoreSettings = { kind: 'local', dir: path.join(dataDir, 'blobs') };
  if (env.BLOB_STORE === undefined) {
    if (serve === 'redirect') {
      problems.push('BLOB_SERVE: redirect needs BLOB_STORE=s3://…: files in the local data directory have no URL of their own to redirect to (use stream)');
    }
    for (const name of ['S3_ENDPOINT', 'S3_PUBLIC_ENDPOINT', 'S3_REGION'] as const) {
      if (env[name] !== undefined && (name === 'S3_PUBLIC_ENDPOINT' || !otherS3User)) problems.push(`${name}: is only used with BLOB_STORE=s3://…, which is not set`);
    }
    return { store: local, serve, problems };
  }
  const location = parseS3Url(env.BLOB_STORE);
  if ('problem' in location) {
    problems.push(`BLOB_STORE: ${location.problem}`);
    return { store: local, serve, problems };
  }
  const { connection, problems: connectionProblems } = readS3Connection(env, 'BLOB_STORE');
  problems.push(...connectionProblems);
  if (env.S3_PUBLIC_ENDPOINT !== undefined && serve !== 'redirect') problems.push('S3_PUBLIC_ENDPOINT: is only used with BLOB_SERVE=redirect');
  return {
    store: {
      kind: 's3',
      ...location,
      ...connection,
      publicEndpoint: env.S3_PUBLIC_ENDPOINT,
      scratchDir: path.join(dataDir, 'blob-scratch'),
    },
    serve,
    problems,
  };
}
