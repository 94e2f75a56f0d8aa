// One contract for every BlobStore, run against the local directory and against S3 on a real
// S3-compatible server (moto's, started here on 127.0.0.1; test/support/s3Server.ts): writes
// (whole, streamed, past the cap), reads (whole, streamed, ranges), deletes, exists, the sweep by
// age, scratch files and local copies. "Leaves nothing" is checked in the storage itself: files
// (also half-written ones) under the directory, objects and unfinished multipart uploads in the bucket.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { ListMultipartUploadsCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlobTooLargeError, type BlobStore, type StoredBlob } from '../../lib/blobs/blobStore.js';
import { openBlobStore } from '../../lib/blobs/index.js';
import { LocalBlobStore } from '../../lib/blobs/localBlobStore.js';
import { loadConfig } from '../../lib/config.js';
import { startS3Server, type S3TestServer } from '../support/s3Server.js';

const MB = 1024 * 1024;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mps-blob-contract-'));
let s3: S3TestServer;
beforeAll(async () => {
  s3 = await startS3Server();
}, 300_000);
afterAll(async () => {
  await s3?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

interface Subject {
  store: BlobStore;
  /** Everything kept under a prefix, finished or not. */
  leftovers(prefix: string): Promise<string[]>;
}

const subjects: Record<string, () => Subject> = {
  'the local directory': () => {
    const root = path.join(tmp, 'local');
    return {
      store: new LocalBlobStore(root),
      leftovers: async (prefix) => (fs.existsSync(path.join(root, prefix)) ? fs.readdirSync(path.join(root, prefix)) : []),
    };
  },
  'S3 (moto server)': () => {
    // Through the configuration, as the service opens it.
    const config = loadConfig({ DATA_DIR: path.join(tmp, 's3-data'), ...s3.env('contract') });
    const root = 'contract/';
    return {
      store: openBlobStore(config),
      async leftovers(prefix) {
        const listed = `${root}${prefix}/`;
        const objects = await s3.client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: listed }));
        const uploads = await s3.client.send(new ListMultipartUploadsCommand({ Bucket: s3.bucket, Prefix: listed }));
        return [...(objects.Contents ?? []).map((o) => o.Key!), ...(uploads.Uploads ?? []).map((u) => `${u.Key} (unfinished upload)`)];
      },
    };
  },
};

/** `size` pseudo-random bytes, the same for the same seed. */
function bytesOf(size: number, seed = 1): Buffer {
  const bytes = Buffer.alloc(size);
  let x = seed * 2654435761;
  for (let i = 0; i < size; i += 4) {
    x = (x ^ (x << 13)) >>> 0;
    x = (x ^ (x >>> 17)) >>> 0;
    x = (x ^ (x << 5)) >>> 0;
    bytes.writeUInt32LE(x, Math.min(i, size - 4));
  }
  return bytes;
}

