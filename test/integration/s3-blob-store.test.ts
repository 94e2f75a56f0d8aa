// The whole service on S3-compatible storage (BLOB_STORE=s3://… on moto's server, started here on
// 127.0.0.1; test/support/s3Server.ts) beside one on the local directory: an image upload, a map
// uploaded from a file and its static image, served from both with the same ETags, 304s and byte
// ranges; the request's files (upload, parsed document, local copies) gone once it ends, and
// nothing written to the data directory; the hourly sweep of files left behind in the bucket;
// BLOB_SERVE=redirect's 302 to a signed URL.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CreateMultipartUploadCommand, HeadObjectCommand, ListMultipartUploadsCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { Client, Connection } from '@temporalio/client';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { BlobStore } from '../../lib/blobs/blobStore.js';
import { openBlobStore } from '../../lib/blobs/index.js';
import { loadConfig, type Config } from '../../lib/config.js';
import { WORKFLOW_TYPES } from '../../lib/jobContracts.js';
import { startS3Server, type S3TestServer } from '../support/s3Server.js';
import { startTestService, type TestService } from './harness.js';

const ROOT = 'service/';
const HOUR = 60 * 60 * 1000;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mps-s3-service-'));
const KML = fs.readFileSync(new URL('../fixtures/kml/google-earth.kml', import.meta.url));

let s3: S3TestServer;
let s3Config: Config;
const services: Record<'local' | 's3', TestService> = {} as never;
let connection: Connection;
let temporal: Client;

beforeAll(async () => {
  s3 = await startS3Server();
  s3Config = loadConfig({ DATA_DIR: path.join(tmp, 's3-store'), ...s3.env(ROOT) });
  [services.s3, services.local] = await Promise.all([startTestService({ blobs: openBlobStore(s3Config) }), startTestService()]);
  connection = await Connection.connect({ address: inject('temporalAddress') });
  temporal = new Client({ connection, namespace: services.s3.config.temporalNamespace });
}, 300_000);
afterAll(async () => {
  await Promise.all(Object.values(services).map((service) => service.stop()));
  await connection?.close();
  await s3?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const photo = () => sharp({ create: { width: 640, height: 480, channels: 3, background: '#208040' } }).jpeg().toBuffer();
const fetchFrom = (service: TestService, urlPath: string, key: string | undefined, headers: Record<string, string> = {}, init: RequestInit = {}) =>
  fetch(`${service.url}${urlPath}`, { ...init, headers: { ...(key ? { authorization: `Token ${key}` } : {}), ...headers } });

/** Object keys (and unfinished uploads) in the bucket under ROOT + prefix. */
async function inBucket(prefix: string): Promise<string[]> {
  const listed = `${ROOT}${prefix}`;
  const objects = await s3.client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: listed }));
  const uploads = await s3.client.send(new ListMultipartUploadsCommand({ Bucket: s3.bucket, Prefix: listed }));
  return [...(objects.Contents ?? []).map((o) => o.Key!), ...(uploads.Uploads ?? []).map((u) => `${u.Key} (unfinished)`)];
}

/**
 * The file answers both stores must give alike: 200 with the ETag and length, 304 to it, HEAD,
 * one range (first bytes, last bytes, past the end), If-Range. Returns the ETag.
 */
async function checkServing(service: TestService, urlPath: string, key: string | undefined, expected: Buffer): Promise<string> {
  const whole = await fetchFrom(service, urlPath, key);
  expect(whole.status).toBe(200);
  expect(whole.headers.get('accept-ranges')).toBe('bytes');
  expect(Buffer.from(await whole.arrayBuffer()).equals(expected)).toBe(true);
  expect(Number(whole.headers.get('content-length'))).toBe(expected.length);
  const etag = whole.headers.get('etag')!;
  expect((await fetchFrom(service, urlPath, key, { 'if-none-match': etag })).status).toBe(304);
  const head = await fetchFrom(service, urlPath, key, {}, { method: 'HEAD' });
  expect([head.status, head.headers.get('etag'), head.headers.get('content-length')]).toEqual([200, etag, String(expected.length)]);

  const first = await fetchFrom(service, urlPath, key, { range: 'bytes=0-99' });
  expect([first.status, first.headers.get('content-range'), first.headers.get('content-length'), first.headers.get('etag')]).toEqual([
    206,
    `bytes 0-99/${expected.length}`,
    '100',
    etag,
  ]);
  expect(Buffer.from(await first.arrayBuffer()).equals(expected.subarray(0, 100))).toBe(true);
  const last = await fetchFrom(service, urlPath, key, { range: 'bytes=-10' });
  expect([last.status, last.headers.get('content-range')]).toEqual([206, `bytes ${expected.length - 10}-${expected.length - 1}/${expected.length}`]);
  expect(Buffer.from(await last.arrayBuffer()).equals(expected.subarray(-10))).toBe(true);
  const past = await fetchFrom(service, urlPath, key, { range: `bytes=${expected.length}-` });
  expect([past.status, past.headers.get('content-range')]).toEqual([416, `bytes */${expected.length}`]);
  // A range of another version of the file is not sent: the whole current file is.
  const stale = await fetchFrom(service, urlPath, key, { range: 'bytes=0-99', 'if-range': '"another-version"' });
  expect([stale.status, (await stale.arrayBuffer()).byteLength]).toEqual([200, expected.length]);
  return etag;
}

describe.each(['local', 's3'] as const)('the service on %s blob storage', (kind) => {
  let service: TestService;
  let owner: { key: string; username: string; userId: number };
  beforeAll(async () => {
    service = services[kind];
    owner = await service.newUser();
  });

  it('stores an uploaded image and serves each size with its ETag, 304 and ranges', async () => {
    const answer = await service.send('image/upload', owner.key, { file_type: 'jpg' }, await photo());
    expect(answer.error).toBeUndefined();
    const id = answer.image_id as string;
    const row = await service.db('images').where({ id }).first();
    const derivatives = (typeof row.derivatives === 'string' ? JSON.parse(row.derivatives) : row.derivatives) as { name: string; key: string; size: number }[];
    const s256 = derivatives.find((d) => d.name === 's256')!;
    const etag = await checkServing(service, `/images/${id}/s256.jpg`, owner.key, await service.blobs.read(s256.key));
    expect(etag).toBe(`"${id}-s256-${s256.size}"`);
    if (kind === 's3') {
      for (const d of derivatives) await s3.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: ROOT + d.key }));
    }
  });

  it('imports a map from a KML file and serves its rendered static image with its ETag, 304 and ranges', async () => {
    const answer = await service.send('map/upload', owner.key, { file_type: 'kml', visibility: 'public' }, KML);
    expect(answer.error).toBeUndefined();
    const mapPath = new URL(answer.url as string).pathname;
    let file: { key: string; size: number } | undefined;
    await expect
      .poll(
        async () => {
          const row = await service.db('maps').where({ id: answer.id }).first('image_files');
          file = (typeof row.image_files === 'string' ? JSON.parse(row.image_files) : row.image_files)?.static;
          return file !== undefined;
        },
        { timeout: 30_000, interval: 250 },
      )
      .toBe(true);
    const png = await service.blobs.read(file!.key);
    expect((await sharp(png).metadata()).width).toBe(1200);
    const etag = await checkServing(service, `${mapPath}/static.png`, undefined, png);
    expect(etag).toBe(`"${file!.key.replace(/[^A-Za-z0-9._-]/g, '_')}"`);
  });

  it('leaves none of a request\'s files behind: the upload, its parsed document, the parser\'s copy', async () => {
    const answer = await service.send('map/upload', owner.key, { file_type: 'kml', visibility: 'private' }, KML);
    expect(answer.error).toBeUndefined();
    if (kind === 's3') {
      await expect.poll(async () => [...(await inBucket('uploads/')), ...(await inBucket('parsed/'))], { timeout: 10_000 }).toEqual([]);
      expect(fs.readdirSync(s3Config.blobStore.kind === 's3' ? s3Config.blobStore.scratchDir : '')).toEqual([]);
      // Every file went to the bucket: the test's data directory has no blobs of its own.
      expect(fs.existsSync(service.blobDir)).toBe(false);
    } else {
      const requestFiles = () => ['uploads', 'parsed', 'scratch'].flatMap((dir) => (fs.existsSync(path.join(service.blobDir, dir)) ? fs.readdirSync(path.join(service.blobDir, dir)) : []));
      await expect.poll(requestFiles, { timeout: 10_000 }).toEqual([]);
    }
  });

  it('logged no internal errors', () => {
    expect(service.internalErrors).toEqual([]);
  });
});