/** The bytes as a stream of 64 kB chunks (what an HTTP body looks like); `failAt`: an error after that many bytes. */
function streamOf(bytes: Buffer, failAt?: number): Readable & { destroyedEarly(): boolean } {
  let at = 0;
  const stream = new Readable({
    read() {
      if (failAt !== undefined && at >= failAt) return this.destroy(new Error('the client went away'));
      if (at >= bytes.length) return this.push(null);
      this.push(bytes.subarray(at, at + 64 * 1024));
      at += 64 * 1024;
    },
  });
  return Object.assign(stream, { destroyedEarly: () => stream.destroyed && at < bytes.length });
}

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(Object.keys(subjects))('BlobStore contract on %s', (name) => {
  let store: BlobStore;
  let leftovers: Subject['leftovers'];
  beforeAll(() => {
    ({ store, leftovers } = subjects[name]!());
  });

  /**
   * These blobs written under `prefix`, then a cutoff between them and one more written after it.
   * S3 keeps LastModified to the second: 2 s apart, a cutoff 1 s back falls between the writes.
   */
  async function aroundACutoff(prefix: string, oldTexts: string[]) {
    const old: StoredBlob[] = [];
    for (const text of oldTexts) old.push(await store.putBuffer(prefix, Buffer.from(text)));
    await sleep(2_100);
    const cutoff = Date.now() - 1_000;
    return { old, cutoff, fresh: await store.putBuffer(prefix, Buffer.from('fresh')) };
  }

  it('stores a buffer under a new key of its prefix and reads it back whole, streamed and in ranges', async () => {
    const bytes = Buffer.from('head\nbody of the blob');
    const { key, size } = await store.putBuffer('uploads', bytes);
    expect(key).toMatch(/^uploads\/[0-9a-f-]{36}$/);
    expect(size).toBe(bytes.length);
    expect(await store.exists(key)).toBe(true);
    expect((await store.read(key)).equals(bytes)).toBe(true);
    expect((await collect(store.readStream(key))).equals(bytes)).toBe(true);
    expect((await collect(store.readStream(key, { start: 5, end: 8 }))).toString()).toBe('body');
    // An end past the last byte stops at it; a start past it gives no bytes (a document's head is read so).
    expect((await collect(store.readStream(key, { start: 13, end: Number.MAX_SAFE_INTEGER }))).toString()).toBe('the blob');
    expect((await collect(store.readStream(key, { start: bytes.length + 10, end: Number.MAX_SAFE_INTEGER }))).length).toBe(0);
    await store.delete(key);
  });

  it('streams a body larger than several S3 parts into one blob, byte for byte', async () => {
    const bytes = bytesOf(12 * MB + 12_345);
    const { key, size } = await store.putStream('uploads', streamOf(bytes), 15 * MB);
    expect(size).toBe(bytes.length);
    expect(sha(await store.read(key))).toBe(sha(bytes));
    const middle = await collect(store.readStream(key, { start: 5 * MB - 3, end: 5 * MB + 2 }));
    expect(middle.equals(bytes.subarray(5 * MB - 3, 5 * MB + 3))).toBe(true);
    await store.delete(key);
    expect(await leftovers('uploads')).toEqual([]);
  });

  it('aborts at the first byte past the cap and keeps nothing, in one part and across several', async () => {
    for (const [size, cap] of [
      [100, 99],
      [12 * MB, 11 * MB],
    ] as const) {
      const source = streamOf(bytesOf(size, 7));
      await expect(store.putStream('uploads', source, cap)).rejects.toBeInstanceOf(BlobTooLargeError);
      expect(source.destroyed).toBe(true);
      expect(await leftovers('uploads')).toEqual([]);
    }
    // At the cap exactly is not past it.
    const { key } = await store.putStream('uploads', streamOf(bytesOf(100, 7)), 100);
    await store.delete(key);
  });

  it('keeps nothing of a body whose source fails midway (a client that went away)', async () => {
    await expect(store.putStream('uploads', streamOf(bytesOf(8 * MB, 3), 6 * MB), null)).rejects.toThrow(/went away/);
    expect(await leftovers('uploads')).toEqual([]);
  });

  it('deletes, and deleting a missing blob is not an error; a missing blob does not exist and cannot be read', async () => {
    const { key } = await store.putBuffer('images', Buffer.from('x'));
    await store.delete(key);
    await store.delete(key);
    expect(await store.exists(key)).toBe(false);
    await expect(store.read(key)).rejects.toThrow();
    await expect(collect(store.readStream(key))).rejects.toThrow();
    expect(await store.exists('images/00000000-0000-4000-8000-000000000000')).toBe(false);
    await store.delete('images/00000000-0000-4000-8000-000000000000');
  });

  it('refuses keys and prefixes it did not make', async () => {
    await expect(store.read('../outside/00000000-0000-4000-8000-000000000000')).rejects.toThrow(/not a blob key/);
    await expect(store.putBuffer('Up/loads', Buffer.from('x'))).rejects.toThrow(/not a blob prefix/);
    await expect(store.removeOlderThan('..', Date.now())).rejects.toThrow(/not a blob prefix/);
  });

  it('removes the blobs of a prefix written before the cutoff, keeps newer ones and other prefixes', async () => {
    const otherPrefix = await store.putBuffer('map-images', Buffer.from('kept'));
    const { old: [old], cutoff, fresh } = await aroundACutoff('parsed', ['old']);
    expect(await store.removeOlderThan('parsed', cutoff)).toBe(1);
    expect([await store.exists(old!.key), await store.exists(fresh.key), await store.exists(otherPrefix.key)]).toEqual([false, true, true]);
    expect(await store.removeOlderThan('never-written', Date.now())).toBe(0);
    await Promise.all([fresh, otherPrefix].map((blob) => store.delete(blob.key)));
  });

  it('keeps the old blobs that `keep` says are in use, asking about old ones only', async () => {
    const { old: [used, orphan], cutoff, fresh } = await aroundACutoff('images', ['used', 'orphan']);
    const asked: string[][] = [];
    const removed = await store.removeOlderThan('images', cutoff, async (keys) => {
      asked.push([...keys].sort());
      return new Set([used!.key]);
    });
    expect(removed).toBe(1);
    expect(asked).toEqual([[used!.key, orphan!.key].sort()]);
    expect([await store.exists(used!.key), await store.exists(orphan!.key), await store.exists(fresh.key)]).toEqual([true, false, true]);
    // Nothing old: not asked at all.
    expect(await store.removeOlderThan('never-written', Date.now(), async () => expect.fail('asked about nothing'))).toBe(0);
    await Promise.all([used!, fresh].map((blob) => store.delete(blob.key)));
  });

  it('stores a scratch file written by other code, and discards only its own scratch files', async () => {
    const file = await store.scratchFile();
    expect(fs.readFileSync(file).length).toBe(0);
    const bytes = bytesOf(6 * MB + 5, 11); // more than one S3 part
    fs.writeFileSync(file, bytes);
    const { key, size } = await store.adoptFile('parsed', file);
    expect(size).toBe(bytes.length);
    expect(fs.existsSync(file)).toBe(false);
    expect(sha(await store.read(key))).toBe(sha(bytes));

    const unused = await store.scratchFile();
    await store.discardFile(unused);
    expect(fs.existsSync(unused)).toBe(false);
    const outside = path.join(tmp, 'elsewhere.partial');
    fs.writeFileSync(outside, 'x');
    await expect(store.adoptFile('parsed', outside)).rejects.toThrow(/not a scratch file/);
    await store.discardFile(outside);
    expect(fs.existsSync(outside)).toBe(true);
    await store.delete(key);
  });

  it('gives a local file with the blob\'s bytes for code that reads files; discarding it keeps the blob', async () => {
    const bytes = bytesOf(300_000, 5);
    const { key } = await store.putBuffer('uploads', bytes);
    const file = await store.localFile(key);
    expect(sha(fs.readFileSync(file))).toBe(sha(bytes));
    await store.discardFile(file);
    expect(await store.exists(key)).toBe(true);
    expect(sha(await store.read(key))).toBe(sha(bytes));
    await expect(store.localFile('uploads/00000000-0000-4000-8000-000000000000')).rejects.toThrow();
    await store.delete(key);
  });

  it('sweeps scratch files by age under the prefix "scratch"', async () => {
    const stale = await store.scratchFile();
    const fresh = await store.scratchFile();
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    fs.utimesSync(stale, twoHoursAgo, twoHoursAgo);
    expect(await store.removeOlderThan('scratch', Date.now() - 60 * 60 * 1000)).toBe(1);
    expect([fs.existsSync(stale), fs.existsSync(fresh)]).toEqual([false, true]);
    await store.discardFile(fresh);
  });
});