describe('the hourly sweep on S3', () => {
  it('removes the bucket\'s request files a day old, unfinished uploads, stale scratch files and stored files no row names; keeps younger ones and stored files rows name', async () => {
    const blobs: BlobStore = services.s3.blobs;
    s3.setClock(-25 * HOUR);
    const oldUpload = await blobs.putBuffer('uploads', Buffer.from('left by a killed worker'));
    const oldParsed = await blobs.putBuffer('parsed', Buffer.from('{}'));
    const oldImage = await blobs.putBuffer('images', Buffer.from('a stored image a row names'));
    const oldOrphan = await blobs.putBuffer('map-images', Buffer.from('a static image stored by a worker killed before it recorded it'));
    s3.setClock(0);
    const { userId } = await services.s3.newUser();
    const derivative = { name: 's256', width: 1, height: 1, contentType: 'image/jpeg', key: oldImage.key, size: oldImage.size };
    const imageId = randomUUID().replace(/-/g, '').slice(0, 16);
    await services.s3.db('images').insert({ id: imageId, owner_id: userId, width: 1, height: 1, tip_color: '#000000', avg_color: '#000000', blob_prefix: 'images', derivatives: JSON.stringify([derivative]) });
    const fresh = await blobs.putBuffer('uploads', Buffer.from('a request still running'));
    // An upload cut off with its process: parts S3 keeps, invisible, until the upload is aborted.
    await s3.client.send(new CreateMultipartUploadCommand({ Bucket: s3.bucket, Key: `${ROOT}uploads/${randomUUID()}` }));
    const scratch = await blobs.scratchFile();
    const twoHoursAgo = new Date(Date.now() - 2 * HOUR);
    fs.utimesSync(scratch, twoHoursAgo, twoHoursAgo);

    const result = await temporal.workflow.execute(WORKFLOW_TYPES.cleanup, {
      taskQueue: services.s3.config.taskQueue,
      workflowId: `cleanup-s3-test-${randomUUID()}`,
      args: [],
    });
    expect(result).toEqual({ blobsRemoved: 5 });
    const left = async (...keys: string[]) => Promise.all(keys.map((key) => blobs.exists(key)));
    expect(await left(oldUpload.key, oldParsed.key, oldOrphan.key, fresh.key, oldImage.key)).toEqual([false, false, false, true, true]);
    expect(await inBucket('uploads/')).toEqual([ROOT + fresh.key]);
    expect(fs.existsSync(scratch)).toBe(false);
    await services.s3.db('images').where({ id: imageId }).delete();
    await Promise.all([fresh, oldImage].map((blob) => blobs.delete(blob.key)));
  });
});

describe('BLOB_SERVE=redirect', () => {
  let redirecting: TestService;
  let owner: { key: string };
  beforeAll(async () => {
    // A second API on the same bucket and database that hands out signed URLs (no worker: it only serves).
    redirecting = await startTestService({ blobs: openBlobStore({ ...s3Config, blobServe: 'redirect' }), worker: false });
    owner = await services.s3.newUser();
  });
  afterAll(() => redirecting?.stop());

  it('answers a GET with a 302 to a signed URL of the object, which serves the same bytes; 304 and HEAD stay with the service', async () => {
    const id = (await services.s3.send('image/upload', owner.key, { file_type: 'jpg' }, await photo())).image_id as string;
    const direct = await fetchFrom(services.s3, `/images/${id}/s256.jpg`, owner.key);
    const bytes = Buffer.from(await direct.arrayBuffer());
    const etag = direct.headers.get('etag')!;

    const redirect = await fetchFrom(redirecting, `/images/${id}/s256.jpg`, owner.key, {}, { redirect: 'manual' });
    expect([redirect.status, redirect.headers.get('cache-control')]).toEqual([302, 'no-store']);
    const location = new URL(redirect.headers.get('location')!);
    expect(location.origin).toBe(s3.endpoint);
    expect(location.searchParams.get('X-Amz-Expires')).toBe('600');
    const object = await fetch(location);
    expect(object.status).toBe(200);
    expect(Buffer.from(await object.arrayBuffer()).equals(bytes)).toBe(true);
    expect(object.headers.get('content-type')).toBe('image/jpeg');
    // Signed at the start of its five minutes: every request in them gets the same URL (a browser's cache can keep what it answers).
    expect(location.searchParams.get('X-Amz-Date')).toMatch(/^\d{8}T\d{2}[0-5][05]00Z$/);

    expect((await fetchFrom(redirecting, `/images/${id}/s256.jpg`, owner.key, { 'if-none-match': etag }, { redirect: 'manual' })).status).toBe(304);
    const head = await fetchFrom(redirecting, `/images/${id}/s256.jpg`, owner.key, {}, { method: 'HEAD', redirect: 'manual' });
    expect([head.status, head.headers.get('etag')]).toEqual([200, etag]);
    // Who may not see the file gets the 404, never a URL.
    expect((await fetchFrom(redirecting, `/images/${id}/s256.jpg`, undefined, {}, { redirect: 'manual' })).status).toBe(404);
    expect(redirecting.internalErrors).toEqual([]);
  });
});
